package io.pdla.hdfs;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageFile;
import io.pdla.storage.Layout;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Core layouts map to HDFS block size per file and storage policy per directory or file; replication is a hint. */
@ExtendWith(SharedMiniCluster.class)
class HdfsLayoutTest {
    private static final int MIB = 1 << 20;
    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static HdfsDriver driver;

    @BeforeAll
    static void connect() throws IOException {
        driver = new HdfsDriver();
        driver.mkdirs(SharedMiniCluster.cluster().uri("/layout"));
    }

    @AfterAll
    static void disconnect() throws IOException {
        driver.close();
    }

    private static URI newUri(String name) {
        return SharedMiniCluster.cluster().uri("/layout/" + COUNTER.incrementAndGet() + "-" + name);
    }

    private static FileStatus status(URI uri) throws IOException {
        return SharedMiniCluster.cluster().fileSystem().getFileStatus(new Path(uri.getPath()));
    }

    @Test
    void layoutOnANotYetWrittenFileSetsTheBlockSizeFromTheStripe() throws IOException {
        URI uri = newUri("preset");
        driver.setLayout(uri, Layout.parse("1dh,stripe=2m,space=hdd"));
        try (StorageFile f = driver.open(uri, OpenOptions.createReadWrite().withHints(Map.of("hdfs_replication", "1")))) {
            f.write(0, ByteBuffer.wrap(StoragePolicyPlacementTest.pattern(5 * MIB, 41)));
            assertEquals(2L * MIB, f.layout().stripeSize(), "the open file reports its block size as its stripe");
        }
        Layout l = driver.layout(uri);
        assertEquals(Layout.Distribution.ONE_DH, l.distribution());
        assertEquals(2L * MIB, l.stripeSize());
        assertEquals(Layout.ServerClass.HDD, l.space());
        assertEquals(SharedMiniCluster.cluster().fileSystem().getDataNodeStats().length, l.serverCount(), "spread over the live DataNodes");
        FileStatus st = status(uri);
        BlockLocation[] blocks = SharedMiniCluster.cluster().fileSystem().getFileBlockLocations(st, 0, st.getLen());
        assertEquals(3, blocks.length, "5 MiB in 2 MiB blocks");
        assertEquals("HOT", SharedMiniCluster.cluster().fileSystem().getStoragePolicy(new Path(uri.getPath())).getName(), "HDD servers: HOT");
    }

    @Test
    void blockSizeOfAnEmptyFileCanChangeButNotOnceItHoldsData() throws IOException {
        URI uri = newUri("empty-then-full");
        driver.open(uri, OpenOptions.createReadWrite().withHints(Map.of("hdfs_storage_policy", "ONE_SSD"))).close();
        driver.setLayout(uri, Layout.parse("hybrid,sh=3m,ss=3m"));
        assertEquals(3L * MIB, status(uri).getBlockSize());
        assertEquals(Layout.ServerClass.BOTH, driver.layout(uri).space(), "hybrid is ONE_SSD, kept through the re-creation");

        try (StorageFile f = driver.open(uri, OpenOptions.readWrite())) {
            f.write(0, ByteBuffer.wrap(new byte[1000]));
        }
        StorageException e = assertThrows(StorageException.class,
                () -> driver.setLayout(uri, Layout.parse("1dh,stripe=1m,space=both")));
        assertEquals(StorageException.Reason.UNSUPPORTED, e.reason());
        assertTrue(e.getMessage().contains(uri.toString()) && e.getMessage().contains("1000 bytes"), e.getMessage());
        assertEquals(3L * MIB, status(uri).getBlockSize());
        assertEquals(1000, status(uri).getLen());
    }

