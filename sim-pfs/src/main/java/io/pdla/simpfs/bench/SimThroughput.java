package io.pdla.simpfs.bench;

import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.ServerClass;
import io.pdla.simpfs.timing.SimResult;
import io.pdla.simpfs.timing.TimingEngine;
import io.pdla.simpfs.workload.IorWorkload;

import java.util.Arrays;
import java.util.Locale;

/**
 * How many sub-requests the timing engine simulates per second of wall time on one thread: the papers'
 * largest case, IOR with 512 ranks and 256 KiB transfers on 8 HServers with 64 KiB stripes (4 sub-requests
 * per request). Usage: {@code SimThroughput [repetitions] [locks|nolocks]}; as many untimed warm-up runs as
 * timed ones come first, so that the figure is the JIT-compiled engine's.
 */
public final class SimThroughput {
    private SimThroughput() {
    }

    public static IorWorkload workload(boolean write) {
        return new IorWorkload(512, 32L << 20, 256 << 10, 1, false, write, false, 1, Layout.oneDH(ServerClass.HDD, 64 << 10));
    }

    public static SimPfsConfig config(boolean locks) {
        return SimPfsConfig.builder().extentLocks(locks).build();
    }

    public static void main(String[] args) {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        boolean locks = args.length > 1 && args[1].equals("locks");
        double[] rates = new double[reps];
        long subs = 0;
        for (int i = 0; i < reps; i++) new TimingEngine(config(locks)).run(workload(i % 2 == 0));
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            SimResult r = new TimingEngine(config(locks)).run(workload(i % 2 == 0));
            double seconds = (System.nanoTime() - t0) / 1e9;
            subs = r.subRequests();
            rates[i] = subs / seconds;
            System.out.printf(Locale.ROOT, "run %d: %d sub-requests in %.3f s wall = %.0f sub-requests/s (virtual %.2f s)%n",
                    i, subs, seconds, rates[i], r.elapsedSeconds());
        }
        double[] sorted = rates.clone();
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "median %.0f sub-requests/s over %d runs of %d sub-requests (extent locks %s)%n",
                sorted[reps / 2], reps, subs, locks ? "on" : "off");
    }
}
