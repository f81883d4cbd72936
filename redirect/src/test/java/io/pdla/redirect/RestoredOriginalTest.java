package io.pdla.redirect;

import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.Fixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user restores an original outside pdla after its replica was built: other bytes of the same size, the
 * modification time put back (as cp -p, rsync -t, tar -x or a backup restore do), in place or by renaming a
 * copy over it. Run 2 must read the restored bytes, never the replica's.
 */
class RestoredOriginalTest {
    static final int SIZE = 256 << 10, REQ = 4096, STRIDE = 3 * REQ, COUNT = 20;

    @TempDir
    Path tmp;

    @Test
    void anOriginalOverwrittenInPlaceWithItsTimePutBackIsNotServedFromTheReplica() throws Exception {
        check("in-place", (file, restored) -> {
            FileTime mtime = Files.getLastModifiedTime(file);
            Files.write(file, restored);            // same inode, same size
            Files.setLastModifiedTime(file, mtime);
        });
    }

    @Test
    void anOriginalReplacedByRenameWithPreservedTimesIsNotServedFromTheReplica() throws Exception {
        check("rename", (file, restored) -> {
            FileTime mtime = Files.getLastModifiedTime(file);
            Path copy = file.resolveSibling(file.getFileName() + ".restore");
            Files.write(copy, restored);
            Files.setLastModifiedTime(copy, mtime);
            Files.move(copy, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        });
    }

    private interface Restore {
        void apply(Path file, byte[] restored) throws Exception;
    }

    private void check(String name, Restore restore) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve(name));
        Path file = dir.resolve("data.bin");
        byte[] original = Fixture.writeRandomFile(file, SIZE, 5);
        try (Fixture fx = new Fixture(dir)) {
            PatternKey key = new PatternKey(new AppIdentity("app", 1), 0, file.toUri());
            fx.replication.queue.offer(KeyedPattern.of(key, Geometry.strided(REQ, REQ, STRIDE, COUNT)));
            assertEquals(1, fx.replication.daemon.runOnce().published());
            RedirectConfig cfg = RedirectConfig.from(Map.of()).withCatalog(fx.db);

            // before the restore the replica serves the pattern
            RedirectInterceptor before = new RedirectInterceptor(cfg);
            try (ChainFile f = new ChainFile(file.toUri(), "app", 1, 0, Map.of(), List.of(before), true)) {
                assertArrayEquals(Arrays.copyOfRange(original, REQ, 2 * REQ), f.read(REQ, REQ));
            }
            assertEquals(1, before.stats().readsFromReplica.get(), before.stats().toString());

            byte[] restored = new byte[SIZE];
            new Random(99).nextBytes(restored);
            restore.apply(file, restored);
            assertEquals(SIZE, Files.size(file));

            RedirectInterceptor after = new RedirectInterceptor(cfg);
            try (ChainFile f = new ChainFile(file.toUri(), "app", 1, 0, Map.of(), List.of(after), true)) {
                for (int i = 0; i < COUNT; i++) {
                    long off = REQ + (long) i * STRIDE;
                    assertArrayEquals(Arrays.copyOfRange(restored, (int) off, (int) off + REQ), f.read(off, REQ), name + ": request " + i);
                }
            }
            assertEquals(0, after.stats().readsFromReplica.get(), name + ": the stale replica served: " + after.stats());
            assertTrue(after.stats().readsFromOriginal.get() >= COUNT, after.stats().toString());
        }
    }
}
