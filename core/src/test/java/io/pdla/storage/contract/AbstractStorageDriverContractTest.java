package io.pdla.storage.contract;

import io.pdla.access.ExtentList;
import io.pdla.storage.Capability;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageFile;
import io.pdla.storage.StorageStatus;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The semantics every {@link StorageDriver} must have, written once (as Hadoop's FileSystem contract
 * tests are). A driver's test extends this class and supplies the driver and a fresh URI per file;
 * checks that need a capability the driver does not declare are skipped, not failed.
 */
public abstract class AbstractStorageDriverContractTest {
    /** The driver under test. */
    protected abstract StorageDriver driver();

    /** A URI for a file that does not exist yet, unique to the calling test. */
    protected abstract URI newFileUri(String name) throws IOException;

    protected static byte[] pattern(int length, long seed) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }

    protected byte[] readAll(StorageFile f, long offset, int length) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(length);
        int n = f.read(offset, buf);
        byte[] out = new byte[n];
        buf.flip().get(out);
        return out;
    }

    private boolean can(Capability c) {
        return driver().has(c);
    }

    @Test
    void writtenBytesReadBackAfterReopen() throws IOException {
        URI uri = newFileUri("roundtrip");
        byte[] data = pattern(100_000, 1);
        try (StorageFile f = driver().open(uri, OpenOptions.createReadWrite())) {
            f.write(0, ByteBuffer.wrap(data));
            f.sync();
        }
        assertTrue(driver().exists(uri));
        try (StorageFile f = driver().open(uri, OpenOptions.readOnly())) {
            assertEquals(data.length, f.size());
            assertArrayEquals(data, readAll(f, 0, data.length));
        }
    }

    @Test
    void readPastEndOfFileIsShort() throws IOException {
        URI uri = newFileUri("short");
        try (StorageFile f = driver().open(uri, OpenOptions.createReadWrite())) {
            f.write(0, ByteBuffer.wrap(pattern(1000, 2)));
            assertEquals(400, readAll(f, 600, 1000).length);
            assertEquals(0, readAll(f, 5000, 10).length);
        }
    }

    @Test
    void openingAMissingFileWithoutCreateFailsWithNoSuchFile() throws IOException {
        URI uri = newFileUri("missing");
        StorageException e = assertThrows(StorageException.class, () -> driver().open(uri, OpenOptions.readOnly()));
        assertEquals(StorageException.Reason.NO_SUCH_FILE, e.reason());
        assertFalse(driver().exists(uri), "a failed open must not create the file");
    }

    @Test
    void exclusiveCreateOfAnExistingFileFailsAndLeavesItUnchanged() throws IOException {
        URI uri = newFileUri("excl");
        byte[] data = pattern(64, 3);
        try (StorageFile f = driver().open(uri, OpenOptions.createReadWrite())) {
            f.write(0, ByteBuffer.wrap(data));
        }
        StorageException e = assertThrows(StorageException.class,
                () -> driver().open(uri, new OpenOptions(true, true, true, true, java.util.Map.of())));
        assertEquals(StorageException.Reason.FILE_EXISTS, e.reason());
        try (StorageFile f = driver().open(uri, OpenOptions.readOnly())) {
            assertArrayEquals(data, readAll(f, 0, 64));
        }
    }

    @Test
    void deleteRemovesTheFileAndDeletingTwiceFails() throws IOException {
        URI uri = newFileUri("del");
        driver().open(uri, OpenOptions.createReadWrite()).close();
        assertTrue(driver().exists(uri));
        driver().delete(uri);
        assertFalse(driver().exists(uri));
        StorageException e = assertThrows(StorageException.class, () -> driver().delete(uri));
        assertEquals(StorageException.Reason.NO_SUCH_FILE, e.reason());
    }

    @Test
    void vectoredWriteAndReadFollowTheExtentOrder() throws IOException {
        assumeTrue(can(Capability.RANDOM_WRITE), "driver cannot write at arbitrary offsets");
        URI uri = newFileUri("vectored");
        // Extents out of file order, with holes: the buffer is consumed in list order.
        ExtentList extents = ExtentList.builder().add(3000, 500).add(0, 1000).add(8000, 123).build();
        byte[] data = pattern((int) extents.totalBytes(), 4);
        try (StorageFile f = driver().open(uri, OpenOptions.createReadWrite())) {
            assertEquals(extents.totalBytes(), f.writev(extents, ByteBuffer.wrap(data)));
            assertEquals(8123, f.size());
            ByteBuffer back = ByteBuffer.allocate(data.length);
            assertEquals(data.length, f.readv(extents, back));
            assertArrayEquals(data, back.array());
            byte[] hole = readAll(f, 1000, 2000);
            assertArrayEquals(new byte[2000], hole, "holes between written extents read as zeros");
            byte[] first = readAll(f, 3000, 500);
            byte[] expected = new byte[500];
            System.arraycopy(data, 0, expected, 0, 500);
            assertArrayEquals(expected, first);
        }
    }

    @Test
    void vectoredReadStopsAtEndOfFile() throws IOException {
        URI uri = newFileUri("vecshort");
        try (StorageFile f = driver().open(uri, OpenOptions.createReadWrite())) {
            f.write(0, ByteBuffer.wrap(pattern(1000, 5)));
            ExtentList extents = ExtentList.builder().add(0, 100).add(900, 200).add(200, 50).build();
            assertEquals(200, f.readv(extents, ByteBuffer.allocate(350)),
                    "the extent cut by end-of-file ends the read, as a contiguous read would");
        }
    }

    @Test
    void overwriteReplacesOnlyTheWrittenRange() throws IOException {
        assumeTrue(can(Capability.RANDOM_WRITE), "driver cannot overwrite");
        URI uri = newFileUri("overwrite");
        byte[] data = pattern(4096, 6);
        byte[] patch = pattern(100, 7);
        try (StorageFile f = driver().open(uri, OpenOptions.createReadWrite())) {
            f.write(0, ByteBuffer.wrap(data));
            f.write(1000, ByteBuffer.wrap(patch));
            System.arraycopy(patch, 0, data, 1000, 100);
            assertArrayEquals(data, readAll(f, 0, 4096));
        }
    }

    @Test
    void setSizeShrinksAndGrowsWithZeros() throws IOException {
        assumeTrue(can(Capability.TRUNCATE), "driver cannot change sizes");
        URI uri = newFileUri("setsize");
        byte[] data = pattern(2048, 8);
        try (StorageFile f = driver().open(uri, OpenOptions.createReadWrite())) {
            f.write(0, ByteBuffer.wrap(data));
            f.setSize(1000);
            assertEquals(1000, f.size());
            f.setSize(3000);
            assertEquals(3000, f.size());
            byte[] back = readAll(f, 0, 3000);
            for (int i = 0; i < 1000; i++) assertEquals(data[i], back[i]);
            for (int i = 1000; i < 3000; i++) assertEquals(0, back[i], "byte " + i + " after growing");
        }
    }

    @Test
    void concurrentWritersToDisjointRangesLoseNothing() throws Exception {
        assumeTrue(can(Capability.CONCURRENT_WRITERS) && can(Capability.RANDOM_WRITE), "driver has one writer per file");
        URI uri = newFileUri("concurrent");
        int writers = 4, block = 8192, rounds = 16;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<StorageFile> handles = new ArrayList<>();
        try {
            for (int w = 0; w < writers; w++) handles.add(driver().open(uri, OpenOptions.createReadWrite()));
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                final int id = w;
                futures.add(pool.submit(() -> {
                    for (int r = 0; r < rounds; r++) {
                        long off = ((long) r * writers + id) * block;
                        handles.get(id).write(off, ByteBuffer.wrap(pattern(block, off)));
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) f.get();
        } finally {
            pool.shutdown();
            for (StorageFile h : handles) h.close();
        }
        try (StorageFile f = driver().open(uri, OpenOptions.readOnly())) {
            assertEquals((long) writers * rounds * block, f.size());
            for (long off = 0; off < f.size(); off += block) {
                assertArrayEquals(pattern(block, off), readAll(f, off, block), "block at " + off);
            }
        }
    }

    @Test
    void renameReplacesTheTargetAtomically() throws IOException {
        assumeTrue(can(Capability.RENAME), "driver cannot rename");
        URI a = newFileUri("rename-src");
        URI b = newFileUri("rename-dst");
        byte[] data = pattern(512, 9);
        try (StorageFile f = driver().open(a, OpenOptions.createReadWrite())) {
            f.write(0, ByteBuffer.wrap(data));
        }
        driver().open(b, OpenOptions.createReadWrite()).close();
        driver().rename(a, b);
        assertFalse(driver().exists(a));
        try (StorageFile f = driver().open(b, OpenOptions.readOnly())) {
            assertArrayEquals(data, readAll(f, 0, 512));
        }
    }

    @Test
    void writingAReadOnlyFileFailsWithoutChangingIt() throws IOException {
        URI uri = newFileUri("ro");
        byte[] data = pattern(256, 10);
        try (StorageFile f = driver().open(uri, OpenOptions.createReadWrite())) {
            f.write(0, ByteBuffer.wrap(data));
        }
        try (StorageFile f = driver().open(uri, OpenOptions.readOnly())) {
            StorageException e = assertThrows(StorageException.class, () -> f.write(0, ByteBuffer.wrap(new byte[16])));
            assertEquals(StorageException.Reason.READ_ONLY, e.reason());
            assertArrayEquals(data, readAll(f, 0, 256));
        }
    }

    @Test
    void largeTransfersCrossAnyInternalBoundary() throws IOException {
        URI uri = newFileUri("large");
        byte[] data = pattern(5 * 1024 * 1024 + 17, 11);
        try (StorageFile f = driver().open(uri, OpenOptions.createReadWrite())) {
            f.write(0, ByteBuffer.wrap(data));
            assertArrayEquals(data, readAll(f, 0, data.length));
        }
    }

    private static URI child(URI dir, String name) {
        String d = dir.toString();
        return URI.create(d.endsWith("/") ? d + name : d + "/" + name);
    }

    private void writeNew(URI uri, int bytes) throws IOException {
        try (StorageFile f = driver().open(uri, OpenOptions.createReadWrite())) {
            f.write(0, ByteBuffer.wrap(pattern(bytes, bytes)));
        }
    }

    @Test
    void statReportsSizeAndKind() throws IOException {
        URI dir = newFileUri("stat-dir");
        driver().mkdirs(dir);
        URI file = child(dir, "f");
        writeNew(file, 1000);
        StorageStatus s = driver().stat(file);
        assertEquals(1000, s.size());
        assertFalse(s.directory());
        assertEquals("f", s.name());
        assertTrue(driver().stat(dir).directory());
    }

    @Test
    void statOfAMissingPathFailsWithNoSuchFile() throws IOException {
        URI uri = newFileUri("stat-missing");
        StorageException e = assertThrows(StorageException.class, () -> driver().stat(uri));
        assertEquals(StorageException.Reason.NO_SUCH_FILE, e.reason());
        assertTrue(e.getMessage().contains("stat-missing"), e.getMessage());
    }

    @Test
    void modificationTimeAdvancesWhenTheFileIsWritten() throws Exception {
        URI uri = newFileUri("mtime");
        writeNew(uri, 100);
        long before = driver().stat(uri).modifiedNanos();
        Thread.sleep(50);   // coarser than any store's clock resolution here (HDFS keeps milliseconds)
        try (StorageFile f = driver().open(uri, OpenOptions.readWrite())) {
            f.write(100, ByteBuffer.wrap(pattern(100, 12)));   // appending: the one write every store allows
        }
        StorageStatus after = driver().stat(uri);
        assertEquals(200, after.size());
        assertTrue(after.modifiedNanos() > before, "mtime " + before + " -> " + after.modifiedNanos());
    }

    @Test
    void listShowsTheChildrenSortedByName() throws IOException {
        URI dir = newFileUri("listing");
        driver().mkdirs(dir);
        writeNew(child(dir, "b"), 10);
        writeNew(child(dir, "a"), 20);
        driver().mkdirs(child(dir, "sub"));
        List<StorageStatus> l = driver().list(dir);
        assertEquals(List.of("a", "b", "sub"), l.stream().map(StorageStatus::name).toList());
        assertEquals(20, l.get(0).size());
        assertEquals(10, l.get(1).size());
        assertFalse(l.get(0).directory());
        assertTrue(l.get(2).directory());
        assertTrue(driver().list(child(dir, "sub")).isEmpty());
    }

    @Test
    void listingAMissingDirectoryOrAFileFailsClearly() throws IOException {
        URI missing = newFileUri("no-dir");
        StorageException e = assertThrows(StorageException.class, () -> driver().list(missing));
        assertEquals(StorageException.Reason.NO_SUCH_FILE, e.reason());
        URI file = newFileUri("plain");
        writeNew(file, 8);
        StorageException f = assertThrows(StorageException.class, () -> driver().list(file));
        assertEquals(StorageException.Reason.BAD_ARGUMENT, f.reason());
        assertTrue(f.getMessage().contains("plain"), f.getMessage());
    }
}
