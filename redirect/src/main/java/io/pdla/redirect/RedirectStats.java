package io.pdla.redirect;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of what the redirect layer did. Each interceptor has its own; {@link #global()} sums all
 * interceptors of this rank ({@link io.pdla.intercept.PerRank}: one MPJ rank under the multicore device, whether the
 * ranks share this class or not; one JVM otherwise).
 */
public final class RedirectStats {
    private static final io.pdla.intercept.PerRank<RedirectStats> GLOBAL = io.pdla.intercept.PerRank.of(() -> new RedirectStats(null));

    /** Read calls served entirely by replicas, partly, and not at all. */
    public final AtomicLong readsFromReplica = new AtomicLong();
    public final AtomicLong readsMixed = new AtomicLong();
    public final AtomicLong readsFromOriginal = new AtomicLong();
    public final AtomicLong bytesFromReplica = new AtomicLong();
    public final AtomicLong bytesFromOriginal = new AtomicLong();
    /** Replica reads answered from the read-ahead buffer, and buffer refills. */
    public final AtomicLong readAheadHits = new AtomicLong();
    public final AtomicLong readAheadFills = new AtomicLong();
    public final AtomicLong replicasOpened = new AtomicLong();
    /** Opens of files no replica was ever built for: nothing looked up (see {@code ReplicatedOriginals}). */
    public final AtomicLong opensWithoutReplicas = new AtomicLong();
    /**
     * Catalog lookups this process made at opens: one per collective open, on rank 0 of its communicator, whether read
     * from the catalog or reused ({@link #catalogLookupsReused}).
     */
    public final AtomicLong catalogLookups = new AtomicLong();
    /** Of {@link #catalogLookups}, those answered by the previous look-up of the file, the catalog's stamp and the original unchanged. */
    public final AtomicLong catalogLookupsReused = new AtomicLong();
    /**
     * Look-ups by online opens that no replica served at their open, for a replica published since ({@link ReplicaWatch}),
     * and the opens that found one and were served from it for the rest of the open.
     */
    public final AtomicLong watchLookups = new AtomicLong();
    public final AtomicLong switchesWithinOpen = new AtomicLong();
    /** Bytes of writes that went into DIRTY replicas instead of the original. */
    public final AtomicLong bytesWrittenToReplica = new AtomicLong();
    /** Replicas made stale by writes through the shim. */
    public final AtomicLong replicasInvalidated = new AtomicLong();
    /** Catalog or replica failures that made a file fall back to its original. */
    public final AtomicLong fallbacks = new AtomicLong();
    /** Catalog entries whose replica file was refused: outside the replica folder, a symbolic link, another owner, wider permissions. */
    public final AtomicLong replicasRefused = new AtomicLong();

    private final RedirectStats parent;

    RedirectStats(RedirectStats parent) {
        this.parent = parent;
    }

    public static RedirectStats global() {
        return GLOBAL.get();
    }

    static RedirectStats newChild() {
        return new RedirectStats(GLOBAL.get());
    }

    /**
     * {@link #opensWithoutReplicas} + 1, without a lambda: it is counted in every open of a job before its replicas
     * exist, and under the multicore device each rank's copy of a lambda is made (spun) at its first use, on the rank's
     * thread in its first open, 0.2-1 ms each on a busy machine.
     */
    void countOpenWithoutReplicas() {
        opensWithoutReplicas.incrementAndGet();
        if (parent != null) parent.opensWithoutReplicas.incrementAndGet();
    }

    void add(java.util.function.Function<RedirectStats, AtomicLong> counter, long n) {
        counter.apply(this).addAndGet(n);
        if (parent != null) counter.apply(parent).addAndGet(n);
    }

    @Override
    public String toString() {
        return "reads: " + readsFromReplica + " from replicas, " + readsMixed + " mixed, " + readsFromOriginal
                + " from originals; bytes: " + bytesFromReplica + " from replicas, " + bytesFromOriginal
                + " from originals; " + bytesWrittenToReplica + " bytes written into replicas; read-ahead: " + readAheadHits + " hits, " + readAheadFills + " fills; "
                + replicasOpened + " replicas opened, " + replicasInvalidated + " invalidated, " + fallbacks + " fallbacks, " + replicasRefused + " refused"
                + "; catalog look-ups: " + catalogLookups + " (" + catalogLookupsReused + " reused)"
                + "; within opens: " + watchLookups + " look-ups, " + switchesWithinOpen + " switched to a replica";
    }
}
