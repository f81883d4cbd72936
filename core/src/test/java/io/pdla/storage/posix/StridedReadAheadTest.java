package io.pdla.storage.posix;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Strided reads ask the kernel for the file bytes ahead, gaps included; other reads leave read-ahead to it. */
class StridedReadAheadTest {
    private static final int KIB = 1024, MIB = 1 << 20;
    private static final long WINDOW = 8L * MIB;

    @TempDir
    Path dir;

    /** The windows asked for, as [offset, length] pairs, when every read finds its bytes uncached. */
    private static final class Recorded {
        final List<long[]> asked = new ArrayList<>();
        final StridedReadAhead ra;

        Recorded(long window) {
            ra = new StridedReadAhead(window);
        }

        void read(long offset, int length) {
            if (!ra.due(offset, length)) return;
            asked.add(new long[]{ra.askFrom(), ra.askLength()});
            ra.asked();
        }
    }

    @Test
    void iorStridedReadsAskForEveryByteAheadOnceAWindowAtATime() {
        Recorded r = new Recorded(WINDOW);
        int block = 16 * KIB, ranks = 4;
        long stride = (long) block * ranks, last = 0;
        for (long seg = 0; seg < 4096; seg++) {
            long offset = seg * stride + block; // rank 1's blocks
            r.read(offset, block);
            last = offset;
        }
        assertFalse(r.asked.isEmpty(), "no read-ahead for strided reads");
        long firstRead = 3 * stride + block;   // the fourth read: three equal strides seen
        assertEquals(firstRead + block, r.asked.get(0)[0], "the first request starts right after the read that made the stride steady");
        long end = r.asked.get(0)[0];
        for (long[] a : r.asked) {
            assertEquals(end, a[0], "requests follow each other with no gap and no overlap");
            assertTrue(a[1] > 0 && a[1] <= WINDOW, "a request of at most one window: " + a[1]);
            end = a[0] + a[1];
        }
        assertTrue(end >= last + block, "the reads' bytes are all asked for: up to " + end + ", last read ends " + (last + block));
        assertTrue(end <= last + WINDOW, "nothing asked for beyond a window past the last read: " + end);
        // half a window between requests: a 64 MiB span in 8 MiB windows is asked for in about 16 requests, not thousands
        long span = last + block - firstRead;
        assertTrue(r.asked.size() <= span / (WINDOW / 2) + 2, r.asked.size() + " requests for " + span + " bytes");
    }

    @Test
    void contiguousSparseAndIrregularReadsAreLeftToTheKernel() {
        List<long[]> asked = new ArrayList<>();
        Recorded sequential = new Recorded(WINDOW);
        for (long i = 0; i < 1000; i++) sequential.read(i * 16 * KIB, 16 * KIB);
        Recorded sparse = new Recorded(WINDOW);
        for (long i = 0; i < 1000; i++) sparse.read(i * 17 * 16 * KIB, 16 * KIB);   // 1 block in 17: mostly bytes nobody reads
        Recorded backwards = new Recorded(WINDOW);
        for (long i = 1000; i > 0; i--) backwards.read(i * 64 * KIB, 16 * KIB);
        Recorded random = new Recorded(WINDOW);
        Random rnd = new Random(5);
        for (int i = 0; i < 1000; i++) random.read((long) rnd.nextInt(1 << 20) * 64, 16 * KIB);
        Recorded wide = new Recorded(WINDOW);
        for (long i = 0; i < 1000; i++) wide.read(i * 2 * WINDOW, MIB);   // a stride beyond the window
        for (Recorded r : List.of(sequential, sparse, backwards, random, wide)) asked.addAll(r.asked);
        assertEquals(List.of(), asked.stream().map(a -> a[0] + "+" + a[1]).toList());
    }

    @Test
    void aNewPassOverTheFileIsReadAheadFromItsStart() {
        Recorded r = new Recorded(WINDOW);
        long stride = 64 * KIB;
        for (int pass = 0; pass < 2; pass++) {
            int before = r.asked.size();
            for (long seg = 0; seg < 64; seg++) r.read(seg * stride, 16 * KIB);
            assertTrue(r.asked.size() > before, "pass " + pass + " asked for nothing");
            assertEquals(3 * stride + 16 * KIB, r.asked.get(before)[0], "pass " + pass + "'s first request");
        }
    }

