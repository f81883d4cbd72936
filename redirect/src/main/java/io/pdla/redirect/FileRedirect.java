package io.pdla.redirect;

import io.pdla.replicator.catalog.CatalogAccess;
import io.pdla.replicator.catalog.ReplicaEntry;
import io.pdla.replicator.pattern.PatternKey;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Redirect state of one open file of one rank: the replicas it reads from, the valid replica entries of the
 * file (any application or rank) that its writes must invalidate first, and its write session.
 */
final class FileRedirect implements AutoCloseable {
    final CatalogAccess catalog;
    /** Replicas serving this rank's reads: local pattern first, then the global one. */
    volatile List<OpenReplica> replicas;
    /** Every valid entry of the original, by key: what a write must check (refreshed when the session begins). */
    final Map<PatternKey, ReplicaEntry> validEntries = new ConcurrentHashMap<>();
    /** Write session id once the first write registered it. */
    String session;
    /** The catalog failed during a write: replicas of this file are no longer trusted by this rank. */
    boolean catalogFailed;

    FileRedirect(CatalogAccess catalog, List<OpenReplica> replicas, List<ReplicaEntry> valid) {
        this.catalog = catalog;
        this.replicas = List.copyOf(replicas);
        for (ReplicaEntry e : valid) validEntries.put(e.key(), e);
    }

    /** Stops serving from the given replicas (closing them). */
    synchronized void drop(java.util.Collection<PatternKey> keys) {
        List<OpenReplica> keep = new ArrayList<>();
        for (OpenReplica r : replicas) {
            if (keys.contains(r.entry.key())) closeQuietly(r);
            else keep.add(r);
        }
        replicas = List.copyOf(keep);
    }

    synchronized void dropAll() {
        for (OpenReplica r : replicas) closeQuietly(r);
        replicas = List.of();
    }

    private static void closeQuietly(OpenReplica r) {
        try {
            r.close();
        } catch (IOException ignored) {
            // a replica we stop reading from; nothing depends on its close
        }
    }

    @Override
    public void close() {
        dropAll();
    }
}
