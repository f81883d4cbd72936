package io.pdla.storage.sieve;

import io.pdla.access.ExtentList;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageFile;
import io.pdla.storage.posix.PosixDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SievingStorageFileTest {
    @TempDir
    Path dir;
    private final PosixDriver posix = new PosixDriver();

    private static Map<String, String> hints(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return m;
    }

    private StorageFile open(Path p) throws IOException {
        return posix.open(p.toUri(), OpenOptions.createReadWrite());
    }

    /** Random extents in file order with random gaps (0 included), some reaching past {@code fileSize}. */
    static ExtentList randomMonotone(Random r, long fileSize) {
        ExtentList.Builder b = ExtentList.builder();
        long at = r.nextInt((int) Math.max(1, fileSize / 4 + 1));
        int n = 2 + r.nextInt(40);
        for (int i = 0; i < n; i++) {
            int len = 1 + (r.nextInt(4) == 0 ? r.nextInt(20_000) : r.nextInt(600));
            b.add(at, len);
            at += len + (r.nextInt(3) == 0 ? 0 : r.nextInt(r.nextBoolean() ? 300 : 30_000));
        }
        return b.build();
    }

    static ExtentList shuffled(ExtentList l, Random r) {
        List<io.pdla.access.Extent> e = new ArrayList<>(l);
        Collections.shuffle(e, r);
        return ExtentList.of(e);
    }

    private static byte[] bytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    @Test
    void sievedReadsEqualPlainReadsOnRandomExtentLists() throws IOException {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        Path p = dir.resolve("reads");
        int size = 1 + r.nextInt(300_000);
        Files.write(p, bytes(r, size));
        try (StorageFile plain = open(p)) {
            for (int trial = 0; trial < 300; trial++) {
                ExtentList list = randomMonotone(r, size);
                if (r.nextInt(4) == 0) list = shuffled(list, r);
                int window = 1 + (r.nextBoolean() ? r.nextInt(64) : r.nextInt(200_000));    // often smaller than one piece
                StorageFile sieved = SievingStorageFile.wrap(plain, hints(SievingSettings.READ, "enable",
                        SievingSettings.READ_BUFFER, Integer.toString(window)));
                ByteBuffer want = ByteBuffer.allocate((int) list.totalBytes());
                ByteBuffer got = r.nextBoolean() ? ByteBuffer.allocate(want.capacity()) : ByteBuffer.allocateDirect(want.capacity());
                long n = plain.readv(list, want);
                String where = "seed " + seed + ", trial " + trial + ", window " + window + ", file " + size + " bytes, " + list;
                assertEquals(n, sieved.readv(list, got), where);
                assertEquals(n, got.position(), where);
                byte[] g = new byte[(int) n];
                got.flip().get(g);
                assertArrayEquals(Arrays.copyOf(want.array(), (int) n), g, where);
            }
        }
    }

    @Test
    void sievedWritesLeaveTheSameFileAsPlainWrites() throws IOException {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        Path a = dir.resolve("sieved"), b = dir.resolve("plain");
        byte[] initial = bytes(r, r.nextInt(200_000));
        Files.write(a, initial);
        Files.write(b, initial);
        try (StorageFile plain = open(b); StorageFile under = open(a)) {
            for (int trial = 0; trial < 200; trial++) {
                ExtentList list = randomMonotone(r, plain.size());
                if (r.nextInt(4) == 0) list = shuffled(list, r);
                int window = 1 + (r.nextBoolean() ? r.nextInt(64) : r.nextInt(200_000));
                StorageFile sieved = SievingStorageFile.wrap(under, hints(SievingSettings.WRITE, "enable",
                        SievingSettings.WRITE_BUFFER, Integer.toString(window)));
                byte[] data = bytes(r, (int) list.totalBytes());
                ByteBuffer src = r.nextBoolean() ? ByteBuffer.wrap(data) : ByteBuffer.allocateDirect(data.length).put(data).flip();
                assertEquals(list.totalBytes(), sieved.writev(list, src));
                assertFalse(src.hasRemaining(), "the source is consumed");
                plain.writev(list, ByteBuffer.wrap(data));
                String where = "seed " + seed + ", trial " + trial + ", window " + window + ", " + list;
                assertEquals(plain.size(), under.size(), where);
                assertArrayEquals(Files.readAllBytes(b), Files.readAllBytes(a), where);
            }
        }
    }

    @Test
    void aDenseListIsOneReadPerWindowAndOthersPassThrough() throws IOException {
        Path p = dir.resolve("count");
        Files.write(p, new byte[100_000]);
        ExtentList dense = ExtentList.builder().add(0, 100).add(200, 100).add(400, 100).add(600, 100).build();
        ExtentList sparse = ExtentList.builder().add(0, 100).add(30_000, 100).add(60_000, 100).add(90_000, 100).build();
        ExtentList unsorted = ExtentList.builder().add(400, 100).add(0, 100).add(200, 100).build();
        try (StorageFile raw = open(p)) {
            CountingFile c = new CountingFile(raw, true);
            StorageFile auto = SievingStorageFile.wrap(c, Map.of());
            auto.readv(dense, ByteBuffer.allocate(400));
            assertEquals(1, c.reads.getAndSet(0), "automatic: holes no larger than the pieces are read with them");
            auto.readv(sparse, ByteBuffer.allocate(400));
            assertEquals(1, c.reads.getAndSet(0), "automatic: a mean hole of 30 KB is under 64 KiB, worth reading through");
            StorageFile enabledSmall = SievingStorageFile.wrap(c, hints(SievingSettings.READ, "enable", SievingSettings.READ_BUFFER, "250"));
            enabledSmall.readv(dense, ByteBuffer.allocate(400));
            assertEquals(3, c.reads.getAndSet(0), "windows of 250 bytes start at the next piece: [0,250) [400,650) [650,700)");
            auto.readv(unsorted, ByteBuffer.allocate(300));
            assertEquals(3, c.reads.getAndSet(0), "a list out of file order passes through");
            auto.writev(dense, ByteBuffer.allocate(400));
            assertEquals(1, c.writes.getAndSet(0), "a sieved write is one read-modify-write");
            assertEquals(1, c.reads.getAndSet(0));
            SievingStorageFile.wrap(c, hints(SievingSettings.READ, "disable")).readv(dense, ByteBuffer.allocate(400));
            assertEquals(4, c.reads.getAndSet(0), "disable: one read per piece");
        }
    }

    @Test
    void automaticLeavesSparseListsAlone() throws IOException {
        Path p = dir.resolve("sparse");
        Files.write(p, new byte[4_000_000]);
        ExtentList sparse = ExtentList.builder().add(0, 100).add(1_000_000, 100).add(2_000_000, 100).build();
        try (StorageFile raw = open(p)) {
            CountingFile c = new CountingFile(raw, true);
            SievingStorageFile.wrap(c, Map.of()).readv(sparse, ByteBuffer.allocate(300));
            assertEquals(3, c.reads.get(), "holes of 1 MB around 100-byte pieces are not worth reading");
            c.reads.set(0);
            SievingStorageFile.wrap(c, hints(SievingSettings.READ, "enable")).readv(sparse, ByteBuffer.allocate(300));
            assertEquals(1, c.reads.get(), "enable reads them anyway, as ROMIO does: one 4 MiB window");
        }
    }

    @Test
    void withoutLocksEnableIsRefusedNamingTheHintAndAutomaticWritesPieceByPiece() throws IOException {
        Path p = dir.resolve("nolock");
        byte[] before = new byte[5000];
        new Random().nextBytes(before);
        Files.write(p, before);
        ExtentList list = ExtentList.builder().add(0, 100).add(200, 100).build();
        try (StorageFile raw = open(p)) {
            CountingFile noLocks = new CountingFile(raw, false);
            StorageFile enabled = SievingStorageFile.wrap(noLocks, hints(SievingSettings.WRITE, "enable"));
            StorageException e = assertThrows(StorageException.class, () -> enabled.writev(list, ByteBuffer.allocate(200)));
            assertEquals(StorageException.Reason.UNSUPPORTED, e.reason());
            assertTrue(e.getMessage().contains("romio_ds_write=enable"), e.getMessage());
            assertArrayEquals(before, Files.readAllBytes(p), "nothing written");
            assertEquals(0, noLocks.writes.get());
            StorageFile automatic = SievingStorageFile.wrap(noLocks, Map.of());
            automatic.writev(list, ByteBuffer.wrap(new byte[200]));
            assertEquals(2, noLocks.writes.get(), "automatic falls back to one write per piece");
            byte[] after = Files.readAllBytes(p);
            Arrays.fill(before, 0, 100, (byte) 0);
            Arrays.fill(before, 200, 300, (byte) 0);
            assertArrayEquals(before, after);
        }
    }

    @Test
    void hintsAreValidatedNamingKeyAndValue() {
        for (String[] bad : new String[][]{{SievingSettings.READ, "yes"}, {SievingSettings.WRITE, "on"},
                {SievingSettings.READ_BUFFER, "0"}, {SievingSettings.WRITE_BUFFER, "lots"}, {SievingSettings.READ_BUFFER, "4g"}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SievingSettings.fromHints(hints(bad)));
            assertTrue(e.getMessage().contains(bad[0]) && e.getMessage().contains("'" + bad[1] + "'"), e.getMessage());
        }
        SievingSettings d = SievingSettings.fromHints(Map.of("cb_nodes", "2"));
        assertEquals(SievingSettings.DEFAULT, d);
        assertEquals("4194304", d.effectiveHints().get(SievingSettings.READ_BUFFER));
        assertEquals("524288", d.effectiveHints().get(SievingSettings.WRITE_BUFFER));
        assertEquals("automatic", d.effectiveHints().get(SievingSettings.READ));
        assertEquals(64 * 1024, SievingSettings.fromHints(hints(SievingSettings.WRITE_BUFFER, "64k")).writeBufferSize());
    }

    @Test
    void disablingBothDirectionsReturnsTheFileItself() throws IOException {
        try (StorageFile f = open(dir.resolve("same"))) {
            assertSame(f, SievingStorageFile.wrap(f, hints(SievingSettings.READ, "disable", SievingSettings.WRITE, "disable")));
        }
    }

    // ---- concurrent sieved writers -------------------------------------------------------------------

    static byte[] pieceBytes(int index, int piece) {
        byte[] b = new byte[piece];
        new Random(index * 7919L + piece).nextBytes(b);
        return b;
    }

    /** Writer {@code id} of {@code writers} writes pieces id, id+writers, ... in vectored calls of 8 pieces. */
    static void writeShare(StorageFile f, int id, int writers, int piece, int pieces) throws IOException {
        List<Integer> mine = new ArrayList<>();
        for (int k = id; k < pieces; k += writers) mine.add(k);
        for (int from = 0; from < mine.size(); from += 8) {
            ExtentList.Builder b = ExtentList.builder();
            ByteBuffer src = ByteBuffer.allocate(piece * Math.min(8, mine.size() - from));
            for (int k : mine.subList(from, Math.min(mine.size(), from + 8))) {
                b.add((long) k * piece, piece);
                src.put(pieceBytes(k, piece));
            }
            f.writev(b.build(), src.flip());
        }
    }

    private static void assertEveryPiece(Path p, int piece, int pieces) throws IOException {
        byte[] all = Files.readAllBytes(p);
        assertEquals((long) piece * pieces, all.length);
        for (int k = 0; k < pieces; k++) {
            assertArrayEquals(pieceBytes(k, piece), Arrays.copyOfRange(all, k * piece, (k + 1) * piece), "piece " + k + " lost");
        }
    }

    @Test
    void twoThreadsOfInterleavedSievedWritesLoseNoBytes() throws Exception {
        Path p = dir.resolve("threads");
        int piece = 100, pieces = 4000;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int id = 0; id < 2; id++) {
                final int me = id;
                all.add(pool.submit(() -> {
                    try (StorageFile f = SievingStorageFile.wrap(open(p), hints(SievingSettings.WRITE, "enable",
                            SievingSettings.WRITE_BUFFER, "1000"))) {
                        writeShare(f, me, 2, piece, pieces);
                    }
                    return null;
                }));
            }
            for (Future<?> f : all) f.get(120, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertEveryPiece(p, piece, pieces);
    }

    /**
     * Ranks that are threads of one JVM order their writes with one lock of their group: a sieved writer and an unsieved
     * one (one piece per call, between the sieved writer's pieces) lose no byte of each other's, and the unsieved writes
     * take no byte-range lock of the file (another descriptor's lock over the whole file does not hold them up, where
     * without the group's lock it does).
     */
    @Test
    void ranksOfOneJvmOrderTheirWritesWithTheGroupsLockAndNoFileLock() throws Exception {
        Path p = dir.resolve("group");
        int piece = 100, pieces = 4000;
        java.util.concurrent.locks.ReadWriteLock order = new java.util.concurrent.locks.ReentrantReadWriteLock();
        Map<String, String> sieving = hints(SievingSettings.WRITE, "enable", SievingSettings.WRITE_BUFFER, "1000");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<?> sieved = pool.submit(() -> {
                try (StorageFile f = SievingStorageFile.wrap(open(p), sieving, order)) {
                    writeShare(f, 0, 2, piece, pieces);
                }
                return null;
            });
            Future<?> plain = pool.submit(() -> {
                try (StorageFile f = SievingStorageFile.wrap(open(p), sieving, order)) {
                    for (int k = 1; k < pieces; k += 2) f.writeArray((long) k * piece, pieceBytes(k, piece), 0, piece);
                }
                return null;
            });
            sieved.get(120, TimeUnit.SECONDS);
            plain.get(120, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertEveryPiece(p, piece, pieces);

        try (StorageFile other = open(p); StorageFile grouped = SievingStorageFile.wrap(open(p), sieving, order);
             StorageFile alone = SievingStorageFile.wrap(open(p), sieving)) {
            ExecutorService one = Executors.newSingleThreadExecutor();
            try (io.pdla.storage.RangeLock whole = other.lock(0, (long) piece * pieces)) {
                one.submit(() -> {
                    grouped.writeArray(0, pieceBytes(0, piece), 0, piece);
                    return null;
                }).get(10, TimeUnit.SECONDS);
                Future<?> held = one.submit(() -> {
                    alone.writeArray(0, pieceBytes(0, piece), 0, piece);
                    return null;
                });
                assertThrows(java.util.concurrent.TimeoutException.class, () -> held.get(300, TimeUnit.MILLISECONDS),
                        "without the group's lock an unsieved write waits for the file's byte-range lock");
                whole.close();
                held.get(10, TimeUnit.SECONDS);
            } finally {
                one.shutdownNow();
            }
        }
    }

    @Test
    void twoJvmsOfInterleavedSievedWritesLoseNoBytes() throws Exception {
        Path p = dir.resolve("jvms");
        int piece = 100, pieces = 6000;
        Files.createFile(p);
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(javaBin, "-cp", System.getProperty("java.class.path"), SievedWriterMain.class.getName(),
                p.toUri().toString(), "1", "2", Integer.toString(piece), Integer.toString(pieces), "1000")
                .redirectErrorStream(true).start();
        java.io.BufferedReader childOut = new java.io.BufferedReader(new java.io.InputStreamReader(child.getInputStream()));
        String first = childOut.readLine();
        assertEquals("ready", first, "the child JVM starts writing");
        try (StorageFile f = SievingStorageFile.wrap(open(p), hints(SievingSettings.WRITE, "enable", SievingSettings.WRITE_BUFFER, "1000"))) {
            for (int round = 0; round < SievedWriterMain.ROUNDS; round++) writeShare(f, 0, 2, piece, pieces);
        }
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "child JVM finished");
        String out = first + "\n" + childOut.lines().collect(java.util.stream.Collectors.joining("\n"));
        assertEquals(0, child.exitValue(), out);
        assertTrue(out.contains("done 1"), out);
        assertEveryPiece(p, piece, pieces);
    }
}
