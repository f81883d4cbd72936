package io.pdla.bench.schemes;

import io.pdla.size.ByteSize;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The scheme table (read and write bandwidth in sim-pfs virtual time) for the default matrix of workloads.
 * Entry point: {@link #run(Options, PrintStream)}; the command line is {@code pdla bench matrix} (see
 * {@code bench/RESULTS-schemes.md}).
 */
public final class SchemeMatrix {
    private SchemeMatrix() {
    }

    /**
     * What to run. {@code perProc}: bytes each process accesses per request size (per part for mixed sizes and
     * LANL App2); {@code strideFactor}: the IOR fixed-stride workloads' stride in request sizes (the paper's 2);
     * {@code only}: run the workloads whose name this finds, all when null. Messages name the command-line options.
     */
    public record Options(boolean quick, long perProc, double strideFactor, Pattern only) {
        public static final long DEFAULT_PER_PROC = 16L << 20;
        public static final double DEFAULT_STRIDE_FACTOR = 2;

        public Options {
            if (perProc < 1) throw new IllegalArgumentException("--per-rank must be at least 1 byte, was " + perProc);
            // below 1 a rank's requests would overlap each other; NaN and infinity are no stride either
            if (!(strideFactor >= 1) || Double.isInfinite(strideFactor)) {
                throw new IllegalArgumentException("--stride-factor must be a finite number >= 1 (stride >= request size), was " + strideFactor);
            }
        }

        public static Options defaults() {
            return new Options(false, DEFAULT_PER_PROC, DEFAULT_STRIDE_FACTOR, null);
        }

        /** The IOR stride for {@code size}-byte requests. */
        long stride(long size) {
            return Math.max(size, Math.round(strideFactor * size));
        }
    }

    /**
     * The default matrix. {@code perProc} = bytes each process accesses per request size (modest by default: the
     * paper's 512 MiB per process is {@code --per-rank 512m}); IOR stride twice the request size.
     */
    public static List<SchemeComparison.WorkloadSpec> defaultMatrix(boolean quick, long perProc) {
        return defaultMatrix(new Options(quick, perProc, Options.DEFAULT_STRIDE_FACTOR, null));
    }

    /** The default matrix of {@code o} ({@code quick}, {@code perProc}, {@code strideFactor}; {@code only} not applied). */
    public static List<SchemeComparison.WorkloadSpec> defaultMatrix(Options o) {
        long k = 1 << 10, m = 1 << 20, perProc = o.perProc();
        List<SchemeComparison.WorkloadSpec> w = new ArrayList<>();
        for (int p : o.quick() ? new int[]{8} : new int[]{8, 32, 128, 512}) {
            w.add(SchemeWorkloads.iorFixedStride(p, 256 * k, o.stride(256 * k), count(perProc, 256 * k)));
        }
        if (o.quick()) return w;
        for (long s : new long[]{16 * k, 256 * k, 4 * m}) w.add(SchemeWorkloads.iorFixedStride(64, s, o.stride(s), count(perProc, s)));
        for (long s : new long[]{4 * k, 64 * k, m}) w.add(SchemeWorkloads.pioNestedStrided(64, s, 4, Math.max(1, count(perProc, s) / 4)));
        for (long s : new long[]{4 * k, 64 * k, m}) w.add(SchemeWorkloads.tileIo(8, 8, s, count(perProc, s)));
        for (int p : new int[]{128, 256, 512}) w.add(SchemeWorkloads.mixedSizes(p, perProc, 16 * k, 256 * k, 4 * m));
        for (int p : new int[]{64, 128}) w.add(SchemeWorkloads.lanlApp2(p, perProc));
        return w;
    }