    @Test
    void aReadThatFoundItsBytesCachedTriesAgainAnEighthOfAWindowLater() {
        StridedReadAhead ra = new StridedReadAhead(WINDOW);
        long stride = 64 * KIB;
        List<Long> tried = new ArrayList<>();
        for (long seg = 0; seg < 1024; seg++) {   // 64 MiB of a cached file: no window is ever asked for
            if (!ra.due(seg * stride, 16 * KIB)) continue;
            tried.add(seg * stride);
            ra.cached();
        }
        assertEquals(3 * stride, tried.get(0), "the first read after three equal strides tries");
        for (int i = 1; i < tried.size(); i++) {
            assertEquals(WINDOW / 8, tried.get(i) - tried.get(i - 1), "reads tried " + tried.get(i - 1) + " then " + tried.get(i));
        }
        assertTrue(tried.size() >= 1024 * stride / (WINDOW / 8) - 1, tried.size() + " tries over 64 MiB");
    }

    @Test
    void onceAWindowWasAskedForTheNextOnesAreAskedForThoughTheReadsFindTheirBytesCached() {
        StridedReadAhead ra = new StridedReadAhead(WINDOW);
        long stride = 64 * KIB, end = 0;
        int asked = 0;
        for (long seg = 0; seg < 4096; seg++) {   // 256 MiB: only the first read after the stride is steady misses
            if (!ra.due(seg * stride, 16 * KIB)) continue;
            boolean miss = asked == 0;
            if (ra.streaming() || miss) {
                assertEquals(asked == 0 ? ra.askFrom() : end, ra.askFrom(), "windows follow each other");
                end = ra.askFrom() + ra.askLength();
                ra.asked();
                asked++;
            }
        }
        assertTrue(end >= 4095 * stride, "the stream was asked for to its end: " + end);
        assertTrue(asked >= 4096 * stride / WINDOW, "windows asked for: " + asked);
        ra.due(0, 16 * KIB);   // a new pass: probing again
        assertFalse(ra.streaming(), "a new pass over the file streams without a miss");
    }

    @Test
    void ranksReadingOneFileInStepAskForEachWindowOnce() {
        java.util.concurrent.atomic.AtomicLong frontier = new java.util.concurrent.atomic.AtomicLong();
        int ranks = 4, block = 16 * KIB;
        long stride = (long) ranks * block, askedBytes = 0, last = 0;
        StridedReadAhead[] ra = new StridedReadAhead[ranks];
        for (int r = 0; r < ranks; r++) ra[r] = new StridedReadAhead(WINDOW, frontier);
        for (long seg = 0; seg < 4096; seg++) {
            for (int r = 0; r < ranks; r++) {
                long off = seg * stride + (long) r * block;
                last = off;
                if (!ra[r].due(off, block)) continue;
                askedBytes += ra[r].askLength();   // every read misses: each due window is asked for
                ra[r].asked();
            }
        }
        long span = last + block;
        assertTrue(frontier.get() >= span, "the frontier reached the end: " + frontier.get());
        assertTrue(askedBytes <= span + 2 * WINDOW, askedBytes + " bytes asked for a " + span + "-byte file: windows asked twice");
    }

    @Test
    void handlesOfOneFileShareAFrontierUntilTheLastCloses() throws Exception {
        assumeTrue(NativePosix.available(), () -> "the native library is not loaded: " + NativePosix.unavailableReason());
        Path p = java.nio.file.Files.write(dir.resolve("shared"), new byte[1 << 20]);
        OpenOptions readOnly = new OpenOptions(true, false, false, false, Map.of());
        int before = ReadAheadFrontiers.files();
        StorageFile a = new PosixDriver().open(p.toUri(), readOnly);
        StorageFile b = new PosixDriver().open(dir.resolve(".").resolve("shared").toUri(), readOnly);   // another path, the same file
        assertEquals(before + 1, ReadAheadFrontiers.files(), "two handles of one file share one frontier");
        a.close();
        assertEquals(before + 1, ReadAheadFrontiers.files(), "the frontier stays while a handle is open");
        b.close();
        b.close();   // closing twice leaves once
        assertEquals(before, ReadAheadFrontiers.files(), "the last close removes it");
    }

