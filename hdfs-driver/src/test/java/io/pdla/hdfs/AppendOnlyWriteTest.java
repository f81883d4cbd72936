package io.pdla.hdfs;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageFile;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** HDFS is append-only with one writer per file: what the driver refuses, and that refusing changes nothing. */
@ExtendWith(SharedMiniCluster.class)
class AppendOnlyWriteTest {
    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static HdfsDriver driver;

    @BeforeAll
    static void connect() throws IOException {
        driver = new HdfsDriver();
        driver.mkdirs(SharedMiniCluster.cluster().uri("/append-only"));
    }

    @AfterAll
    static void disconnect() throws IOException {
        driver.close();
    }

    private static URI newFile(String name) {
        return SharedMiniCluster.cluster().uri("/append-only/" + COUNTER.incrementAndGet() + "-" + name);
    }

    private static byte[] writeFile(URI uri, int length, long seed) throws IOException {
        byte[] data = StoragePolicyPlacementTest.pattern(length, seed);
        OpenOptions create = OpenOptions.createReadWrite().withHints(java.util.Map.of("hdfs_block_size", "1m"));
        try (StorageFile f = driver.open(uri, create)) {
            f.write(0, ByteBuffer.wrap(data));
        }
        return data;
    }

    private static byte[] readWhole(URI uri, int expectedLength) throws IOException {
        try (StorageFile f = driver.open(uri, OpenOptions.readOnly())) {
            assertEquals(expectedLength, f.size(), uri + ": size");
            ByteBuffer b = ByteBuffer.allocate(expectedLength);
            assertEquals(expectedLength, f.read(0, b));
            return b.array();
        }
    }

    private static FileChecksum checksum(URI uri) throws IOException {
        return SharedMiniCluster.cluster().fileSystem().getFileChecksum(new Path(uri.getPath()));
    }

    @Test
    void randomWriteIntoExistingDataFailsNamingTheFileAndLeavesItUnchanged() throws IOException {
        URI uri = newFile("random-write");
        byte[] data = writeFile(uri, 3 * 1024 * 1024 + 5, 31);
        FileChecksum before = checksum(uri);
        try (StorageFile f = driver.open(uri, OpenOptions.readWrite())) {
            StorageException e = assertThrows(StorageException.class, () -> f.write(1000, ByteBuffer.wrap(new byte[4096])));
            assertEquals(StorageException.Reason.UNSUPPORTED, e.reason());
            assertTrue(e.getMessage().contains(uri.toString()), "message names the file: " + e.getMessage());
            assertTrue(e.getMessage().contains("offset 1000"), "message names the offset: " + e.getMessage());
            assertTrue(e.getMessage().contains("overwrite existing data"), e.getMessage());

            StorageException hole = assertThrows(StorageException.class, () -> f.write(data.length + 10L, ByteBuffer.wrap(new byte[1])));
            assertEquals(StorageException.Reason.UNSUPPORTED, hole.reason());
            assertTrue(hole.getMessage().contains("hole of 10 bytes"), hole.getMessage());
            assertEquals(data.length, f.size());
        }
        assertArrayEquals(data, readWhole(uri, data.length), "content after refused writes");
        assertEquals(before, checksum(uri), "HDFS's own checksum of the file is unchanged");
    }

    @Test
    void writeAtTheEndAppendsAndIsReadBackBySameAndNewHandles() throws IOException {
        URI uri = newFile("append");
        byte[] data = writeFile(uri, 1_500_000, 32);
        byte[] tail = StoragePolicyPlacementTest.pattern(700_000, 33);
        try (StorageFile f = driver.open(uri, OpenOptions.readWrite())) {
            ByteBuffer first = ByteBuffer.allocate(100);
            assertEquals(100, f.read(0, first), "read before any write opens the reader");
            ByteBuffer direct = ByteBuffer.allocateDirect(tail.length).put(tail).flip(); // the non-array path
            f.write(data.length, direct);
            assertEquals(0, direct.remaining(), "the write consumed the buffer");
            assertEquals(data.length + tail.length, f.size());
            ByteBuffer back = ByteBuffer.allocate(tail.length);
            assertEquals(tail.length, f.read(data.length, back), "a handle reads its own appends");
            assertArrayEquals(tail, back.array());
            f.sync();
        }
        byte[] whole = readWhole(uri, data.length + tail.length);
        byte[] expected = new byte[data.length + tail.length];
        System.arraycopy(data, 0, expected, 0, data.length);
        System.arraycopy(tail, 0, expected, data.length, tail.length);
        assertArrayEquals(expected, whole);
    }

    @Test
    void oneWriterAtATimeAndTheLeaseGoesToWhoeverWritesFirst() throws IOException {
        URI uri = newFile("lease");
        // A collective open: both handles create, neither takes the lease until it writes.
        try (StorageFile a = driver.open(uri, OpenOptions.createReadWrite());
             StorageFile b = driver.open(uri, OpenOptions.createReadWrite())) {
            b.write(0, ByteBuffer.wrap(new byte[]{1, 2, 3}));
            StorageException e = assertThrows(StorageException.class, () -> a.write(a.size(), ByteBuffer.wrap(new byte[]{9})));
            assertEquals(StorageException.Reason.UNSUPPORTED, e.reason());
            assertTrue(e.getMessage().contains(uri.toString()) && e.getMessage().contains("one writer"), e.getMessage());
            b.close(); // completes the file and releases the lease
            a.write(3, ByteBuffer.wrap(new byte[]{4, 5}));
        }
        assertArrayEquals(new byte[]{1, 2, 3, 4, 5}, readWhole(uri, 5));
    }

    @Test
    void syncOnAReaderShowsDataAnotherHandleSynced() throws IOException {
        URI uri = newFile("visibility");
        byte[] data = writeFile(uri, 10_000, 34);
        try (StorageFile reader = driver.open(uri, OpenOptions.readOnly());
             StorageFile writer = driver.open(uri, OpenOptions.readWrite())) {
            assertEquals(10_000, reader.read(0, ByteBuffer.allocate(20_000)), "reader sees the file as it was");
            writer.write(10_000, ByteBuffer.wrap(data));
            writer.sync();
            reader.sync(); // MPI's sync-barrier-sync: the reader's sync makes the writer's synced bytes visible
            ByteBuffer got = ByteBuffer.allocate(10_000);
            assertEquals(10_000, reader.read(10_000, got));
            assertArrayEquals(data, got.array());
        }
    }

    @Test
    void readingAndWritingAfterCloseFailClearly() throws IOException {
        URI uri = newFile("closed");
        writeFile(uri, 10, 35);
        StorageFile f = driver.open(uri, OpenOptions.readWrite());
        f.close();
        StorageException e = assertThrows(StorageException.class, () -> f.read(0, ByteBuffer.allocate(1)));
        assertTrue(e.getMessage().contains(uri.toString()) && e.getMessage().contains("closed"), e.getMessage());
    }
}
