package io.pdla.cli;

import io.pdla.darshan.Compression;
import io.pdla.darshan.CounterRecord;
import io.pdla.darshan.MpiioCounter;
import io.pdla.darshan.MpiioFCounter;
import io.pdla.darshan.PosixCounter;
import io.pdla.darshan.PosixFCounter;
import io.pdla.darshan.DarshanJob;
import io.pdla.darshan.DarshanLog;
import io.pdla.darshan.DarshanReader;
import io.pdla.darshan.DarshanWriter;
import io.pdla.darshan.DxtRecord;
import io.pdla.darshan.Mount;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.zip.Inflater;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code pdla bench darshan-parse}: read speed of the Darshan reader on one core, in MB/s of uncompressed record
 * data, on a synthetic log written by {@link DarshanWriter} (POSIX + MPI-IO records and DXT segments, zlib). In the
 * same run it times bare zlib inflation of the same regions, so the ratio says how much the record decoding costs
 * on top of the decompression every reader pays.
 */
@Command(name = "darshan-parse", mixinStandardHelpOptions = true,
        description = "Darshan reader speed (MB/s of uncompressed record data, one thread) and retained memory.")
final class DarshanBenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--files", defaultValue = "20000", description = "POSIX/MPI-IO records (default: ${DEFAULT-VALUE})")
    int files;

    @Option(names = "--segments", defaultValue = "2000000", description = "DXT segments (default: ${DEFAULT-VALUE})")
    int segments;

    @Option(names = "--seconds", defaultValue = "5", description = "measuring time per variant (default: ${DEFAULT-VALUE})")
    double seconds;

    @Option(names = "--logs", paramLabel = "DIR", description = "also time reading every .darshan log in DIR (real logs)")
    java.nio.file.Path logsDir;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (logsDir != null) {
            List<byte[]> real = new ArrayList<>();
            try (var s = java.nio.file.Files.list(logsDir)) {
                for (java.nio.file.Path p : s.filter(p -> p.toString().endsWith(".darshan")).sorted().toList()) {
                    real.add(java.nio.file.Files.readAllBytes(p));
                }
            }
            DarshanReader r = new DarshanReader();
            long bytes = 0, compressed = 0;
            for (byte[] b : real) { bytes += r.read(b).uncompressedRecordBytes(); compressed += b.length; }
            double mbs = measure(() -> { for (byte[] b : real) r.read(b); return null; }, bytes);
            out.printf("real logs in %s: %d logs, %d bytes on disk, %d bytes of uncompressed record data: read %.1f MB/s%n",
                    logsDir, real.size(), compressed, bytes, mbs);
        }
        byte[] log = syntheticLog(files, segments, new SplittableRandom(files * 31L + segments), Compression.ZLIB);
        byte[] plain = syntheticLog(files, segments, new SplittableRandom(files * 31L + segments), Compression.NONE);
        DarshanReader reader = new DarshanReader();
        DarshanLog first = reader.read(log);
        long recordBytes = first.uncompressedRecordBytes();
        out.printf("synthetic log: %d bytes compressed, %d bytes of uncompressed record data (%d POSIX + %d MPI-IO records, %d DXT segments)%n",
                log.length, recordBytes, files, files, segments);
        double readMBs = measure(() -> reader.read(log), recordBytes);
        double inflateMBs = measure(() -> inflateAll(log), recordBytes);
        double decodeMBs = measure(() -> reader.read(plain), recordBytes);
        out.printf("read (inflate + decode records): %.1f MB/s%n", readMBs);
        out.printf("inflate only, same regions:      %.1f MB/s%n", inflateMBs);
        out.printf("decode only (same log uncompressed): %.1f MB/s%n", decodeMBs);
        out.printf("read / inflate-only: %.2f%n", readMBs / inflateMBs);
        System.gc();
        Runtime rt = Runtime.getRuntime();
        long before = rt.totalMemory() - rt.freeMemory();
        DarshanLog held = reader.read(log);
        System.gc();
        long after = rt.totalMemory() - rt.freeMemory();
        out.printf("heap retained by the parsed log: %.1f MB (%.2f x the uncompressed record data)%n",
                (after - before) / 1e6, (after - before) / (double) recordBytes);
        out.printf("target >= 200 MB/s: %s%n", readMBs >= 200 ? "met" : "NOT met");
        if (held.modules().isEmpty()) throw new IllegalStateException("log read empty");
        out.flush();
        return 0;
    }

    interface Work { Object run() throws Exception; }

    private double measure(Work w, long bytes) throws Exception {
        for (int i = 0; i < 3; i++) w.run();
        long n = 0, t0 = System.nanoTime(), end = t0 + (long) (seconds * 1e9);
        while (System.nanoTime() < end) { w.run(); n++; }
        double s = (System.nanoTime() - t0) / 1e9;
        return n * bytes / 1e6 / s;
    }

    private static long inflateAll(byte[] log) throws Exception {
        java.nio.ByteBuffer h = java.nio.ByteBuffer.wrap(log).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        byte[] buf = new byte[1 << 20];
        long total = 0;
        for (int m = 0; m < 64; m++) {
            long off = h.getLong(48 + 16 * m), len = h.getLong(56 + 16 * m);
            if (len == 0) continue;
            Inflater inf = new Inflater();
            inf.setInput(log, (int) off, (int) len);
            while (!inf.finished()) total += inf.inflate(buf);
            inf.end();
        }
        return total;
    }

    static byte[] syntheticLog(int files, int segments, SplittableRandom rnd, Compression compression) {
        Map<Long, String> names = new LinkedHashMap<>();
        List<CounterRecord> posix = new ArrayList<>(), mpiio = new ArrayList<>();
        for (int i = 0; i < files; i++) {
            long id = rnd.nextLong();
            names.put(id, "/scratch/job/out/file-" + i + ".h5");
            posix.add(new CounterRecord(id, i % 64, 0, counters(PosixCounter.values().length, rnd),
                    fcounters(PosixFCounter.values().length, rnd)));
            mpiio.add(new CounterRecord(id, i % 64, 0, counters(MpiioCounter.values().length, rnd),
                    fcounters(MpiioFCounter.values().length, rnd)));
        }
        List<DxtRecord> dxt = new ArrayList<>();
        int perRecord = 10_000;
        List<Long> ids = new ArrayList<>(names.keySet());
        for (int done = 0, r = 0; done < segments; r++) {
            int n = Math.min(perRecord, segments - done);
            long[] off = new long[n], len = new long[n];
            double[] st = new double[n], en = new double[n];
            for (int i = 0; i < n; i++) {
                off[i] = (long) i * 65536; len[i] = 65536; st[i] = i * 1e-4; en[i] = st[i] + 5e-5 * rnd.nextDouble();
            }
            dxt.add(new DxtRecord(ids.isEmpty() ? r : ids.get(r % ids.size()), r % 64, "nid" + r, n / 2, n - n / 2, off, len, st, en, new long[n]));
            done += n;
        }
        DarshanJob job = new DarshanJob(1000, 1_700_000_000L, 0, 1_700_000_600L, 0, 64, 42, "lib_ver=pdla\n", "bench",
                List.of(new Mount("/scratch", "lustre")));
        return DarshanWriter.write(new DarshanWriter.Content(job, names, posix, mpiio, dxt, List.of()), compression);
    }

    private static long[] counters(int n, SplittableRandom rnd) {
        long[] c = new long[n];
        for (int i = 0; i < n; i++) c[i] = rnd.nextInt(4) == 0 ? rnd.nextLong(1L << 30) : rnd.nextInt(100);
        return c;
    }

    private static double[] fcounters(int n, SplittableRandom rnd) {
        double[] f = new double[n];
        for (int i = 0; i < n; i++) f[i] = rnd.nextDouble() * 100;
        return f;
    }
}
