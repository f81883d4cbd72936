package io.pdla.storage.posix;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fills through a writable mapping (what the collective engine's aggregators use on a page-cache file): the bytes
 * put are the file's, the bytes left alone keep the file's contents or read as zeros past its old end, and a fill
 * never shortens a file another writer has grown.
 */
class PosixMappedWriteTest {
    @TempDir
    Path dir;

    private static final OpenOptions READ_WRITE = new OpenOptions(true, true, true, false, Map.of());
    private static final OpenOptions READ_ONLY = new OpenOptions(true, false, false, false, Map.of());

    @Test
    void filledRunsLandAndHolesKeepTheFilesBytes() throws Exception {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        Path p = dir.resolve("f");
        byte[] model = new byte[1 + rnd.nextInt(2 << 20)];
        rnd.nextBytes(model);
        Files.write(p, model);
        try (StorageFile f = new PosixDriver().open(p.toUri(), READ_WRITE)) {
            for (int round = 0; round < 40; round++) {
                long offset = rnd.nextInt(model.length + (1 << 20));
                int length = MappedWrites.MIN_BYTES + rnd.nextInt(1 << 20);
                byte[] data = new byte[length];
                rnd.nextBytes(data);
                // runs of bytes to put, with holes between them; the last byte of the range is always put
                boolean[] put = new boolean[length];
                for (int i = 0; i < length; ) {
                    int run = 1 + rnd.nextInt(70_000);
                    boolean on = rnd.nextBoolean();
                    for (int j = i; j < Math.min(length, i + run); j++) put[j] = on;
                    i += run;
                }
                put[length - 1] = true;
                boolean done = f.memoryMapping().orElseThrow().writeMapped(offset, length, m -> {
                    for (int i = 0; i < length; i++) if (put[i]) m.put(i, data[i]);
                });
                assertTrue(done, "seed " + seed + ": a writable page-cache file takes a mapped fill");
                long end = offset + length;
                if (end > model.length) model = Arrays.copyOf(model, (int) end); // a fill past the end: zeros in its holes
                for (int i = 0; i < length; i++) if (put[i]) model[(int) offset + i] = data[i];
                assertEquals(model.length, f.size(), "seed " + seed + ": size after round " + round);
            }
        }
        assertArrayEquals(model, Files.readAllBytes(p), "seed " + seed + ": file contents against the model");
    }

    @Test
    void concurrentFillsNeverShortenTheFile() throws Exception {
        // four aggregators filling disjoint windows of a new file at once, the last window first: none may cut the
        // file back to its own end (FileChannel.map would, by ftruncate)
        Path p = dir.resolve("g");
        int window = MappedWrites.MIN_BYTES * 2, windows = 4;
        try (StorageFile f = new PosixDriver().open(p.toUri(), READ_WRITE)) {
            ExecutorService pool = Executors.newFixedThreadPool(windows);
            try {
                for (int trial = 0; trial < 20; trial++) {
                    Future<?>[] done = new Future<?>[windows];
                    for (int w = windows - 1; w >= 0; w--) {
                        int k = w, t = trial;
                        done[w] = pool.submit(() -> {
                            f.memoryMapping().orElseThrow().writeMapped((long) k * window, window, m -> {
                                for (int i = 0; i < window; i++) m.put(i, (byte) (k * 31 + t));
                            });
                            return null;
                        });
                    }
                    for (Future<?> d : done) d.get();
                    assertEquals((long) window * windows, f.size(), "trial " + trial);
                    byte[] all = Files.readAllBytes(p);
                    for (int w = 0; w < windows; w++) {
                        for (int i = 0; i < window; i += 4093) {
                            assertEquals((byte) (w * 31 + trial), all[w * window + i], "trial " + trial + " window " + w + " byte " + i);
                        }
                    }
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void smallRangesReadOnlyFilesAndDirectIoTakeTheOrdinaryPath() throws Exception {
        Path p = dir.resolve("h");
        Files.write(p, new byte[MappedWrites.MIN_BYTES * 2]);
        boolean[] ran = {false};
        try (StorageFile f = new PosixDriver().open(p.toUri(), READ_WRITE)) {
            assertFalse(f.memoryMapping().orElseThrow().writeMapped(0, MappedWrites.MIN_BYTES - 1, m -> ran[0] = true), "below the threshold");
        }
        try (StorageFile f = new PosixDriver().open(p.toUri(), READ_ONLY)) {
            assertFalse(f.memoryMapping().orElseThrow().writeMapped(0, MappedWrites.MIN_BYTES, m -> ran[0] = true), "a read-only handle");
        }
        assertFalse(ran[0], "no fill ran when the store declined");
        assertArrayEquals(new byte[MappedWrites.MIN_BYTES * 2], Files.readAllBytes(p), "nothing written");
    }

    @Test
    void aFillThatFailsReportsItsErrorAndLeavesTheRestOfTheFile() throws Exception {
        Path p = dir.resolve("i");
        byte[] before = new byte[MappedWrites.MIN_BYTES * 2];
        Arrays.fill(before, (byte) 5);
        Files.write(p, before);
        try (StorageFile f = new PosixDriver().open(p.toUri(), READ_WRITE)) {
            java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                    () -> f.memoryMapping().orElseThrow().writeMapped(0, MappedWrites.MIN_BYTES, m -> {
                        m.put(0, (byte) 9);
                        throw new java.io.IOException("exchange failed");
                    }));
            assertEquals("exchange failed", e.getMessage());
            ByteBuffer b = ByteBuffer.allocate(before.length);
            f.read(0, b);
            assertEquals(9, b.get(0), "what the fill put before failing is written, as with a write cut short");
            assertEquals(5, b.get(MappedWrites.MIN_BYTES), "bytes past the range are untouched");
        }
    }
}
