package io.pdla.redirect;

/**
 * When an online job's read-only open that no replica served at its open next looks for a replica published since
 * (redirect/README.md, "Switching within an open"): one interval after the open, then every interval while its reads go
 * on. A look that failed (the catalog held by the daemon longer than the watch waits, say) doubles the interval, up to
 * {@value #MAX_INTERVAL_NANOS} ns; after {@value #MAX_FAILURES} failures in a row the open stops looking and reads its
 * original to its close, as it would have without the watch.
 *
 * <p>Asked from every read of the open, which the shim's straight path may run on the application's thread while a
 * nonblocking request's completes on another: the fields are volatile and a race costs at most one extra look.
 */
final class ReplicaWatch {
    static final long MAX_INTERVAL_NANOS = 2_000_000_000L;
    static final int MAX_FAILURES = 8;

    private final java.nio.file.Path catalogDir;
    private final java.net.URI original;
    /** Rank 0 of the file: the rank that looks in the catalog for its JVM while it watches ({@code WatchLookups}). */
    final boolean rankZero;
    private final java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();
    private final long intervalNanos;
    private volatile long nextNanos;
    private volatile long backOffNanos;
    private volatile int failures;
    /** Reads since the open, for {@link #dueAtSomeRead}; a lost count between threads only delays a look. */
    private int reads;
    static final int READS_PER_CLOCK = 16;

    ReplicaWatch(long intervalMillis, long nowNanos) {
        this(intervalMillis, nowNanos, null, null, false);
    }

    /** A watch of {@code original} in the catalog {@code catalogDir}; rank 0's says so to the JVM's other ranks until it {@link #end}s. */
    ReplicaWatch(long intervalMillis, long nowNanos, java.nio.file.Path catalogDir, java.net.URI original, boolean rankZero) {
        this.catalogDir = catalogDir;
        this.original = original;
        this.rankZero = rankZero && catalogDir != null;
        if (this.rankZero) io.pdla.catalog.WatchLookups.rankZeroWatches(catalogDir, original, 1);
        this.intervalNanos = Math.max(1, intervalMillis) * 1_000_000L;
        this.backOffNanos = intervalNanos;
        this.nextNanos = nowNanos + intervalNanos;
    }

    /** Whether a look is due at {@code nowNanos} ({@link System#nanoTime}); if so, the next is set one interval on. */
    boolean due(long nowNanos) {
        if (nowNanos - nextNanos < 0) return false;
        nextNanos = nowNanos + backOffNanos;
        return true;
    }

    /**
     * {@link #due} at every {@value #READS_PER_CLOCK}th call, for a caller with no clock reading of its own: the reads of
     * a page-cached 4 KiB job take about a microsecond, and the clock a few percent of that.
     */
    boolean dueAtSomeRead() {
        return (++reads & (READS_PER_CLOCK - 1)) == 0 && due(System.nanoTime());
    }

    /** The open stopped watching (it switched, gave up, or closed): once. */
    void end() {
        if (rankZero && ended.compareAndSet(false, true)) io.pdla.catalog.WatchLookups.rankZeroWatches(catalogDir, original, -1);
    }

    /** A look that found nothing to switch to, or switched. */
    void looked() {
        failures = 0;
        backOffNanos = intervalNanos;
    }

    /** A look that failed; false once the open should stop looking. */
    boolean failed(long nowNanos) {
        int n = failures + 1;
        failures = n;
        backOffNanos = Math.min(MAX_INTERVAL_NANOS, backOffNanos * 2);
        nextNanos = nowNanos + backOffNanos;
        return n < MAX_FAILURES;
    }
}
