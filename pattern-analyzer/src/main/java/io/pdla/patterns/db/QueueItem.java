package io.pdla.patterns.db;

/** A pattern entry waiting for the replicator: its queue sequence number and the key to read it by. */
public record QueueItem(long sequence, PatternKey key) {
}
