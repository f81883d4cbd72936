package io.pdla.redirect;

import io.pdla.catalog.ReplicaState;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.Fixture;
import io.pdla.replicator.OtherUser;
import io.pdla.replicator.daemon.ReplicaAdmin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The catalog's trust model (redirect/README.md, "Trust model of the catalog"), with a real second user: every user
 * whose jobs redirect writes the one catalog, so any of them can deny another the replicas (drop their entries: the
 * owner's reads go to the original; point an entry at a planted file as DIRTY: the owner's opens of the file fail,
 * naming the entry, until the owner drops it), and nothing more: the owner's bytes stay right and whole, the planted
 * bytes are never read nor copied, and {@code pdla replicas drop --discard-writes} gives the service back.
 */
class CatalogTrustModelTest {
    private static final int SIZE = 128 << 10, REQ = 4096, STRIDE = 2 * REQ, COUNT = 12;

    @TempDir
    Path tmp;

    @Test
    void aCatalogWriterCanDenyAnotherUserTheReplicasButNotTheirData() throws Exception {
        OtherUser.assumeAvailable();
        OtherUser.openUp(tmp);
        Path dir = Files.createDirectories(tmp.resolve("root-data"));
        OtherUser.openUp(dir);
        Path file = dir.resolve("input.dat");
        byte[] bytes = Fixture.writeRandomFile(file, SIZE, 21);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--")); // pdlatest reads it, cannot write it
        Path plantDir = Files.createDirectories(tmp.resolve("pdlatest-plants"));
        OtherUser.give(plantDir);
        KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("app", 1), 0, file.toUri()), Geometry.strided(0, REQ, STRIDE, COUNT));
        Path fxDir = Files.createDirectories(tmp.resolve("fx"));
        Path catalog = fxDir.resolve("catalog");
        try (Fixture fx = new Fixture(fxDir)) {
            fx.replication.queue.offer(p);
            assertEquals(1, fx.replication.daemon.runOnce().published(), fx.progress.toString());
            RedirectInterceptor r = reader(fx);
            assertArrayEquals(Arrays.copyOfRange(bytes, STRIDE, STRIDE + REQ), readBlock(file, r, STRIDE));
            assertEquals(1, r.stats().readsFromReplica.get(), "root's read is served by the replica: " + r.stats());
        }

        // allowed: dropping root's entries; root's reads go to the original, with the original's bytes
        OtherUser.give(catalog);
        String dropped = OtherUser.java(DenyServiceAsOtherUser.class, catalog.toString(), file.toString(), "drop").output();
        assertTrue(dropped.contains("DROPPED 1"), dropped);
        try (Fixture fx = new Fixture(fxDir)) {
            RedirectInterceptor r = reader(fx);
            assertArrayEquals(Arrays.copyOfRange(bytes, STRIDE, STRIDE + REQ), readBlock(file, r, STRIDE));
            assertEquals(0, r.stats().readsFromReplica.get(), "no replica left to serve: " + r.stats());
            fx.replication.queue.offer(p);
            assertEquals(1, fx.replication.daemon.runOnce().published(), "rebuilt: " + fx.progress);
        }

        // allowed: a DIRTY entry pointing at pdlatest's own file; root's opens of the file fail naming it
        OtherUser.give(catalog);
        String planted = OtherUser.java(DenyServiceAsOtherUser.class, catalog.toString(), file.toString(), "plant", plantDir.toString()).output();
        assertTrue(planted.contains("PLANTED 1"), planted);
        try (Fixture fx = new Fixture(fxDir)) {
            IOException denied = assertThrows(IOException.class, () -> readBlock(file, reader(fx), 0), "the planted DIRTY entry did not fail root's open");
            assertTrue(denied.getMessage().contains("replica-9-deadbeef"), "the failure names the planted replica: " + denied.getMessage());
            // not allowed: the daemon copying the planted bytes over root's file (it cannot write it; the replica is refused)
            fx.replication.daemon.runOnce();
            assertArrayEquals(bytes, Files.readAllBytes(file), "the planted replica's bytes reached root's file");
            assertEquals(ReplicaState.DIRTY, fx.catalog.transact(t -> t.entry(p.key())).orElseThrow().state(), "the refused entry stays DIRTY");
            // the way out for the owner: drop the entry, discarding the writes it claims to hold (it holds none of root's)
            assertTrue(new ReplicaAdmin(fx.catalog).drop(p.key(), true));
            RedirectInterceptor r = reader(fx);
            assertArrayEquals(Arrays.copyOfRange(bytes, 0, REQ), readBlock(file, r, 0), "root reads the original again");
        }
        assertTrue(Files.exists(plantDir.resolve("replica-9-deadbeef")), "the drop deletes nothing outside replica folders");
        assertArrayEquals(bytes, Files.readAllBytes(file));
    }

    private static RedirectInterceptor reader(Fixture fx) {
        return new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db));
    }

    private static byte[] readBlock(Path file, RedirectInterceptor r, long offset) throws IOException {
        try (ChainFile f = new ChainFile(file.toUri(), "app", 1, 0, Map.of(), List.of(r), true)) {
            return f.read(offset, REQ);
        }
    }
}
