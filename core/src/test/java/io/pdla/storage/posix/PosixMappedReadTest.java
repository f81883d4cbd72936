package io.pdla.storage.posix;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Read-only files serve heap reads from a mapping: the bytes must be the file's, wherever the read falls. */
class PosixMappedReadTest {
    @TempDir
    Path dir;

    private static final OpenOptions READ_ONLY = new OpenOptions(true, false, false, false, Map.of());

    @Test
    void heapReadsOfAReadOnlyFileReturnTheFilesBytesAnywhere() throws Exception {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        byte[] content = new byte[1 + rnd.nextInt(3 << 20)];
        rnd.nextBytes(content);
        Path p = dir.resolve("f");
        Files.write(p, content);
        try (StorageFile f = new PosixDriver().open(p.toUri(), READ_ONLY)) {
            for (int i = 0; i < 500; i++) {
                int off = rnd.nextInt(content.length + 100);
                int len = rnd.nextBoolean() ? rnd.nextInt(1 << 10) : MappedReads.MIN_BYTES + rnd.nextInt(1 << 18);
                byte[] arr = new byte[len + 16];
                int at = rnd.nextInt(16);
                ByteBuffer dst = ByteBuffer.wrap(arr, at, len).slice();
                int n = f.read(off, dst);
                int expected = Math.max(0, Math.min(len, content.length - off));
                assertEquals(expected, Math.max(n, 0), "seed " + seed + ": bytes read at " + off + " len " + len);
                assertArrayEquals(Arrays.copyOfRange(content, Math.min(off, content.length), Math.min(off, content.length) + expected),
                        Arrays.copyOfRange(arr, at, at + expected), "seed " + seed + ": bytes at " + off);
                assertEquals(Math.max(n, 0), dst.position(), "seed " + seed + ": position advanced by the bytes read");
            }
        }
    }

    @Test
    void bytesAppendedAfterOpenAreReadThroughTheChannel() throws Exception {
        int n = MappedReads.MIN_BYTES * 2;
        byte[] before = new byte[n], after = new byte[n];
        Arrays.fill(before, (byte) 1);
        Arrays.fill(after, (byte) 2);
        Path p = dir.resolve("g");
        Files.write(p, before);
        try (StorageFile f = new PosixDriver().open(p.toUri(), READ_ONLY)) {
            ByteBuffer inside = ByteBuffer.allocate(MappedReads.MIN_BYTES);
            assertEquals(inside.capacity(), f.read(n / 2, inside));
            Files.write(p, after, StandardOpenOption.APPEND);
            ByteBuffer across = ByteBuffer.allocate(n);
            assertEquals(n, f.read(n / 2, across));
            byte[] expected = new byte[n];
            Arrays.fill(expected, 0, n / 2, (byte) 1);
            Arrays.fill(expected, n / 2, n, (byte) 2);
            assertArrayEquals(expected, across.array());
        }
    }

    private static boolean mapped(Path p) throws java.io.IOException {
        String name = p.toRealPath().toString();
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().anyMatch(l -> l.endsWith(name) || l.endsWith(name + " (deleted)"));
    }

    /**
     * A file whose pages are in the page cache when this handle first reads {@link MappedReads#MIN_BYTES} or more is
     * read with pread from then on (one copy too, without faulting a fresh mapping in and unmapping it at close): the
     * native calls grow with each large read and the bytes are the file's.
     */
    @Test
    void aWarmFileIsReadWithPreadNotThroughTheMapping() throws Exception {
        assumeTrue(NativePosix.available(), () -> "the native library is not loaded: " + NativePosix.unavailableReason());
        byte[] content = new byte[4 * MappedReads.MIN_BYTES];
        new Random(11).nextBytes(content);
        Path p = Files.write(dir.resolve("warm"), content);   // just written: every page is in the page cache
        try (StorageFile f = new PosixDriver().open(p.toUri(), READ_ONLY)) {
            for (int i = 0; i < 3; i++) {
                long before = NativePosix.callsInThisJvm();
                ByteBuffer dst = ByteBuffer.allocate(MappedReads.MIN_BYTES);
                assertEquals(dst.capacity(), f.read((long) i * MappedReads.MIN_BYTES, dst));
                assertArrayEquals(Arrays.copyOfRange(content, i * MappedReads.MIN_BYTES, (i + 1) * MappedReads.MIN_BYTES), dst.array());
                assertEquals(before + 1, NativePosix.callsInThisJvm(), "large read " + i + " of a warm file went through pread");
            }
        }
    }

    /**
     * Close unmaps at once: a mapping left to the collector keeps a deleted file's pages, dirty ones too, in the
     * page cache, and later writes crawl (MappedReads' comment has the figures).
     */
    @Test
    void closeUnmapsTheFileAtOnce() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/maps")) && Unmapper.AVAILABLE, "needs Linux's /proc/self/maps and invokeCleaner");
        byte[] content = new byte[2 * MappedReads.MIN_BYTES];
        new Random(7).nextBytes(content);
        Path p = Files.write(dir.resolve("unmapped"), content);
        StorageFile f = new PosixDriver().open(p.toUri(), READ_ONLY);
        ByteBuffer dst = ByteBuffer.allocate(MappedReads.MIN_BYTES);
        assertEquals(dst.capacity(), f.read(MappedReads.MIN_BYTES, dst));
        assertArrayEquals(Arrays.copyOfRange(content, MappedReads.MIN_BYTES, content.length), dst.array());
        assertTrue(mapped(p), "the read mapped the file (to copy from it, or to see whether its pages are in the page cache)");
        f.close();
        assertFalse(mapped(p), "close must unmap the file, not leave it to the garbage collector");
        assertThrows(java.io.IOException.class, () -> f.read(0, ByteBuffer.allocate(MappedReads.MIN_BYTES)), "a read after close fails");
    }

    /** Views may still be read by other ranks after this rank closed: their mapping is left to the collector. */
    @Test
    void aViewHandedOutStaysReadableAfterClose() throws Exception {
        byte[] content = new byte[2 * MappedReads.MIN_BYTES];
        new Random(8).nextBytes(content);
        Path p = Files.write(dir.resolve("viewed"), content);
        StorageFile f = new PosixDriver().open(p.toUri(), READ_ONLY);
        ByteBuffer view = f.memoryMapping().orElseThrow().mappedView(100, MappedReads.MIN_BYTES);
        assertTrue(view != null, "a read-only file hands out views of its mapping");
        f.close();
        byte[] got = new byte[MappedReads.MIN_BYTES];
        view.get(got);
        assertArrayEquals(Arrays.copyOfRange(content, 100, 100 + MappedReads.MIN_BYTES), got);
    }
}