    @Test
    void openHintsSetBlockSizeAndReplicationOfNewFilesOnly() throws IOException {
        URI uri = newUri("hinted");
        Map<String, String> hints = Map.of("hdfs_block_size", "4194304", "hdfs_replication", "1");
        driver.open(uri, OpenOptions.createReadWrite().withHints(hints)).close();
        assertEquals(4L * MIB, status(uri).getBlockSize());
        assertEquals(1, status(uri).getReplication());
        // The file exists now: hints of a later open are ignored, as MPI allows, and nothing is truncated.
        driver.open(uri, OpenOptions.createReadWrite().withHints(Map.of("hdfs_block_size", "1m"))).close();
        assertEquals(4L * MIB, status(uri).getBlockSize());
    }

    @Test
    void aDirectoryKeepsTheServerClassAsItsPolicyAndReportsTheDefaultBlockSize() throws IOException {
        URI dir = newUri("ssd-dir");
        driver.mkdirs(dir);
        driver.setLayout(dir, Layout.parse("1dv,region=8m,space=ssd"));
        Layout l = driver.layout(dir);
        assertEquals(Layout.ServerClass.SSD, l.space());
        assertEquals(128L * MIB, l.stripeSize(), "HDFS has no per-directory block size");
        assertEquals("ALL_SSD", SharedMiniCluster.cluster().fileSystem().getStoragePolicy(new Path(dir.getPath())).getName());
    }

    @Test
    void newFilesWithoutHintsGetTheNameNodeDefaults() throws IOException {
        URI uri = newUri("defaults");
        driver.open(uri, OpenOptions.createReadWrite()).close();
        assertEquals(2, status(uri).getReplication(), "the MiniCluster's dfs.replication, not the client's 3");
        assertEquals(128L * MIB, status(uri).getBlockSize());
    }

    @Test
    void badLayoutsAndHintsAreRefusedNamingTheProblem() throws IOException {
        URI dir = newUri("dir");
        driver.mkdirs(dir);
        URI file = URI.create(dir + "/f");
        assertRefused(StorageException.Reason.BAD_ARGUMENT, "multiple of 512",
                () -> driver.setLayout(file, Layout.parse("1dh,stripe=1000")));
        assertRefused(StorageException.Reason.BAD_ARGUMENT, "minimum",
                () -> driver.setLayout(file, Layout.parse("1dh,stripe=64k")));
        assertRefused(StorageException.Reason.BAD_ARGUMENT, "ALL_SSD",
                () -> driver.open(file, OpenOptions.createReadWrite().withHints(Map.of("hdfs_storage_policy", "FAST"))));
        assertRefused(StorageException.Reason.BAD_ARGUMENT, "multiple of 512",
                () -> driver.open(file, OpenOptions.createReadWrite().withHints(Map.of("hdfs_block_size", "1000"))));
        assertRefused(StorageException.Reason.BAD_ARGUMENT, "minimum",
                () -> driver.open(file, OpenOptions.createReadWrite().withHints(Map.of("hdfs_block_size", "64k"))));
        assertRefused(StorageException.Reason.BAD_ARGUMENT, "replication",
                () -> driver.open(file, OpenOptions.createReadWrite().withHints(Map.of("hdfs_replication", "zero"))));
        assertTrue(!driver.exists(file), "refused opens create nothing");
        assertRefused(StorageException.Reason.BAD_ARGUMENT, "is a directory", () -> driver.open(dir, OpenOptions.readOnly()));
    }

    @Test
    void createInAMissingDirectoryFailsWithNoSuchFileAsPosixDoes() throws IOException {
        URI file = newUri("no-such-dir") ;
        URI inside = URI.create(file + "/f");
        assertRefused(StorageException.Reason.NO_SUCH_FILE, "no-such-dir", () -> driver.open(inside, OpenOptions.createReadWrite()));
        assertTrue(!driver.exists(file), "the directory was not created either");
    }

    private interface Call {
        void run() throws IOException;
    }

    private static void assertRefused(StorageException.Reason reason, String fragment, Call call) {
        StorageException e = assertThrows(StorageException.class, call::run);
        assertEquals(reason, e.reason(), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), "'" + fragment + "' in: " + e.getMessage());
        assertTrue(e.getMessage().contains("hdfs://"), "names the URI: " + e.getMessage());
    }
}
