package io.pdla.redirect;

import io.pdla.hdfs.MiniCluster;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.Fixture;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;
import io.pdla.storage.StorageStatus;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RestoredOriginalTest}'s scenario (POSIX) on the other stores: after a replica was built, the original
 * gets other bytes of the same size outside pdla and its modification time is put back, in place or by a copy
 * renamed over it. Run 2 must read the new bytes, never the replica's.
 * <ul>
 * <li>sim-pfs: new bytes written through the sim-pfs driver, then every backing file's time put back (as a
 * restore of the sim-pfs root folder would);</li>
 * <li>HDFS (MiniDFSCluster): truncate to 0 + append + {@code setTimes} keeps the inode id, size and time, so
 * the change stamp must say more than the inode id; create-with-overwrite and rename-over with
 * {@code setTimes} make a new inode.</li>
 * </ul>
 */
class RestoredOriginalPerStoreTest {
    static final int SIZE = 192 << 10, REQ = 4096, STRIDE = 3 * REQ, COUNT = 16;

    @TempDir
    static Path shared;
    static MiniCluster hdfs;
    static String oldSimRoot;

    @BeforeAll
    static void start() throws IOException {
        oldSimRoot = System.getProperty("pdla.simpfs.root");
        System.setProperty("pdla.simpfs.root", Files.createDirectories(shared.resolve("simpfs-root")).toString());
        hdfs = MiniCluster.builder().diskNodes(1).ssdNodes(0).replication(1).baseDir(shared.resolve("hdfs")).start();
    }

    @AfterAll
    static void stop() {
        if (hdfs != null) hdfs.close();
        if (oldSimRoot == null) System.clearProperty("pdla.simpfs.root");
        else System.setProperty("pdla.simpfs.root", oldSimRoot);
    }

    @TempDir
    Path tmp;

    private interface Restore {
        void apply(URI file, byte[] restored) throws Exception;
    }

    // ---- sim-pfs ----------------------------------------------------------------------------------------

    @Test
    void simPfsOriginalRewrittenWithItsBackingFilesTimesPutBack() throws Exception {
        check(URI.create("simpfs:///inplace/data.bin"), "simpfs in-place", (file, restored) -> {
            Map<Path, FileTime> times = backingTimes();
            writeThroughDriver(file, restored, false);
            for (Map.Entry<Path, FileTime> t : times.entrySet()) {
                if (Files.exists(t.getKey())) Files.setLastModifiedTime(t.getKey(), t.getValue());
            }
        });
    }

