package io.pdla.darshan;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sample Darshan logs of the tests, made with pdla's {@link DarshanWriter} at test time: the repository keeps no
 * third-party log (a bare clone runs every test). They cover format 3.41 in both byte orders and with bzip2, a
 * partial POSIX module, a partial DXT module, DXT_MPIIO version 1, H5D version 1, POSIX version 3, a log without records, a log
 * without DXT and a 32-rank run with many files and DXT segments. They are written to {@code target/written-logs} of the module whose
 * tests run, with fixed content and no zlib (whose output, and so darshan-parser's "bytes (compressed)" lines, varies
 * with the zlib build), so the texts darshan-util printed for them (darshan's {@code expected/}) stay valid. Other
 * modules use them through darshan's test-jar.
 */
public final class WrittenLogs {
    private WrittenLogs() {}

    private static final long CKPT = 0x1d2c3b4a59687766L, LOG0 = 0x2233445566778899L, INPUT = 0x7766554433221100L;
    private static final long DATASET_A = 0x0a0b0c0d01020304L, DATASET_B = 0x0a0b0c0d05060708L;
    private static List<Path> written;

    /** Every written log, in a fixed order. */
    public static synchronized List<Path> all() throws IOException {
        if (written != null) return written;
        Path dir = dir();
        Files.createDirectories(dir);
        Map<String, byte[]> logs = new LinkedHashMap<>();
        DarshanWriter.Content run = run();
        logs.put("pdla-written-3.41-bzip2.darshan", DarshanWriter.write(run, Compression.BZIP2));
        logs.put("pdla-written-3.41-big-endian.darshan", DarshanWriter.write(run, Compression.NONE, ByteOrder.BIG_ENDIAN));
        logs.put("pdla-written-partial-posix.darshan", partial(DarshanWriter.write(run, Compression.NONE), ModuleId.POSIX));
        logs.put("pdla-written-partial-dxt.darshan", partial(DarshanWriter.write(run, Compression.NONE), ModuleId.DXT_POSIX));
        logs.put("pdla-written-dxt-mpiio-v1.darshan", dxtMpiioVersion1(DarshanWriter.write(run, Compression.NONE)));
        logs.put("pdla-written-h5d-v1.darshan", withH5dVersion1(run));
        logs.put("pdla-written-posix-v3.darshan", withPosixVersion3(run));
        logs.put("pdla-written-empty.darshan", DarshanWriter.write(new DarshanWriter.Content(run.job(), Map.of(),
                List.of(), List.of(), List.of(), List.of()), Compression.NONE));
        logs.put("pdla-written-32-ranks.darshan", DarshanWriter.write(wideRun(), Compression.NONE));
        logs.put("pdla-written-counters-only.darshan", DarshanWriter.write(new DarshanWriter.Content(run.job(), run.names(),
                run.posix(), run.mpiio(), List.of(), List.of()), Compression.NONE));
        List<Path> out = new ArrayList<>();
        for (Map.Entry<String, byte[]> e : logs.entrySet()) {
            Path p = dir.resolve(e.getKey());
            if (!Files.exists(p) || !Arrays.equals(Files.readAllBytes(p), e.getValue())) {
                // whole or not at all: another test JVM of the module may be reading the same file
                Path tmp = Files.createTempFile(dir, e.getKey(), ".tmp");
                Files.write(tmp, e.getValue());
                Files.move(tmp, p, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            }
            out.add(p);
        }
        written = List.copyOf(out);
        return written;
    }

    /** A written log by file name. */
    public static Path get(String name) throws IOException {
        for (Path p : all()) if (p.getFileName().toString().equals(name)) return p;
        throw new IllegalArgumentException("no written sample log " + name + " (there are: " + all() + ")");
    }

    /** Where they are written: {@code target/written-logs} of the module whose tests run (surefire runs there). */
    public static Path dir() {
        return Path.of("").toAbsolutePath().resolve("target/written-logs");
    }

    /**
     * Sets the module's bit of the header's partial flag, as the runtime does when the module ran out of memory for
     * records: what it kept is valid, but darshan-util refuses to print it without --show-incomplete.
     */
    private static byte[] partial(byte[] log, ModuleId m) {
        ByteBuffer b = ByteBuffer.wrap(log).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(24, b.getLong(24) | 1L << m.ordinal());
        return log;
    }

    /**
     * Marks the DXT_MPIIO region as version 1 (Darshan 3.1), whose 32-byte segments are laid out as version 2's but
     * whose offsets were never recorded: darshan-util reads them as -1.
     */
    private static byte[] dxtMpiioVersion1(byte[] log) {
        ByteBuffer b = ByteBuffer.wrap(log).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(1072 + 4 * ModuleId.DXT_MPIIO.ordinal(), 1);
        return log;
    }

    /**
     * The run with an H5D region in version 1 (Darshan 3.2.x: no H5D_FILE_REC_ID after the base record), which pdla's
     * writer does not write: two dataset records appended after the other regions, with their names in the name
     * region, and the header's H5D slot and version pointing at them. Uncompressed, so the region is the records.
     */
    private static byte[] withH5dVersion1(DarshanWriter.Content run) {
        Map<Long, String> names = new LinkedHashMap<>(run.names());
        names.put(DATASET_A, "/scratch/run1/ckpt.h5:/step-0001/u");
        names.put(DATASET_B, "/scratch/run1/ckpt.h5:/step-0001/v");
        byte[] log = DarshanWriter.write(new DarshanWriter.Content(run.job(), names, run.posix(), run.mpiio(), run.dxtPosix(),
                run.dxtMpiio()), Compression.NONE);
        CounterLayout l = CounterLayout.H5D;
        int words = 2 + l.intNames.length + l.floatNames.length;
        ByteBuffer region = ByteBuffer.allocate(2 * 8 * words).order(ByteOrder.LITTLE_ENDIAN);
        long[][] ints = {{2, 6, 12, 3L << 20}, {2, 0, 12, 0}};
        for (int r = 0; r < 2; r++) {
            long[] c = new long[l.intNames.length];
            double[] f = new double[l.floatNames.length];
            c[l.intIndex("H5D_OPENS")] = ints[r][0];
            c[l.intIndex("H5D_READS")] = ints[r][1];
            c[l.intIndex("H5D_WRITES")] = ints[r][2];
            c[l.intIndex("H5D_BYTES_READ")] = ints[r][3];
            c[l.intIndex("H5D_BYTES_WRITTEN")] = 3L << 20;
            c[l.intIndex("H5D_DATASPACE_NDIMS")] = 2;
            c[l.intIndex("H5D_DATATYPE_SIZE")] = 8;
            f[l.floatIndex("H5D_F_WRITE_TIME")] = 0.75 + r;
            region.putLong(r == 0 ? DATASET_A : DATASET_B).putLong(-1);
            for (long v : c) region.putLong(v);
            for (double v : f) region.putDouble(v);
        }
        return appendRegion(log, ModuleId.H5D, 1, region.array());
    }

    /**
     * The run with its POSIX records in version 3 (Darshan 3.1.x: no POSIX_FILENOS, POSIX_DUPS, POSIX_RENAME_SOURCES,
     * POSIX_RENAME_TARGETS, POSIX_RENAMED_FROM), which darshan-util up-converts to -1, -1, -1, -1, 0.
     */
    private static byte[] withPosixVersion3(DarshanWriter.Content run) {
        byte[] log = DarshanWriter.write(new DarshanWriter.Content(run.job(), run.names(), List.of(), run.mpiio(), run.dxtPosix(),
                run.dxtMpiio()), Compression.NONE);
        java.util.Set<Integer> absent = java.util.Set.of(1, 2, 10, 11, 12);
        ByteBuffer region = ByteBuffer.allocate(run.posix().size() * 8 * (CounterLayout.POSIX.currentWords() - absent.size()))
                .order(ByteOrder.LITTLE_ENDIAN);
        for (CounterRecord r : run.posix()) {
            region.putLong(r.id()).putLong(r.rank());
            for (int i = 0; i < r.counters().length; i++) if (!absent.contains(i)) region.putLong(r.counters()[i]);
            for (double v : r.fcounters()) region.putDouble(v);
        }
        return appendRegion(log, ModuleId.POSIX, 3, region.array());
    }

    /** An uncompressed module region appended to an uncompressed log whose header has that module's slot empty. */
    private static byte[] appendRegion(byte[] log, ModuleId m, int version, byte[] region) {
        ByteBuffer h = ByteBuffer.wrap(log).order(ByteOrder.LITTLE_ENDIAN);
        if (h.getLong(48 + 16 * m.ordinal() + 8) != 0) throw new IllegalStateException(m + " slot already used");
        byte[] out = Arrays.copyOf(log, log.length + region.length);
        System.arraycopy(region, 0, out, log.length, region.length);
        h = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        h.putLong(48 + 16 * m.ordinal(), log.length);
        h.putLong(48 + 16 * m.ordinal() + 8, region.length);
        h.putInt(1072 + 4 * m.ordinal(), version);
        return out;
    }

    /**
     * 32 ranks on 4 nodes writing a file each and one shared file, then reading the shared file back: 33 POSIX records,
     * an MPI-IO record for the shared file, and DXT traces of 40 segments per rank (1280 in all).
     */
    private static DarshanWriter.Content wideRun() {
        int ranks = 32;
        DarshanJob job = new DarshanJob(1000, 1_700_100_000L, 5_000_000L, 1_700_100_095L, 250_000_000L, ranks, 4343,
                "lib_ver=pdla\n", "java -cp app.jar io.example.Sweep --ranks 32",
                List.of(new Mount("/scratch", "lustre"), new Mount("/home", "nfs"), new Mount("/", "ext4")));
        Map<Long, String> names = new LinkedHashMap<>();
        long shared = 0x5eed000000000001L;
        names.put(shared, "/scratch/sweep/shared.dat");
        List<CounterRecord> posix = new ArrayList<>();
        List<DxtRecord> dxtPosix = new ArrayList<>(), dxtMpiio = new ArrayList<>();
        posix.add(posix(shared, -1, ranks, 20L * ranks, 20L * ranks, 20L * ranks << 16, 20L * ranks << 16, 4.0, 6.5, 1.0, 90.0));
        for (int r = 0; r < ranks; r++) {
            long id = 0x5eed000000000100L + r;
            names.put(id, "/scratch/sweep/out-" + r + ".dat");
            posix.add(posix(id, r, 1, 0, 10 + r, 0, (10L + r) << 20, 0.0, 0.5 + r / 64.0, 0.125, 80.0 + r / 8.0));
            long[] off = new long[40], len = new long[40];
            double[] start = new double[40], end = new double[40];
            for (int i = 0; i < 40; i++) {
                off[i] = ((long) (i % 20) * ranks + r) << 16;
                len[i] = 1L << 16;
                start[i] = 1.0 + i * 2.0 + r / 100.0;
                end[i] = start[i] + 0.0625;
            }
            dxtPosix.add(new DxtRecord(shared, r, "node" + r / 8, 20, 20, off, len, start, end, new long[40]));
            if (r % 8 == 0) dxtMpiio.add(new DxtRecord(shared, r, "node" + r / 8, 20, 20, off, len, start, end, new long[40]));
        }
        List<CounterRecord> mpiio = List.of(mpiio(shared, -1, ranks, 20L * ranks, 20L * ranks, 20L * ranks << 16, 20L * ranks << 16, 3.0, 5.5));
        return new DarshanWriter.Content(job, names, posix, mpiio, dxtPosix, dxtMpiio);
    }

    /** A four-rank checkpoint run: one shared file written collectively and read back, a per-rank log, an input file. */
    private static DarshanWriter.Content run() {
        DarshanJob job = new DarshanJob(1000, 1_700_000_000L, 123_456_789L, 1_700_000_012L, 987_654_321L, 4, 4242,
                "lib_ver=pdla\nh=romio_cb_write=enable\n", "java -cp app.jar io.example.Checkpoint --steps 3",
                List.of(new Mount("/scratch", "lustre"), new Mount("/", "ext4")));
        Map<Long, String> names = new LinkedHashMap<>();
        names.put(CKPT, "/scratch/run1/ckpt.dat");
        names.put(LOG0, "/scratch/run1/rank0.log");
        names.put(INPUT, "/scratch/run1/input.dat");
        List<CounterRecord> posix = List.of(
                posix(CKPT, -1, 8, 12, 24, 3L << 20, 6L << 20, 0.5, 1.25, 2.0, 9.5),
                posix(LOG0, 0, 1, 0, 40, 0, 4096, 0.25, 0.0, 0.125, 11.75),
                posix(INPUT, 2, 1, 16, 0, 1L << 20, 0, 0.75, 0.5, 0.0, 1.5));
        List<CounterRecord> mpiio = List.of(mpiio(CKPT, -1, 4, 4, 8, 1L << 20, 2L << 20, 1.0, 2.5));
        List<DxtRecord> dxtPosix = new ArrayList<>(), dxtMpiio = new ArrayList<>();
        for (int rank = 0; rank < 4; rank++) {
            dxtPosix.add(dxt(CKPT, rank, 65536, 3.0));
            dxtMpiio.add(dxt(CKPT, rank, 262144, 2.9));
        }
        return new DarshanWriter.Content(job, names, posix, mpiio, dxtPosix, dxtMpiio);
    }

    private static CounterRecord posix(long id, long rank, long opens, long reads, long writes, long bytesRead,
                                       long bytesWritten, double readTime, double writeTime, double metaTime, double end) {
        CounterLayout l = CounterLayout.POSIX;
        long[] c = new long[l.intNames.length];
        double[] f = new double[l.floatNames.length];
        c[l.intIndex("POSIX_OPENS")] = opens;
        c[l.intIndex("POSIX_READS")] = reads;
        c[l.intIndex("POSIX_WRITES")] = writes;
        c[l.intIndex("POSIX_BYTES_READ")] = bytesRead;
        c[l.intIndex("POSIX_BYTES_WRITTEN")] = bytesWritten;
        c[l.intIndex("POSIX_MAX_BYTE_READ")] = bytesRead - 1;
        c[l.intIndex("POSIX_MAX_BYTE_WRITTEN")] = bytesWritten - 1;
        c[l.intIndex("POSIX_MEM_ALIGNMENT")] = 8;
        c[l.intIndex("POSIX_FILE_ALIGNMENT")] = 4096;
        // the runtime marks a counter it could not monitor with -1
        c[l.intIndex("POSIX_FASTEST_RANK")] = rank < 0 ? 1 : -1;
        c[l.intIndex("POSIX_SLOWEST_RANK")] = rank < 0 ? 3 : -1;
        f[l.floatIndex("POSIX_F_OPEN_START_TIMESTAMP")] = 0.125;
        f[l.floatIndex("POSIX_F_READ_START_TIMESTAMP")] = reads > 0 ? 1.0 : 0;
        f[l.floatIndex("POSIX_F_WRITE_START_TIMESTAMP")] = writes > 0 ? 0.5 : 0;
        f[l.floatIndex("POSIX_F_READ_END_TIMESTAMP")] = reads > 0 ? end - 0.5 : 0;
        f[l.floatIndex("POSIX_F_WRITE_END_TIMESTAMP")] = writes > 0 ? end - 1.0 : 0;
        f[l.floatIndex("POSIX_F_CLOSE_END_TIMESTAMP")] = end;
        f[l.floatIndex("POSIX_F_READ_TIME")] = readTime;
        f[l.floatIndex("POSIX_F_WRITE_TIME")] = writeTime;
        f[l.floatIndex("POSIX_F_META_TIME")] = metaTime;
        return new CounterRecord(id, rank, 0, c, f);
    }

    private static CounterRecord mpiio(long id, long rank, long collOpens, long collReads, long collWrites, long bytesRead,
                                       long bytesWritten, double readTime, double writeTime) {
        CounterLayout l = CounterLayout.MPIIO;
        long[] c = new long[l.intNames.length];
        double[] f = new double[l.floatNames.length];
        c[l.intIndex("MPIIO_COLL_OPENS")] = collOpens;
        c[l.intIndex("MPIIO_COLL_READS")] = collReads;
        c[l.intIndex("MPIIO_COLL_WRITES")] = collWrites;
        c[l.intIndex("MPIIO_BYTES_READ")] = bytesRead;
        c[l.intIndex("MPIIO_BYTES_WRITTEN")] = bytesWritten;
        f[l.floatIndex("MPIIO_F_OPEN_START_TIMESTAMP")] = 0.1;
        f[l.floatIndex("MPIIO_F_READ_TIME")] = readTime;
        f[l.floatIndex("MPIIO_F_WRITE_TIME")] = writeTime;
        f[l.floatIndex("MPIIO_F_CLOSE_END_TIMESTAMP")] = 9.75;
        return new CounterRecord(id, rank, 0, c, f);
    }

    /** Two writes of this rank's block, then one read of it back. */
    private static DxtRecord dxt(long id, int rank, long length, double readAt) {
        long[] off = {rank * 2 * length, rank * 2 * length + length, rank * 2 * length};
        long[] len = {length, length, length};
        double[] start = {0.5 + rank * 0.01, 1.0 + rank * 0.01, readAt + rank * 0.01};
        double[] end = {start[0] + 0.25, start[1] + 0.25, start[2] + 0.125};
        return new DxtRecord(id, rank, "node" + rank / 2, 2, 1, off, len, start, end, new long[3]);
    }
}
