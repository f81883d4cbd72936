package io.pdla.hdfs;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageFile;
import io.pdla.storage.StorageLayout;
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

/** Layouts map to HDFS block size and replication per file and storage policy per directory or file. */
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
    void layoutOnANotYetWrittenFileSetsBlockSizeAndReplication() throws IOException {
        URI uri = newUri("preset");
        driver.setLayout(uri, new StorageLayout("hdfs", Map.of("block_size", "2m", "replication", "1")));
        try (StorageFile f = driver.open(uri, OpenOptions.createReadWrite())) {
            f.write(0, ByteBuffer.wrap(StoragePolicyPlacementTest.pattern(5 * MIB, 41)));
        }
        StorageLayout l = driver.layout(uri);
        assertEquals("hdfs", l.kind());
        assertEquals(Long.toString(2L * MIB), l.parameter("block_size", "?"));
        assertEquals("1", l.parameter("replication", "?"));
        FileStatus st = status(uri);
        BlockLocation[] blocks = SharedMiniCluster.cluster().fileSystem().getFileBlockLocations(st, 0, st.getLen());
        assertEquals(3, blocks.length, "5 MiB in 2 MiB blocks");
        for (BlockLocation b : blocks) assertEquals(1, b.getHosts().length, "one replica per block");
    }

    @Test
    void blockSizeOfAnEmptyFileCanChangeButNotOnceItHoldsData() throws IOException {
        URI uri = newUri("empty-then-full");
        driver.open(uri, OpenOptions.createReadWrite().withHints(Map.of("hdfs_storage_policy", "ONE_SSD"))).close();
        driver.setLayout(uri, new StorageLayout("hdfs", Map.of("block_size", "3m")));
        assertEquals(3L * MIB, status(uri).getBlockSize());
        assertEquals("ONE_SSD", driver.layout(uri).parameter("storage_policy", "?"), "file policy survives the re-creation");

        try (StorageFile f = driver.open(uri, OpenOptions.readWrite())) {
            f.write(0, ByteBuffer.wrap(new byte[1000]));
        }
        StorageException e = assertThrows(StorageException.class,
                () -> driver.setLayout(uri, new StorageLayout("hdfs", Map.of("block_size", "1m"))));
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
        assertRefused(StorageException.Reason.UNSUPPORTED, "per file, not per directory",
                () -> driver.setLayout(dir, new StorageLayout("hdfs", Map.of("block_size", "1m"))));
        assertRefused(StorageException.Reason.BAD_ARGUMENT, "kind 'hdfs'",
                () -> driver.setLayout(dir, new StorageLayout("1-DH", Map.of("stripe_size", "65536"))));
        assertRefused(StorageException.Reason.BAD_ARGUMENT, "[stripe_size]",
                () -> driver.setLayout(dir, new StorageLayout("hdfs", Map.of("stripe_size", "65536"))));
        assertRefused(StorageException.Reason.BAD_ARGUMENT, "ALL_SSD",
                () -> driver.setLayout(dir, new StorageLayout("hdfs", Map.of("storage_policy", "FAST"))));
        URI file = URI.create(dir + "/f");
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
