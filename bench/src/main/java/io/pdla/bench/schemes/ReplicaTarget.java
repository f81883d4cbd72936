package io.pdla.bench.schemes;

import io.pdla.pattern.Geometry;

/**
 * One pattern's replica inside a replica file: byte {@code o} of the original file that the pattern touches is
 * at {@code base + geometry.positionOf(o)} of file {@code fileIndex} of the workload.
 */
public record ReplicaTarget(int originalFileId, Geometry geometry, int fileIndex, long base, String label) {
    public ReplicaTarget {
        if (base < 0) throw new IllegalArgumentException("replica base must be >= 0, was " + base + " (" + label + ")");
    }
}