    @Test
    void simPfsOriginalReplacedByRenameWithTimesPutBack() throws Exception {
        check(URI.create("simpfs:///renamed/data.bin"), "simpfs rename", (file, restored) -> {
            StorageDriver d = StorageDrivers.installed().forUri(file);
            FileTime mtime = FileTime.from(d.stat(file).modifiedNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
            Map<Path, FileTime> before = backingTimes();
            URI copy = URI.create(file + ".restore");
            writeThroughDriver(copy, restored, true);
            for (Map.Entry<Path, FileTime> t : backingTimes().entrySet()) {
                if (!t.getValue().equals(before.get(t.getKey()))) Files.setLastModifiedTime(t.getKey(), mtime);
            }
            d.rename(copy, file);
        });
    }

    private static Map<Path, FileTime> backingTimes() throws IOException {
        Map<Path, FileTime> m = new HashMap<>();
        try (Stream<Path> s = Files.walk(Path.of(System.getProperty("pdla.simpfs.root")))) {
            for (Path p : s.filter(Files::isRegularFile).toList()) m.put(p, Files.getLastModifiedTime(p));
        }
        return m;
    }

    // ---- HDFS -------------------------------------------------------------------------------------------

    @Test
    void hdfsOriginalTruncatedAndAppendedWithItsTimePutBack() throws Exception {
        check(hdfs.uri("/truncate/data.bin"), "hdfs truncate+append", (file, restored) -> {
            DistributedFileSystem fs = hdfs.fileSystem();
            org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(file.getPath());
            long mtime = fs.getFileStatus(p).getModificationTime();
            assertTrue(fs.truncate(p, 0), "truncate to a block boundary finishes at once");
            try (FSDataOutputStream out = fs.append(p)) {
                out.write(restored);
            }
            fs.setTimes(p, mtime, -1);
        });
    }

    @Test
    void hdfsOriginalOverwrittenWithItsTimePutBack() throws Exception {
        check(hdfs.uri("/overwrite/data.bin"), "hdfs overwrite", (file, restored) -> {
            DistributedFileSystem fs = hdfs.fileSystem();
            org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(file.getPath());
            long mtime = fs.getFileStatus(p).getModificationTime();
            try (FSDataOutputStream out = fs.create(p, true)) {
                out.write(restored);
            }
            fs.setTimes(p, mtime, -1);
        });
    }

    @Test
    void hdfsOriginalReplacedByRenameWithItsTimePutBack() throws Exception {
        check(hdfs.uri("/renamed/data.bin"), "hdfs rename", (file, restored) -> {
            DistributedFileSystem fs = hdfs.fileSystem();
            org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(file.getPath());
            org.apache.hadoop.fs.Path copy = new org.apache.hadoop.fs.Path(file.getPath() + ".restore");
            long mtime = fs.getFileStatus(p).getModificationTime();
            try (FSDataOutputStream out = fs.create(copy, true)) {
                out.write(restored);
            }
            fs.setTimes(copy, mtime, -1);
            fs.rename(copy, p, Options.Rename.OVERWRITE);
        });
    }

    // ---- one replica for a job's ranks, per store ----------------------------------------------------------

    /** sim-pfs takes writes anywhere: the ranks' regions are filled side by side from one pass over the original. */
    @Test
    void ranksCombinedIntoOneReplicaServeThemOnSimPfs() throws Exception {
        combined(URI.create("simpfs:///combined/data.bin"), "simpfs");
    }

    /**
     * HDFS appends only: the combined replica is copied in its order, rank after rank. Filled region by region, its second
     * region's first write lay past the end of the file, the build was rejected and the ranks got a replica each.
     */
    @Test
    void ranksCombinedIntoOneReplicaServeThemOnHdfs() throws Exception {
        combined(hdfs.uri("/combined/data.bin"), "hdfs");
    }

    private void combined(URI file, String name) throws Exception {
        int np = 3;
        byte[] original = new byte[SIZE];
        new Random(6).nextBytes(original);
        if (StorageDrivers.installed().forUri(file) instanceof io.pdla.hdfs.HdfsDriver) {
            try (FSDataOutputStream out = hdfs.fileSystem().create(new org.apache.hadoop.fs.Path(file.getPath()), true)) {
                out.write(original);
            }
        } else {
            writeThroughDriver(file, original, true);
        }
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve("fx")))) {
            fx.replication.daemon.gatherRanksFor(0);
            for (int r = 0; r < np; r++) {
                fx.replication.queue.offer(KeyedPattern.of(new PatternKey(new AppIdentity("app", np), r, file),
                        Geometry.strided((long) r * REQ, REQ, (long) np * REQ, COUNT)));
            }
            var report = fx.replication.daemon.runOnce();
            assertEquals(1, report.published(), name + ": one replica for the three ranks: " + report.lines());
            assertEquals(np, report.covered(), name + ": " + report.lines());
            RedirectConfig cfg = RedirectConfig.from(Map.of()).withCatalog(fx.db);
            for (int r = 0; r < np; r++) {
                RedirectInterceptor ri = new RedirectInterceptor(cfg);
                try (ChainFile f = new ChainFile(file, "app", np, r, Map.of(), List.of(ri), true)) {
                    for (int i = 0; i < COUNT; i++) {
                        long off = (long) i * np * REQ + (long) r * REQ;
                        assertArrayEquals(Arrays.copyOfRange(original, (int) off, (int) off + REQ), f.read(off, REQ), name + ": rank " + r + " request " + i);
                    }
                }
                assertEquals(COUNT, ri.stats().readsFromReplica.get(), name + ": rank " + r + " " + ri.stats());
            }
        }
    }

    // ---- the scenario -----------------------------------------------------------------------------------

    private static void writeThroughDriver(URI file, byte[] bytes, boolean create) throws IOException {
        StorageDriver d = StorageDrivers.installed().forUri(file);
        try (StorageFile f = d.open(file, create ? OpenOptions.createReadWrite() : OpenOptions.readWrite())) {
            f.write(0, ByteBuffer.wrap(bytes));
            f.sync();
        }
    }

    private void check(URI file, String name, Restore restore) throws Exception {
        StorageDriver d = StorageDrivers.installed().forUri(file);
        byte[] original = new byte[SIZE];
        new Random(5).nextBytes(original);
        if (d instanceof io.pdla.hdfs.HdfsDriver) {
            DistributedFileSystem fs = hdfs.fileSystem();
            try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path(file.getPath()), true)) {
                out.write(original);
            }
        } else {
            writeThroughDriver(file, original, true);
        }
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve("fx")))) {
            PatternKey key = new PatternKey(new AppIdentity("app", 1), 0, file);
            fx.replication.queue.offer(KeyedPattern.of(key, Geometry.strided(REQ, REQ, STRIDE, COUNT)));
            assertEquals(1, fx.replication.daemon.runOnce().published(), fx.progress.toString());
            RedirectConfig cfg = RedirectConfig.from(Map.of()).withCatalog(fx.db);

            RedirectInterceptor before = new RedirectInterceptor(cfg);
            try (ChainFile f = new ChainFile(file, "app", 1, 0, Map.of(), List.of(before), true)) {
                assertArrayEquals(Arrays.copyOfRange(original, REQ, 2 * REQ), f.read(REQ, REQ));
            }
            assertEquals(1, before.stats().readsFromReplica.get(), name + ": the replica should serve before the restore: " + before.stats());

            StorageStatus was = d.stat(file);
            byte[] restored = new byte[SIZE];
            new Random(99).nextBytes(restored);
            restore.apply(file, restored);
            StorageStatus is = d.stat(file);
            // the scenario: what size and time say cannot tell the versions apart
            assertEquals(was.size(), is.size(), name + ": size");
            assertEquals(was.modifiedNanos(), is.modifiedNanos(), name + ": modification time was not put back");

            RedirectInterceptor after = new RedirectInterceptor(cfg);
            try (ChainFile f = new ChainFile(file, "app", 1, 0, Map.of(), List.of(after), true)) {
                for (int i = 0; i < COUNT; i++) {
                    long off = REQ + (long) i * STRIDE;
                    assertArrayEquals(Arrays.copyOfRange(restored, (int) off, (int) off + REQ), f.read(off, REQ), name + ": request " + i);
                }
            }
            assertEquals(0, after.stats().readsFromReplica.get(), name + ": the stale replica served: " + after.stats());
            assertTrue(after.stats().readsFromOriginal.get() >= COUNT, after.stats().toString());

            // and the daemon's next pass rebuilds it from the new bytes, which then serve
            fx.replication.daemon.runOnce();
            RedirectInterceptor rebuilt = new RedirectInterceptor(cfg);
            try (ChainFile f = new ChainFile(file, "app", 1, 0, Map.of(), List.of(rebuilt), true)) {
                long off = REQ + 3L * STRIDE;
                assertArrayEquals(Arrays.copyOfRange(restored, (int) off, (int) off + REQ), f.read(off, REQ), name + ": after rebuild");
            }
            assertEquals(1, rebuilt.stats().readsFromReplica.get(), name + ": the rebuilt replica should serve: " + rebuilt.stats()
                    + "\n" + fx.progress);
        }
    }
}
