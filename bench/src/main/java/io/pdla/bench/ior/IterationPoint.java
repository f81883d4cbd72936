package io.pdla.bench.ior;

/**
 * One phase of one iteration, reduced across ranks as IOR does: {@code seconds} runs from the earliest
 * rank's start to the latest rank's end (open to close), {@code bytes} and {@code ops} are summed. The
 * open, transfer (with fsync) and close parts are the slowest rank's, as IOR's open/wr-rd/close columns.
 */
public record IterationPoint(String backend, String operation, int iteration, long bytes, long ops,
                             double seconds, double mibPerSec, double mbPerSec,
                             double openSeconds, double transferSeconds, double closeSeconds) {
    public static IterationPoint of(String backend, String operation, int iteration, long bytes, long ops, double seconds,
                                    double openSeconds, double transferSeconds, double closeSeconds) {
        double bps = seconds > 0 ? bytes / seconds : Double.POSITIVE_INFINITY;
        return new IterationPoint(backend, operation, iteration, bytes, ops, seconds, bps / (1 << 20), bps / 1e6,
                openSeconds, transferSeconds, closeSeconds);
    }
}
