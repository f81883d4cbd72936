package io.pdla.redirect;

import io.pdla.catalog.CatalogAccess;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.pattern.PatternKey;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Redirect state of one open file of one rank: the replicas it reads from, the replica entries of the file (any
 * application or rank) that its writes must claim first, the replicas its writes go into, and its write session.
 */
final class FileRedirect implements AutoCloseable {
    final CatalogAccess catalog;
    /** Replicas serving this rank's reads: authoritative (DIRTY) ones first, then the local pattern's, then the global. */
    volatile List<OpenReplica> replicas;
    /** VALID entries of the original not yet claimed by a write of this rank, by key and region (refreshed when the session begins). */
    final GeometryIndex<PatternKey, ReplicaEntry> unclaimed = new GeometryIndex<>(ReplicaEntry::key, e -> e.pattern().geometry());
    /** DIRTY replicas: this rank's writes into their regions go into them, with no further catalog work. */
    final Map<PatternKey, OpenReplica> writing = new ConcurrentHashMap<>();
    /** Write session id once the first write registered it. */
    String session;
    /** The catalog failed during a write: replicas of this file are no longer trusted by this rank. */
    boolean catalogFailed;
    /**
     * An online job's read-only open that no replica served at its open: every call passes on unchanged, so redirect
     * only watches its reads ({@code IoInterceptor.observesOnly}) until a replica serves it.
     */
    volatile boolean onlyWatches;
    /** While {@link #onlyWatches}: when to look for a replica published since; null once the open stopped looking. */
    volatile ReplicaWatch watch;

    FileRedirect(CatalogAccess catalog, List<OpenReplica> replicas, List<ReplicaEntry> valid) {
        this.catalog = catalog;
        this.replicas = List.copyOf(replicas);
        for (ReplicaEntry e : valid) unclaimed.put(e);
        for (OpenReplica r : replicas) if (r.authoritative) writing.put(r.entry.key(), r);
    }

    OpenReplica open(PatternKey key) {
        for (OpenReplica r : replicas) if (r.entry.key().equals(key)) return r;
        return null;
    }

    /** An open that serves nothing yet and looks for a replica as {@code watch} says. */
    static FileRedirect watching(CatalogAccess catalog, List<ReplicaEntry> valid, ReplicaWatch watch) {
        FileRedirect st = new FileRedirect(catalog, List.of(), valid);
        st.onlyWatches = true;
        st.watch = watch;
        return st;
    }

    /**
     * A watching open's switch: {@code opened} serve its reads from now on. False (and nothing changed) when the open
     * stopped watching meanwhile, or another thread's look switched it first: the caller then closes {@code opened}.
     */
    synchronized boolean switchTo(List<OpenReplica> opened, ReplicaWatch by) {
        if (watch != by || !onlyWatches) return false;
        List<OpenReplica> l = new ArrayList<>(replicas);
        l.addAll(opened);
        replicas = List.copyOf(l);
        stopWatching();
        onlyWatches = false;
        return true;
    }

    /** The open looks for no replica any more. */
    synchronized void stopWatching() {
        ReplicaWatch w = watch;
        watch = null;
        if (w != null) w.end();
    }

    /** Serves reads from {@code r} too, ahead of every non-authoritative replica. */
    synchronized void addAuthoritative(OpenReplica r) {
        stopWatching();
        onlyWatches = false;
        List<OpenReplica> l = new ArrayList<>();
        l.add(r);
        for (OpenReplica o : replicas) if (o != r) l.add(o);
        replicas = List.copyOf(l);
    }

    /** Stops serving from the given replicas (closing them); authoritative ones are kept whatever is asked. */
    synchronized void drop(Collection<PatternKey> keys) {
        List<OpenReplica> keep = new ArrayList<>();
        for (OpenReplica r : replicas) {
            if (keys.contains(r.entry.key()) && !r.authoritative) closeQuietly(r);
            else keep.add(r);
        }
        replicas = List.copyOf(keep);
    }

    /** Stops serving from every replica that is not authoritative. */
    synchronized void dropAllButAuthoritative() {
        List<OpenReplica> keep = new ArrayList<>();
        for (OpenReplica r : replicas) {
            if (r.authoritative) keep.add(r);
            else closeQuietly(r);
        }
        replicas = List.copyOf(keep);
    }

    boolean hasAuthoritative() {
        for (OpenReplica r : replicas) if (r.authoritative) return true;
        return false;
    }

    /** Closes every replica (the file is closing). Authoritative replicas' writes are synced by their close. */
    synchronized void closeAll() throws IOException {
        stopWatching();   // a look still running on another thread then closes what it opened (switchTo)
        IOException first = null;
        for (OpenReplica r : replicas) {
            try {
                r.close();
            } catch (IOException e) {
                if (r.authoritative && first == null) first = e;
            }
        }
        replicas = List.of();
        writing.clear();
        if (first != null) throw first;
    }

    private static void closeQuietly(OpenReplica r) {
        try {
            r.close();
        } catch (IOException ignored) {
            // a replica we stop reading from; nothing depends on its close
        }
    }

    @Override
    public void close() throws IOException {
        closeAll();
    }
}
