package io.pdla.patterns.db;

import io.pdla.pattern.PatternKey;

/** A pattern entry waiting for the replicator: its queue sequence number and the key to read it by. */
public record QueueItem(long sequence, PatternKey key) {
}
