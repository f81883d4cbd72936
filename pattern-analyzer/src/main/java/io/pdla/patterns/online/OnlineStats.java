package io.pdla.patterns.online;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What online PDLA did and cost on this rank: {@link #global()} is per rank ({@link io.pdla.intercept.PerRank}) under
 * the multicore device, whether the ranks share this class or each load their own, and per JVM otherwise. CPU is the wall time the rank's own thread spent in
 * the matcher and at pass ends; the background store's time is counted apart, since it overlaps the job.
 */
public final class OnlineStats {
    private static final io.pdla.intercept.PerRank<OnlineStats> GLOBAL = io.pdla.intercept.PerRank.of(OnlineStats::new);

    /** Extents fed to the matcher, and the nanoseconds the rank's thread spent matching them and ending passes. */
    public final AtomicLong requestsMatched = new AtomicLong();
    public final AtomicLong matchNanos = new AtomicLong();
    /** Of {@link #matchNanos}, the pass ends and hand-offs (the matcher's result, the repeat check, the record queued). */
    public final AtomicLong endNanos = new AtomicLong();
    /** Passes (opens, or sweeps within an open that start over) whose matching ended (at the close, at the next sweep's start, or at an early hand-off), passes given up (over the window, or writing), files handed on to the pattern database. */
    public final AtomicLong passes = new AtomicLong();
    public final AtomicLong passesGivenUp = new AtomicLong();
    public final AtomicLong filesHandedOn = new AtomicLong();
    /** Hand-offs written to the pattern database's spool, failed, or dropped (hand-off queue full). */
    public final AtomicLong stored = new AtomicLong();
    public final AtomicLong storeFailures = new AtomicLong();
    public final AtomicLong dropped = new AtomicLong();
    /** Wall time of the background hand-offs (a pass record encoded and written to the spool). */
    public final AtomicLong storeNanos = new AtomicLong();

    public static OnlineStats global() {
        return GLOBAL.get();
    }

    @Override
    public String toString() {
        return requestsMatched + " requests matched in " + String.format(java.util.Locale.ROOT, "%.3f", matchNanos.get() / 1e6) + " ms ("
                + String.format(java.util.Locale.ROOT, "%.3f", endNanos.get() / 1e6) + " ms of it ending passes), "
                + passes + " passes (" + passesGivenUp + " given up), " + filesHandedOn + " files handed on, " + stored + " stored, "
                + storeFailures + " store failures, " + dropped + " dropped; in the background: stores "
                + String.format(java.util.Locale.ROOT, "%.1f", storeNanos.get() / 1e6) + " ms";
    }
}
