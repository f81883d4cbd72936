package io.pdla.bench.ior;

import java.util.List;

/** Statistics over the raw points of one backend and operation, computed from the stored points (IOR's summary). */
public record Summary(String backend, String operation, int iterations, double maxMiBps, double minMiBps,
                      double meanMiBps, double stddevMiBps, double maxMBps, double meanOpsPerSec,
                      long opsPerIteration, long bytesPerIteration, double meanSeconds,
                      double meanOpenSeconds, double meanCloseSeconds, double meanTransferMiBps) {

    public static Summary of(String backend, String operation, List<IterationPoint> points) {
        if (points.isEmpty()) throw new IllegalArgumentException("no points for " + backend + " " + operation);
        double max = Double.NEGATIVE_INFINITY, min = Double.POSITIVE_INFINITY, sum = 0, secs = 0, opsRate = 0;
        double open = 0, close = 0, xferRate = 0;
        for (IterationPoint p : points) {
            max = Math.max(max, p.mibPerSec());
            min = Math.min(min, p.mibPerSec());
            sum += p.mibPerSec();
            secs += p.seconds();
            opsRate += p.seconds() > 0 ? p.ops() / p.seconds() : 0;
            open += p.openSeconds();
            close += p.closeSeconds();
            // bytes over the slowest rank's transfer time: the bandwidth with open and close left out
            xferRate += p.transferSeconds() > 0 ? p.bytes() / p.transferSeconds() / (1 << 20) : 0;
        }
        int n = points.size();
        double mean = sum / n;
        double var = 0;
        for (IterationPoint p : points) var += (p.mibPerSec() - mean) * (p.mibPerSec() - mean);
        double stddev = n > 1 ? Math.sqrt(var / (n - 1)) : 0;
        IterationPoint first = points.get(0);
        return new Summary(backend, operation, n, max, min, mean, stddev, max * (1 << 20) / 1e6, opsRate / n,
                first.ops(), first.bytes(), secs / n, open / n, close / n, xferRate / n);
    }
}
