package io.pdla.bench.schemes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Prints the scheme table (read and write bandwidth in sim-pfs virtual time) for a small default matrix.
 * {@code --quick}: the IOR 8-process point only. Run:
 * {@code mvn -q -o -pl bench exec:java -Dexec.mainClass=io.pdla.bench.schemes.SchemeMatrix} or with java -cp.
 */
public final class SchemeMatrix {
    private SchemeMatrix() {
    }

    public static List<SchemeComparison.WorkloadSpec> defaultMatrix(boolean quick) {
        long k = 1 << 10, m = 1 << 20;
        List<SchemeComparison.WorkloadSpec> w = new ArrayList<>();
        for (int p : quick ? new int[]{8} : new int[]{8, 32, 128}) w.add(SchemeWorkloads.iorFixedStride(p, 256 * k, 512 * k, 32));
        if (quick) return w;
        for (long s : new long[]{16 * k, 256 * k, 4 * m}) w.add(SchemeWorkloads.iorFixedStride(64, s, 2 * s, 16));
        w.add(SchemeWorkloads.pioNestedStrided(64, 64 * k, 4, 4));
        w.add(SchemeWorkloads.tileIo(8, 8, 64 * k, 16));
        w.add(SchemeWorkloads.mixedSizes(128, 8, 16 * k, 256 * k, 4 * m));
        return w;
    }

    public static void main(String[] args) {
        boolean quick = Arrays.asList(args).contains("--quick");
        long t0 = System.nanoTime();
        SchemeComparison cmp = new SchemeComparison(SchemeComparison.Settings.defaults());
        System.out.println("cost-model parameters (calibrated against sim-pfs): " + cmp.settings().params().describe());
        System.out.println("SSD space per SServer for S-PDLA: " + SchemeComparison.size(cmp.settings().ssdBytesPerServer()) + "\n");
        for (SchemeComparison.WorkloadSpec w : defaultMatrix(quick)) {
            long t = System.nanoTime();
            SchemeComparison.Table table = cmp.compare(w);
            System.out.println(table.markdown());
            System.out.printf(Locale.ROOT, "(%.1f s)%n%n", (System.nanoTime() - t) / 1e9);
        }
        System.out.printf(Locale.ROOT, "total %.1f s%n", (System.nanoTime() - t0) / 1e9);
    }
}
