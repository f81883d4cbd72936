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

    /** The requests made, as [offset, length] pairs. */
    private static final class Recorded implements StridedReadAhead.Advice {
        final List<long[]> asked = new ArrayList<>();

        @Override
        public void willNeed(long offset, long length) {
            asked.add(new long[]{offset, length});
        }
    }

    @Test
    void iorStridedReadsAskForEveryByteAheadOnceAWindowAtATime() {
        Recorded r = new Recorded();
        StridedReadAhead ra = new StridedReadAhead(WINDOW, r);
        int block = 16 * KIB, ranks = 4;
        long stride = (long) block * ranks, last = 0;
        for (long seg = 0; seg < 4096; seg++) {
            long offset = seg * stride + block; // rank 1's blocks
            ra.beforeRead(offset, block);
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
        Recorded r = new Recorded();
        StridedReadAhead sequential = new StridedReadAhead(WINDOW, r);
        for (long i = 0; i < 1000; i++) sequential.beforeRead(i * 16 * KIB, 16 * KIB);
        StridedReadAhead sparse = new StridedReadAhead(WINDOW, r);
        for (long i = 0; i < 1000; i++) sparse.beforeRead(i * 17 * 16 * KIB, 16 * KIB);   // 1 block in 17: mostly bytes nobody reads
        StridedReadAhead backwards = new StridedReadAhead(WINDOW, r);
        for (long i = 1000; i > 0; i--) backwards.beforeRead(i * 64 * KIB, 16 * KIB);
        StridedReadAhead random = new StridedReadAhead(WINDOW, r);
        Random rnd = new Random(5);
        for (int i = 0; i < 1000; i++) random.beforeRead((long) rnd.nextInt(1 << 20) * 64, 16 * KIB);
        StridedReadAhead wide = new StridedReadAhead(WINDOW, r);
        for (long i = 0; i < 1000; i++) wide.beforeRead(i * 2 * WINDOW, MIB);   // a stride beyond the window
        assertEquals(List.of(), r.asked.stream().map(a -> a[0] + "+" + a[1]).toList());
    }

    @Test
    void aNewPassOverTheFileIsReadAheadFromItsStart() {
        Recorded r = new Recorded();
        StridedReadAhead ra = new StridedReadAhead(WINDOW, r);
        long stride = 64 * KIB;
        for (int pass = 0; pass < 2; pass++) {
            int before = r.asked.size();
            for (long seg = 0; seg < 64; seg++) ra.beforeRead(seg * stride, 16 * KIB);
            assertTrue(r.asked.size() > before, "pass " + pass + " asked for nothing");
            assertEquals(3 * stride + 16 * KIB, r.asked.get(before)[0], "pass " + pass + "'s first request");
        }
    }

    /**
     * On a real file whose pages are not cached (written with O_DIRECT), a handle's strided reads bring the bytes a
     * window ahead into the page cache, gaps included; with the hint at 0 they do not.
     */
    @Test
    void stridedReadsOfAColdFileBringTheWindowAheadIntoThePageCache() throws Exception {
        assumeTrue(NativePosix.available(), () -> "the native library is not loaded: " + NativePosix.unavailableReason());
        int size = 32 * MIB;
        byte[] content = new byte[size];
        new Random(3).nextBytes(content);
        for (String window : new String[]{"8m", "0"}) {
            Path p = dir.resolve("cold-" + window);
            assumeTrue(writeUncached(p, content), "the temporary directory does not take O_DIRECT writes");
            assertFalse(resident(p, 2L * MIB, 6L * MIB), "the file written with O_DIRECT is in the page cache already");
            OpenOptions readOnly = new OpenOptions(true, false, false, false, Map.of(PosixDriver.HINT_STRIDE_READAHEAD, window));
            try (StorageFile f = new PosixDriver().open(p.toUri(), readOnly)) {
                byte[] got = new byte[16 * KIB];
                for (int seg = 0; seg < 8; seg++) {   // 16 KiB every 64 KiB, within the first 512 KiB
                    long off = seg * 64L * KIB;
                    assertEquals(got.length, f.readArray(off, got, 0, got.length));
                    assertArrayEquals(java.util.Arrays.copyOfRange(content, (int) off, (int) off + got.length), got, "bytes at " + off);
                }
                boolean ahead = waitResident(p, 2L * MIB, 6L * MIB, window.equals("0") ? 300 : 5_000);
                if (window.equals("0")) {
                    assertFalse(ahead, "with the hint at 0, 2-8 MiB came into the page cache anyway: the kernel read that far ahead itself");
                } else {
                    assertTrue(ahead, "2-8 MiB were not read ahead within 5 s of 8 strided reads");
                }
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
