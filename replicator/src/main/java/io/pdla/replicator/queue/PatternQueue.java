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

    /**
     * Adds several patterns; returns their tickets in order. Stores that can add them in one transaction do (the
     * catalog's: each transaction opens its environment, a tenth of a second or more on a loaded node, and a job's
     * ranks hand in their patterns of a file together).
     */
    default List<Long> offerAll(List<KeyedPattern> patterns) throws IOException {
        List<Long> tickets = new java.util.ArrayList<>(patterns.size());
        for (KeyedPattern p : patterns) tickets.add(offer(p));
        return tickets;
    }

    /** Every waiting item in processing order: globals by arrival, then locals by arrival. */
    List<QueuedPattern> pending() throws IOException;

    /** Removes the item in one durable transaction; false if it was already gone. */
    boolean acknowledge(QueuedPattern item) throws IOException;
}
