package io.pdla.replicator.construct;

import java.io.InterruptedIOException;

/**
 * The daemon's {@code --rate}: a copy that has written {@code n} bytes since it started sleeps until {@code n / rate}
 * seconds have passed, so the replicator never takes more of the store than it was given. One per copy, shared by all
 * the replicas a copy fills at once.
 */
final class RateLimit {
    private final long maxBytesPerSecond;
    private final long startedNanos = System.nanoTime();
    private long copied;

    /** @param maxBytesPerSecond bytes per second, 0 for no limit */
    RateLimit(long maxBytesPerSecond) {
        this.maxBytesPerSecond = maxBytesPerSecond;
    }

    /** Counts {@code bytes} more written; returns once the copy is within its rate again. */
    void copied(long bytes) throws InterruptedIOException {
        copied += bytes;
        if (maxBytesPerSecond <= 0) return;
        long dueNanos = startedNanos + (long) (copied * 1e9 / maxBytesPerSecond);
        long wait = dueNanos - System.nanoTime();
        if (wait > 0) {
            try {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("replica build interrupted");
            }
        }
    }
}
