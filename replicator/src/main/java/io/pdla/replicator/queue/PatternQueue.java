package io.pdla.replicator.queue;

import io.pdla.pattern.KeyedPattern;

import java.io.IOException;
import java.util.List;

/**
 * The replication queue the analyzer fills and the daemon drains. Items are handed out global patterns
 * first, then local ones; an item leaves the queue only when {@link #acknowledge} commits, so a daemon
 * that dies mid-build finds it again.
 */
public interface PatternQueue {
    /** Adds a pattern; returns its ticket. */
    long offer(KeyedPattern pattern) throws IOException;

    /** Every waiting item in processing order: globals by arrival, then locals by arrival. */
    List<QueuedPattern> pending() throws IOException;

    /** Removes the item in one durable transaction; false if it was already gone. */
    boolean acknowledge(QueuedPattern item) throws IOException;
}
