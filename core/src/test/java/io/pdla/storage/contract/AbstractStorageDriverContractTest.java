package io.pdla.storage.contract;

import io.pdla.access.ExtentList;
import io.pdla.storage.Capability;
import io.pdla.storage.Layout;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.RangeLock;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The semantics every {@link StorageDriver} must have, written once (as Hadoop's FileSystem contract
 * tests are). A driver's test extends this class and supplies the driver and a fresh URI per file. Each
 * capability is tested both ways: a driver that declares it must do it; a driver that does not must refuse
 * the request with {@code UNSUPPORTED} (the shim's ERR_UNSUPPORTED_OPERATION) and change nothing.
 * {@link Capability#DIRECT_IO} alone has no driver-independent request (its hint is driver-prefixed);
 * {@link Capability#BUFFERED_WRITES} is a property with no request to refuse: every driver takes syncs from another
 * thread in the middle of a long write and loses or misplaces no byte, which the replicator's write-behind relies on
 * where a driver declares it.
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

    /**
     * The drivers' common wish to bypass the page cache ({@code OpenOptions.HINT_BYPASS_CACHE}, what the replicator asks
     * for a replica's writes) never fails an open: a store that can bypass it does so only with {@code DIRECT_IO}, and
     * whatever it does, aligned and unaligned writes from any memory keep every byte.
     */
    @Test
    void theWishToBypassTheCacheNeverFailsAnOpenAndKeepsEveryByte() throws Exception {
        URI uri = newFileUri("bypass");
        byte[] data = pattern((1 << 20) + 4096 + 13, 21);
        try (StorageFile f = driver().open(uri, new OpenOptions(true, true, true, true, java.util.Map.of()).bypassingCache())) {
            assertTrue(!f.bypassesCache() || driver().has(io.pdla.storage.Capability.DIRECT_IO),
                    "only a store with DIRECT_IO moves requests around the cache");
            ByteBuffer aligned = ByteBuffer.allocateDirect((1 << 20) + 4096).alignedSlice(4096).limit(1 << 20);
            aligned.put(data, 0, 1 << 20).flip();
            f.write(0, aligned);
            f.write(1 << 20, ByteBuffer.wrap(data, 1 << 20, 4096).slice());
            f.write((1 << 20) + 4096, ByteBuffer.wrap(data, (1 << 20) + 4096, 13).slice());
            f.sync();
        }
        try (StorageFile f = driver().open(uri, OpenOptions.readOnly())) {
            assertArrayEquals(data, readAll(f, 0, data.length));
        }
    }

    @Test
    void syncsFromAnotherThreadAmidALongWriteLoseNoByte() throws Exception {
        URI uri = newFileUri("write-behind");
        byte[] data = pattern(8 << 20, 12);
        java.util.concurrent.atomic.AtomicInteger syncs = new java.util.concurrent.atomic.AtomicInteger();
        try (StorageFile f = driver().open(uri, OpenOptions.createReadWrite())) {
            java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
            Thread behind = new Thread(() -> {
                try {
                    while (!done.get()) {
                        f.sync();
                        syncs.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            behind.start();
            for (int at = 0; at < data.length; at += 64 << 10) {
                // halfway, the writes wait for a sync to have ended: 8 MiB into the page cache can otherwise be written
                // before the other thread's first sync returns (CI, 2026-11-30), and nothing would have run amid them
                if (at == data.length / 2) {
                    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
                    while (syncs.get() == 0 && failed.get() == null && System.nanoTime() < deadline) Thread.sleep(1);
                }
                f.write(at, ByteBuffer.wrap(data, at, 64 << 10));
            }
            done.set(true);
            behind.join();
            if (failed.get() != null) throw new AssertionError("a sync amid the writes failed", failed.get());
            f.sync();
        }
        assertTrue(syncs.get() > 0, "the other thread synced while the writes went on");
        try (StorageFile f = driver().open(uri, OpenOptions.readOnly())) {
            assertArrayEquals(data, readAll(f, 0, data.length));
        }
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
    void arrayFormsMoveTheBytesOfTheirPartOfTheArray() throws IOException {
        URI uri = newFileUri("arrays");
        byte[] src = pattern(1200, 11);
        try (StorageFile f = driver().open(uri, OpenOptions.createReadWrite())) {
            f.writeArray(0, src, 7, 1000);
            f.writeArray(1000, src, 100, 50);
            assertEquals(1050, f.size());
            byte[] expected = new byte[1050];
            System.arraycopy(src, 7, expected, 0, 1000);
            System.arraycopy(src, 100, expected, 1000, 50);
            assertArrayEquals(expected, readAll(f, 0, 1050));
            byte[] dst = new byte[1100];
            assertEquals(400, f.readArray(650, dst, 3, 1000), "short at end-of-file, as readv");
            byte[] want = new byte[1100];
            System.arraycopy(expected, 650, want, 3, 400);
            assertArrayEquals(want, dst, "the bytes land at the array offset, nothing around them changes");
            assertEquals(0, f.readArray(1050, dst, 0, 10), "nothing at end-of-file");
        }
        try (StorageFile f = driver().open(uri, OpenOptions.readOnly())) {
            byte[] dst = new byte[20];
            assertEquals(20, f.readArray(990, dst, 0, 20));
            byte[] want = new byte[20];
            System.arraycopy(src, 997, want, 0, 10);
            System.arraycopy(src, 100, want, 10, 10);
            assertArrayEquals(want, dst, "a read-only handle reads the same");
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
        writeNew(uri, pattern(bytes, bytes));
    }

    private void writeNew(URI uri, byte[] data) throws IOException {
        try (StorageFile f = driver().open(uri, OpenOptions.createReadWrite())) {
            f.write(0, ByteBuffer.wrap(data));
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

    /**
     * Size and modification time can be put back by a restore (cp -p, rsync -t, tar -x); the change stamp is
     * what replicas vouch for their original by, so a new file of the same size must have a new one.
     */
    @Test
    void aFileReplacedByOneOfTheSameSizeHasANewChangeStamp() throws Exception {
        URI uri = newFileUri("stamp");
        writeNew(uri, pattern(4096, 1));
        StorageStatus first = driver().stat(uri);
        assertNotEquals(io.pdla.storage.ChangeStamp.NONE, first.changeStamp(), "every driver here reports a change stamp");
        assertEquals(first.changeStamp(), driver().stat(uri).changeStamp(), "the stamp is stable while nothing changes");
        Thread.sleep(20);
        driver().delete(uri);
        writeNew(uri, pattern(4096, 2));
        StorageStatus second = driver().stat(uri);
        assertEquals(first.size(), second.size());
        assertNotEquals(first.changeStamp(), second.changeStamp(), "a replaced file keeps its change stamp: " + first.changeStamp());
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

    // ---- missing capabilities: refused with UNSUPPORTED, nothing changed -------------------------------

    private static void assertUnsupported(StorageException e) {
        assertEquals(StorageException.Reason.UNSUPPORTED, e.reason(), e.getMessage());
    }

    private byte[] contents(URI uri) throws IOException {
        try (StorageFile f = driver().open(uri, OpenOptions.readOnly())) {
            return readAll(f, 0, Math.toIntExact(f.size()));
        }
    }

    @Test
    void withoutRandomWriteAnOverwriteOrAHoleIsRefusedAndChangesNothing() throws IOException {
        assumeFalse(can(Capability.RANDOM_WRITE), "driver writes at any offset (checked above)");
        URI uri = newFileUri("no-random-write");
        byte[] data = pattern(1000, 20);
        writeNew(uri, data);
        try (StorageFile f = driver().open(uri, OpenOptions.readWrite())) {
            assertUnsupported(assertThrows(StorageException.class, () -> f.write(10, ByteBuffer.wrap(new byte[20]))));
            assertUnsupported(assertThrows(StorageException.class, () -> f.write(5000, ByteBuffer.wrap(new byte[20]))));
        }
        assertArrayEquals(data, contents(uri));
    }

    @Test
    void withoutTruncateASizeChangeIsRefusedAndChangesNothing() throws IOException {
        assumeFalse(can(Capability.TRUNCATE), "driver changes sizes (checked above)");
        URI uri = newFileUri("no-truncate");
        byte[] data = pattern(1000, 21);
        writeNew(uri, data);
        try (StorageFile f = driver().open(uri, OpenOptions.readWrite())) {
            assertUnsupported(assertThrows(StorageException.class, () -> f.setSize(10)));
        }
        assertArrayEquals(data, contents(uri));
    }

    @Test
    void withoutConcurrentWritersASecondWriterIsRefusedAndChangesNothing() throws IOException {
        assumeFalse(can(Capability.CONCURRENT_WRITERS), "driver takes several writers (checked above)");
        URI uri = newFileUri("one-writer");
        byte[] first = pattern(100, 22);
        try (StorageFile a = driver().open(uri, OpenOptions.createReadWrite());
             StorageFile b = driver().open(uri, OpenOptions.readWrite())) {
            a.write(0, ByteBuffer.wrap(first));
            assertUnsupported(assertThrows(StorageException.class, () -> b.write(first.length, ByteBuffer.wrap(pattern(50, 23)))));
        }
        assertArrayEquals(first, contents(uri));
    }

    @Test
    void withoutRenameARenameIsRefusedAndBothFilesStay() throws IOException {
        assumeFalse(can(Capability.RENAME), "driver renames (checked above)");
        URI a = newFileUri("no-rename-src");
        URI b = newFileUri("no-rename-dst");
        writeNew(a, pattern(64, 24));
        writeNew(b, pattern(32, 25));
        assertUnsupported(assertThrows(StorageException.class, () -> driver().rename(a, b)));
        assertArrayEquals(pattern(64, 24), contents(a));
        assertArrayEquals(pattern(32, 25), contents(b));
    }

    @Test
    void withoutLayoutsSettingOneIsRefusedAndChangesNothing() throws IOException {
        assumeFalse(can(Capability.LAYOUT), "driver sets layouts (checked below)");
        URI uri = newFileUri("no-layout");
        Layout before = driver().layout(uri);
        assertUnsupported(assertThrows(StorageException.class,
                () -> driver().setLayout(uri, Layout.parse("2d:2,stripe=8k,region=1m"))));
        assertFalse(driver().exists(uri), "a refused layout creates nothing");
        assertEquals(before, driver().layout(uri));
    }

    @Test
    void withoutByteRangeLocksALockIsRefused() throws IOException {
        assumeFalse(can(Capability.BYTE_RANGE_LOCK), "driver locks (checked below)");
        URI uri = newFileUri("no-lock");
        byte[] data = pattern(100, 26);
        writeNew(uri, data);
        try (StorageFile f = driver().open(uri, OpenOptions.readWrite())) {
            assertUnsupported(assertThrows(StorageException.class, () -> f.lock(0, 10)));
        }
        assertArrayEquals(data, contents(uri));
    }

    // ---- layouts -------------------------------------------------------------------------------------

    @Test
    void everyFileReportsALayoutTheEngineCanUse() throws IOException {
        URI uri = newFileUri("layout-report");
        writeNew(uri, pattern(10_000, 27));
        Layout byDriver = driver().layout(uri);
        assertTrue(byDriver.stripeSize() > 0 && byDriver.serverCount() >= 1, byDriver.toString());
        try (StorageFile f = driver().open(uri, OpenOptions.readOnly())) {
            assertEquals(byDriver, f.layout(), "the open file and the driver describe the same layout");
        }
        assertEquals(byDriver, Layout.parse(byDriver.toString()), "a reported layout reads back from its text");
    }

    /** The same layout with its stripe (hybrid: both strips; 1-DV: the region) doubled. */
    private static Layout doubled(Layout l) {
        return switch (l.distribution()) {
            case HYBRID -> Layout.hybrid(2 * l.hddStripe(), 2 * l.ssdStripe()).withServers(l.hddServers(), l.ssdServers());
            case ONE_DV -> l.withRegion(2 * l.stripeSize());
            default -> l.withStripe(2 * l.stripe());
        };
    }

    @Test
    void aLayoutSetBeforeTheFileIsWrittenIsTheOneItGets() throws IOException {
        assumeTrue(can(Capability.LAYOUT), "driver has no layouts (refusal checked above)");
        URI dir = newFileUri("layout-dir");
        driver().mkdirs(dir);
        URI uri = child(dir, "f");
        Layout planned = doubled(driver().layout(dir));
        driver().setLayout(uri, planned);
        try (StorageFile f = driver().open(uri, OpenOptions.createReadWrite())) {
            f.write(0, ByteBuffer.wrap(pattern(50_000, 28)));
            assertEquals(planned, f.layout());
        }
        assertEquals(planned, driver().layout(uri), "a driver reproduces what it reports");
        assertArrayEquals(pattern(50_000, 28), contents(uri));
    }

    // ---- visibility across handles -------------------------------------------------------------------

    @Test
    void writesOfOneHandleAreSeenByAnotherAfterSync() throws IOException {
        URI uri = newFileUri("visible");
        byte[] first = pattern(3000, 29);
        byte[] more = pattern(2000, 30);
        try (StorageFile writer = driver().open(uri, OpenOptions.createReadWrite());
             StorageFile reader = driver().open(uri, OpenOptions.readOnly())) {
            writer.write(0, ByteBuffer.wrap(first));
            writer.sync();
            reader.sync();
            assertArrayEquals(first, readAll(reader, 0, first.length), "after sync-sync, as MPI's rule asks");
            writer.write(first.length, ByteBuffer.wrap(more));
            writer.sync();
            reader.sync();
            assertEquals(first.length + more.length, reader.size());
            assertArrayEquals(more, readAll(reader, first.length, more.length), "an append after the reader read once");
        }
    }

    // ---- byte-range locks ----------------------------------------------------------------------------

    /** Whether {@code lock} on {@code f} is still waiting after a while, then whether it gets the lock once free. */
    private static Future<RangeLock> lockLater(ExecutorService pool, StorageFile f, long offset, long length) {
        return pool.submit(() -> f.lock(offset, length));
    }

    @Test
    void aLockExcludesOverlappingLocksOfAnotherHandleUntilReleased() throws Exception {
        assumeTrue(can(Capability.BYTE_RANGE_LOCK), "driver cannot lock (refusal checked above)");
        URI uri = newFileUri("lock-handles");
        writeNew(uri, pattern(1000, 31));
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (StorageFile a = driver().open(uri, OpenOptions.readWrite());
             StorageFile b = driver().open(uri, OpenOptions.readWrite())) {
            RangeLock held = a.lock(0, 100);
            try (RangeLock disjoint = b.lock(100, 50)) {
                assertEquals(100, disjoint.offset(), "a disjoint range is granted at once");
            }
            Future<RangeLock> waiting = lockLater(pool, b, 50, 100);
            assertThrows(TimeoutException.class, () -> waiting.get(300, TimeUnit.MILLISECONDS), "overlapping lock granted while held");
            held.close();
            waiting.get(10, TimeUnit.SECONDS).close();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aLockExcludesAnotherThreadOfTheSameHandle() throws Exception {
        assumeTrue(can(Capability.BYTE_RANGE_LOCK), "driver cannot lock");
        URI uri = newFileUri("lock-threads");
        writeNew(uri, pattern(1000, 32));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        int[] counter = {0};
        boolean[] overlapSeen = {false};
        try (StorageFile f = driver().open(uri, OpenOptions.readWrite())) {
            List<Future<?>> all = new ArrayList<>();
            int[] inside = {0};
            for (int t = 0; t < 4; t++) {
                final long off = t * 10L;    // every range overlaps every other
                all.add(pool.submit(() -> {
                    for (int i = 0; i < 25; i++) {
                        try (RangeLock l = f.lock(off, 100)) {
                            synchronized (inside) {
                                if (++inside[0] > 1) overlapSeen[0] = true;
                            }
                            Thread.sleep(1);
                            counter[0]++;    // unsynchronised on purpose: only the lock protects it
                            synchronized (inside) {
                                inside[0]--;
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> fut : all) fut.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertFalse(overlapSeen[0], "two threads held overlapping locks at once");
        assertEquals(100, counter[0]);
    }

    @Test
    void closingTheFileReleasesItsLocks() throws Exception {
        assumeTrue(can(Capability.BYTE_RANGE_LOCK), "driver cannot lock");
        URI uri = newFileUri("lock-close");
        writeNew(uri, pattern(1000, 33));
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (StorageFile b = driver().open(uri, OpenOptions.readWrite())) {
            StorageFile a = driver().open(uri, OpenOptions.readWrite());
            a.lock(0, 1000);
            Future<RangeLock> waiting = lockLater(pool, b, 500, 10);
            assertThrows(TimeoutException.class, () -> waiting.get(300, TimeUnit.MILLISECONDS));
            a.close();
            waiting.get(10, TimeUnit.SECONDS).close();
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- owners and marks (issue 18): what a store offers is reported, and what it reports holds ----------

    @Test
    void aMarkReadsBackFollowsARenameAndAStoreWithoutMarksKeepsNone() throws IOException {
        URI a = newFileUri("mark-src");
        writeNew(a, 100);
        byte[] value = pattern(32, 41);
        assertTrue(driver().mark(a, "contract.test").isEmpty(), "a new file has no mark");
        try {
            driver().setMark(a, "contract.test", value);
        } catch (StorageException e) {
            assertUnsupported(e);
            assertTrue(driver().mark(a, "contract.test").isEmpty(), "a store that refused a mark reports one");
            return;
        }
        assertArrayEquals(value, driver().mark(a, "contract.test").orElseThrow());
        assertTrue(driver().mark(a, "contract.other").isEmpty(), "marks are per name");
        driver().setMark(a, "contract.test", new byte[]{1});
        assertArrayEquals(new byte[]{1}, driver().mark(a, "contract.test").orElseThrow(), "a mark is replaced");
        assertThrows(IllegalArgumentException.class, () -> driver().mark(a, "../etc"), "a mark name is checked");
        if (can(Capability.RENAME)) {
            URI b = newFileUri("mark-dst");
            driver().rename(a, b);
            assertArrayEquals(new byte[]{1}, driver().mark(b, "contract.test").orElseThrow(), "the mark moved with the file");
        }
    }

    @Test
    void ownershipThatIsReportedCanBeNarrowedAndReadsBack() throws IOException {
        URI a = newFileUri("owner");
        writeNew(a, 10);
        java.util.Optional<io.pdla.storage.FileOwnership> o = driver().ownership(a);
        if (o.isEmpty()) {
            StorageException e = assertThrows(StorageException.class, () -> driver().setOwnership(a,
                    new io.pdla.storage.FileOwnership("nobody", "nogroup", java.util.Set.of())));
            assertUnsupported(e);
            return;
        }
        io.pdla.storage.FileOwnership narrow = new io.pdla.storage.FileOwnership(o.get().owner(), o.get().group(),
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-r-----"));
        driver().setOwnership(a, narrow);
        assertEquals(narrow, driver().ownership(a).orElseThrow());
        StorageException missing = assertThrows(StorageException.class, () -> driver().ownership(newFileUri("owner-missing")));
        assertEquals(StorageException.Reason.NO_SUCH_FILE, missing.reason());
    }

    // ---- what only the store knows (issue 34): each driver answers for itself --------------------------------

    /** The name of the folder copies keep beside their original in these tests. */
    private static final String BESIDE = ".pdla-replicas";

    @Test
    void aCopyGivenItsOriginalsOwnerIsAcceptedAndOneWithWiderPermissionsIsRefused() throws IOException {
        URI original = newFileUri("copied");
        writeNew(original, 64);
        io.pdla.storage.CopyOwnership rules = driver().copyOwnership();
        URI dir = original.resolve(BESIDE + "/0123456789abcdef0123/");
        URI copy = dir.resolve("replica-1-0123abcd");
        java.util.Optional<io.pdla.storage.CopyOwnership.Owner> owner = rules.ownerOf(original);
        assertEquals(driver().ownership(original).isPresent(), owner.isPresent(), "a store that keeps owners names the original's");
        if (owner.isEmpty()) {
            driver().mkdirs(dir);
            writeNew(copy, 64);
            assertEquals(null, rules.reasonRefused(original, copy, BESIDE), "a store without owners has only the caller's containment rule");
            assertEquals(null, rules.reasonNotDeletable(copy, BESIDE));
            return;
        }
        assertEquals(null, rules.reasonCannotOwn(owner.get(), original), "this process made the original, so it can give copies its owner");
        rules.prepareDirectory(owner.get(), dir);
        writeNew(copy, 64);
        rules.secureFile(owner.get(), copy);
        io.pdla.storage.FileOwnership o = driver().ownership(original).orElseThrow();
        assertEquals(o.withoutExecute(), driver().ownership(copy).orElseThrow(), "the copy has the original's owner, group and bits without execute");
        assertEquals(null, rules.reasonRefused(original, copy, BESIDE), "a copy made by the rules passes them");
        assertEquals(null, rules.reasonNotDeletable(copy, BESIDE));

        driver().setOwnership(original, new io.pdla.storage.FileOwnership(o.owner(), o.group(),
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        driver().setOwnership(copy, new io.pdla.storage.FileOwnership(o.owner(), o.group(),
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--")));
        String wider = rules.reasonRefused(original, copy, BESIDE);
        assertTrue(wider != null && wider.contains("wider"), "a copy others may read while its original is private: " + wider);

        java.util.Optional<java.nio.file.Path> local = driver().localPath(copy);
        if (local.isPresent()) {
            // a store with symbolic links must not be led through one: a copy replaced by a link to another file is refused
            java.nio.file.Files.delete(local.get());
            java.nio.file.Files.createSymbolicLink(local.get(), driver().localPath(original).orElseThrow());
            String linked = rules.reasonRefused(original, copy, BESIDE);
            assertTrue(linked != null && linked.contains("symbolic link"), "a copy that is a symbolic link: " + linked);
            assertTrue(rules.reasonNotDeletable(copy, BESIDE) != null, "a symbolic link is never deleted as a copy");
        }
    }

    @Test
    void aLocalPathIsTheFileItselfOrAbsent() throws IOException {
        URI a = newFileUri("local");
        byte[] data = pattern(300, 7);
        writeNew(a, data);
        java.util.Optional<java.nio.file.Path> local = driver().localPath(a);
        if (local.isPresent()) {
            assertArrayEquals(data, java.nio.file.Files.readAllBytes(local.get()), "the local path holds the file's bytes");
        } else {
            // not one local file: nothing at the URI's path on this machine is the file
            assertFalse(a.getPath() != null && java.nio.file.Files.isRegularFile(java.nio.file.Path.of(a.getPath()))
                    && java.util.Arrays.equals(data, java.nio.file.Files.readAllBytes(java.nio.file.Path.of(a.getPath()))),
                    "a store that says its files are not local files keeps this one at its own path");
        }
    }

    @Test
    void aDirectorySyncSucceedsAfterARenameIntoIt() throws IOException {
        URI a = newFileUri("sync-src");
        writeNew(a, 100);
        URI dir = a.resolve("synced-dir/");
        driver().mkdirs(dir);
        URI b = dir.resolve("moved");
        if (can(Capability.RENAME)) {
            driver().rename(a, b);
        } else {
            writeNew(b, 100);
        }
        driver().syncDirectory(dir);
        assertEquals(100, driver().stat(b).size(), "the renamed file is there after the sync");
    }

    @Test
    void aFileThisProcessWroteIsReadableAndAMissingOneIsNot() throws IOException {
        URI a = newFileUri("readable");
        writeNew(a, 10);
        assertTrue(driver().readable(a), "the file this process just wrote");
        assertFalse(driver().readable(newFileUri("readable-missing")), "a file that is not there");
    }

    @Test
    void aMemoryMappingWhereOfferedShowsAndTakesTheFilesBytes() throws IOException {
        URI a = newFileUri("mapped");
        int n = 1 << 20;
        byte[] data = pattern(n, 11);
        writeNew(a, data);
        try (StorageFile f = driver().open(a, OpenOptions.readOnly())) {
            java.util.Optional<io.pdla.storage.MemoryMapping> m = f.memoryMapping();
            if (m.isPresent()) {
                ByteBuffer view = m.get().mappedView(4096, n - 8192);
                if (view != null) {
                    byte[] got = new byte[view.remaining()];
                    view.duplicate().get(got);
                    assertArrayEquals(java.util.Arrays.copyOfRange(data, 4096, n - 4096), got, "a mapped view shows the file's bytes");
                }
                assertFalse(m.get().writeMapped(0, n, buf -> { }), "a read-only handle takes no mapped write");
            }
        }
        try (StorageFile f = driver().open(a, OpenOptions.readWrite())) {
            java.util.Optional<io.pdla.storage.MemoryMapping> m = f.memoryMapping();
            if (m.isPresent()) {
                byte[] fill = pattern(n, 12);
                boolean done = m.get().writeMapped(0, n, buf -> buf.put(0, fill));
                assertArrayEquals(done ? fill : data, readAll(f, 0, n), done ? "a mapped write put its bytes" : "a declined mapped write changed nothing");
            }
        }
    }
}