    /** The workloads {@code o} selects: the default matrix, filtered by {@code only}; none selected is an error. */
    public static List<SchemeComparison.WorkloadSpec> selected(Options o) {
        List<SchemeComparison.WorkloadSpec> all = defaultMatrix(o);
        if (o.only() == null) return all;
        List<SchemeComparison.WorkloadSpec> chosen = all.stream().filter(w -> o.only().matcher(w.name()).find()).toList();
        if (chosen.isEmpty()) {
            StringBuilder names = new StringBuilder();
            for (SchemeComparison.WorkloadSpec w : all) names.append("\n  ").append(w.name());
            throw new IllegalArgumentException("--only '" + o.only().pattern() + "' matches no workload" + (o.quick() ? " of --quick" : "")
                    + "; the workloads are:" + names);
        }
        return chosen;
    }

    /** Compares every scheme on the selected workloads, printing each table as it is done and the summary; returns the tables. */
    public static List<SchemeComparison.Table> run(Options o, PrintStream out) {
        List<SchemeComparison.WorkloadSpec> workloads = selected(o);
        long t0 = System.nanoTime();
        SchemeComparison cmp = new SchemeComparison(SchemeComparison.Settings.defaults());
        out.println("cost-model parameters (calibrated against sim-pfs): " + cmp.settings().params().describe());
        out.println("bytes per process per request size: " + ByteSize.formatIorStyle(o.perProc()));
        out.println("IOR stride: " + String.format(Locale.ROOT, "%.4g", o.strideFactor()) + " x request size");
        out.println("SSD space per SServer for S-PDLA: " + ByteSize.formatIorStyle(cmp.settings().ssdBytesPerServer()) + "\n");
        List<SchemeComparison.Table> tables = new ArrayList<>();
        for (SchemeComparison.WorkloadSpec w : workloads) {
            long t = System.nanoTime();
            SchemeComparison.Table table = cmp.compare(w);
            tables.add(table);
            out.println(table.markdown());
            out.printf(Locale.ROOT, "(%.1f s)%n%n", (System.nanoTime() - t) / 1e9);
        }
        out.println(summary(tables));
        out.printf(Locale.ROOT, "total %.1f s%n", (System.nanoTime() - t0) / 1e9);
        out.flush();
        return tables;
    }

    /**
     * The deterministic part of a run's output: every table and the summary, without the wall-clock times. The
     * matrix runs in sim-pfs virtual time, so the same options give the same text on any machine; the pinned block
     * of {@code bench/RESULTS-schemes.md} is this text, and a test re-runs it.
     */
    public static String report(List<SchemeComparison.Table> tables) {
        StringBuilder b = new StringBuilder();
        for (SchemeComparison.Table t : tables) b.append(t.markdown()).append('\n');
        return b.append(summary(tables)).toString();
    }

    /** The published comparisons per workload: PD over Original, H-PDLA over PD, S-PDLA over H-PDLA (read / write). */
    public static String summary(List<SchemeComparison.Table> tables) {
        StringBuilder b = new StringBuilder("| workload | PD vs Original (read / write) | H-PDLA vs PD | S-PDLA vs H-PDLA |\n|---|---|---|---|\n");
        for (SchemeComparison.Table t : tables) {
            b.append("| ").append(t.workload()).append(" | ").append(gain(t, Scheme.PD, Scheme.ORIGINAL)).append(" | ")
                    .append(gain(t, Scheme.H_PDLA, Scheme.PD)).append(" | ").append(gain(t, Scheme.S_PDLA, Scheme.H_PDLA)).append(" |\n");
        }
        return b.toString();
    }

    private static String gain(SchemeComparison.Table t, Scheme a, Scheme over) {
        SchemeComparison.Row x = t.row(a), y = t.row(over);
        return String.format(Locale.ROOT, "%+.0f%% / %+.0f%%", 100 * (x.readMiBps() / y.readMiBps() - 1), 100 * (x.writeMiBps() / y.writeMiBps() - 1));
    }

    /** Requests of {@code size} that make up {@code bytes}, at least 4 (the analyzer needs 3 to see a pattern). */
    static long count(long bytes, long size) {
        return Math.max(4, bytes / size);
    }
}
