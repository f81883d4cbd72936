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

    private final long intervalNanos;
    private volatile long nextNanos;
    private volatile long backOffNanos;
    private volatile int failures;

    ReplicaWatch(long intervalMillis, long nowNanos) {
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
