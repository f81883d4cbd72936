package io.pdla.pattern;

import java.util.Objects;

/**
 * A pattern chosen for a replica: whose it is ({@link PatternKey}), which bytes in which order ({@link Geometry}),
 * and how many requests the application issued for them (what the cost model needs besides the bytes; at least
 * one). The replicator's queue and catalog, the redirect layer and the benchmarks pass patterns as this.
 */
public record KeyedPattern(PatternKey key, Geometry geometry, long requests) {
    public KeyedPattern {
        Objects.requireNonNull(key, "pattern key");
        Objects.requireNonNull(geometry, "pattern geometry of " + key);
        if (requests < 1) throw new IllegalArgumentException("pattern " + key + ": requests must be >= 1, was " + requests);
    }

    /** The requests of the closed form itself: one per segment instance. */
    public static KeyedPattern of(PatternKey key, Geometry geometry) {
        return new KeyedPattern(key, geometry, geometry.extentCount());
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
        return geometry.describe() + ", " + requests + " requests";
    }

    @Override
    public String toString() {
        return key.id() + " " + describe();
    }
}
