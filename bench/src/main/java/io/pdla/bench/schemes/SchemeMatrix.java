package io.pdla.bench.schemes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Prints the scheme table (read and write bandwidth in sim-pfs virtual time) for a small default matrix.
 * {@code --quick}: the IOR 8-process point only; {@code --per-proc 64m}: bytes per process per request size.
 * Run (see {@code bench/RESULTS-schemes.md}): {@code java -cp bench/target/classes:$(cat cp.txt) io.pdla.bench.schemes.SchemeMatrix}.
 */
public final class SchemeMatrix {
    private SchemeMatrix() {
    }

    /**
     * The default matrix. {@code perProc} = bytes each process accesses per request size (modest by default: the
     * paper's 512 MiB per process is {@code --per-proc 512m}).
     */
    public static List<SchemeComparison.WorkloadSpec> defaultMatrix(boolean quick, long perProc) {
        long k = 1 << 10, m = 1 << 20;
        List<SchemeComparison.WorkloadSpec> w = new ArrayList<>();
        for (int p : quick ? new int[]{8} : new int[]{8, 32, 128, 512}) {
            w.add(SchemeWorkloads.iorFixedStride(p, 256 * k, 512 * k, count(perProc, 256 * k)));
        }
        if (quick) return w;
        for (long s : new long[]{16 * k, 256 * k, 4 * m}) w.add(SchemeWorkloads.iorFixedStride(64, s, 2 * s, count(perProc, s)));
        for (long s : new long[]{4 * k, 64 * k, m}) w.add(SchemeWorkloads.pioNestedStrided(64, s, 4, Math.max(1, count(perProc, s) / 4)));
        for (long s : new long[]{4 * k, 64 * k, m}) w.add(SchemeWorkloads.tileIo(8, 8, s, count(perProc, s)));
        for (int p : new int[]{128, 256, 512}) w.add(SchemeWorkloads.mixedSizes(p, perProc, 16 * k, 256 * k, 4 * m));
        return w;
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

    public static void main(String[] args) {
        List<String> a = Arrays.asList(args);
        boolean quick = a.contains("--quick");
        long perProc = 16L << 20;
        int i = a.indexOf("--per-proc");
        if (i >= 0) {
            if (i + 1 >= a.size()) throw new IllegalArgumentException("--per-proc needs a size, e.g. 64m");
            perProc = io.pdla.simpfs.layout.Sizes.parse(a.get(i + 1), "--per-proc");
        }
        long t0 = System.nanoTime();
        SchemeComparison cmp = new SchemeComparison(SchemeComparison.Settings.defaults());
        System.out.println("cost-model parameters (calibrated against sim-pfs): " + cmp.settings().params().describe());
        System.out.println("bytes per process per request size: " + SchemeComparison.size(perProc));
        System.out.println("SSD space per SServer for S-PDLA: " + SchemeComparison.size(cmp.settings().ssdBytesPerServer()) + "\n");
        List<SchemeComparison.Table> tables = new ArrayList<>();
        for (SchemeComparison.WorkloadSpec w : defaultMatrix(quick, perProc)) {
            long t = System.nanoTime();
            SchemeComparison.Table table = cmp.compare(w);
            tables.add(table);
            System.out.println(table.markdown());
            System.out.printf(Locale.ROOT, "(%.1f s)%n%n", (System.nanoTime() - t) / 1e9);
        }
        System.out.println(summary(tables));
        System.out.printf(Locale.ROOT, "total %.1f s%n", (System.nanoTime() - t0) / 1e9);
    }
}
