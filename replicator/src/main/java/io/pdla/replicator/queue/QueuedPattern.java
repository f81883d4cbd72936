package io.pdla.replicator.queue;

import io.pdla.pattern.KeyedPattern;

/**
 * A pattern waiting for its replica. {@code pattern} is null when the queued record could not be decoded;
 * {@code problem} then says why (the daemon logs it and drops the item).
 */
public record QueuedPattern(long ticket, KeyedPattern pattern, String problem) {
    public boolean global() {
        return pattern != null && pattern.key().global();
    }
}