    @Test
    void aStoppedReadAheadIsNeverDue() {
        StridedReadAhead ra = new StridedReadAhead(WINDOW);
        for (long seg = 0; seg < 8; seg++) ra.due(seg * 64 * KIB, 16 * KIB);
        assertTrue(ra.due(8 * 64 * KIB, 16 * KIB), "a steady stride is due");
        ra.stop();
        for (long seg = 9; seg < 64; seg++) assertFalse(ra.due(seg * 64 * KIB, 16 * KIB), "due after stop, read " + seg);
    }

    /**
     * On a real file whose pages are not cached (written with O_DIRECT), a handle's strided reads bring the gaps of the
     * window ahead into the page cache; with the hint at 0 they do not; reads of cached bytes give no hint. The reads
     * (64 KiB every MiB) are ones the kernel does not read ahead for by itself: each falls after an uncached page.
     */
    @Test
    void stridedReadsOfAColdFileBringTheWindowAheadIntoThePageCache() throws Exception {
        assumeTrue(NativePosix.available(), () -> "the native library is not loaded: " + NativePosix.unavailableReason());
        int size = 16 * MIB, block = 64 * KIB;
        byte[] content = new byte[size];
        new Random(3).nextBytes(content);
        long gapFrom = 6L * MIB + 256 * KIB, gapLength = 768 * KIB;   // between the reads at 6 and 7 MiB
        for (String window : new String[]{"8m", "0"}) {
            Path p = dir.resolve("cold-" + window);
            assumeTrue(writeUncached(p, content), "the temporary directory does not take O_DIRECT writes");
            assertFalse(resident(p, gapFrom, gapLength), "the file written with O_DIRECT is in the page cache already");
            OpenOptions readOnly = new OpenOptions(true, false, false, false, Map.of(PosixDriver.HINT_STRIDE_READAHEAD, window));
            long hintsBefore = NativePosix.hintsInThisJvm();
            try (StorageFile f = new PosixDriver().open(p.toUri(), readOnly)) {
                byte[] got = new byte[block];
                for (int pass = 0; pass < 2; pass++) {
                    for (int seg = 0; seg < 8; seg++) {
                        long off = seg * (long) MIB;
                        assertEquals(got.length, f.readArray(off, got, 0, got.length));
                        assertArrayEquals(java.util.Arrays.copyOfRange(content, (int) off, (int) off + got.length), got, "bytes at " + off);
                    }
                    if (pass == 1) break;
                    if (window.equals("0")) {
                        assertFalse(waitResident(p, gapFrom, gapLength, 300), "with the hint at 0 the gap came into the page cache anyway");
                        assertEquals(hintsBefore, NativePosix.hintsInThisJvm(), "hints given with the hint at 0");
                    } else {
                        assertTrue(waitResident(p, gapFrom, gapLength, 5_000), "the gap at 6 MiB was not read ahead within 5 s");
                        assertTrue(NativePosix.hintsInThisJvm() > hintsBefore, "no hint counted for reads of a cold file");
                    }
                    hintsBefore = NativePosix.hintsInThisJvm();
                }
                assertEquals(hintsBefore, NativePosix.hintsInThisJvm(), "reads of cached bytes (the second pass) gave read-ahead hints");
            }
        }
    }

    private static boolean writeUncached(Path p, byte[] content) throws IOException {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, com.sun.nio.file.ExtendedOpenOption.DIRECT)) {
            int align = 4096;
            ByteBuffer b = ByteBuffer.allocateDirect(content.length + align).alignedSlice(align);
            b.put(content).flip();
            while (b.hasRemaining()) ch.write(b);
            return true;
        } catch (UnsupportedOperationException | IOException e) {
            return false;
        }
    }

    private static boolean resident(Path p, long offset, long length) throws IOException {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, offset, length);
            boolean loaded = m.isLoaded();   // mincore: every page resident
            Unmapper.unmap(m);
            return loaded;
        }
    }

    private static boolean waitResident(Path p, long offset, long length, long millis) throws Exception {
        long until = System.nanoTime() + millis * 1_000_000L;
        do {
            if (resident(p, offset, length)) return true;
            Thread.sleep(20);
        } while (System.nanoTime() < until);
        return false;
    }
}
