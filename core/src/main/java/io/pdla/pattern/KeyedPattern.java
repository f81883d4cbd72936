package io.pdla.pattern;

import java.util.Objects;

/**
 * A pattern chosen for a replica: whose it is ({@link PatternKey}), which bytes in which order ({@link Geometry}),
 * how many requests the application issued for them (what the cost model needs besides the bytes) and
 * {@code processRun}, the bytes of one process's data that lie consecutively in the replica (the whole pattern for
 * a local one; for a global one a rank's share when ranks own regions, one request when they interleave request by
 * request): the region a 1-DV layout gives each process. The replicator's queue and catalog, the redirect layer
 * and the benchmarks pass patterns as this.
 */
public record KeyedPattern(PatternKey key, Geometry geometry, long requests, long processRun) {
    public KeyedPattern {
        Objects.requireNonNull(key, "pattern key");
        Objects.requireNonNull(geometry, "pattern geometry of " + key);
        if (requests < 1) throw new IllegalArgumentException("pattern " + key + ": requests must be >= 1, was " + requests);
        if (processRun < 1 || processRun > geometry.totalBytes()) {
            throw new IllegalArgumentException("pattern " + key + ": processRun must be 1.." + geometry.totalBytes() + ", was " + processRun);
        }
    }

    /**
     * The closed form's own request count (one per segment instance) and, for a global pattern, ranks assumed to
     * own equal consecutive shares of the replica.
     */
    public static KeyedPattern of(PatternKey key, Geometry geometry) {
        long run = key.global() ? Math.max(1, geometry.totalBytes() / key.processes()) : geometry.totalBytes();
        return new KeyedPattern(key, geometry, geometry.extentCount(), run);
    }

    /** Bytes the pattern touches: the size of its replica. */
    public long totalBytes() {
        return geometry.totalBytes();
    }

    /** Mean request size (bytes per request, at least 1). */
    public long meanRequestSize() {
        return Math.max(1, geometry.totalBytes() / requests);
    }

    /** One line for logs and {@code pdla replicas show}. */
    public String describe() {
        return geometry.describe() + ", " + requests + " requests, " + processRun + " bytes per process run";
    }

    @Override
    public String toString() {
        return key.id() + " " + describe();
    }
}
