package io.pdla.pattern;

/**
 * A piece of a request after mapping through a pattern's {@link Geometry}: {@code length} bytes at {@code offset} of the
 * original, found at {@code replicaOffset} of the replica, or {@code replicaOffset == -1} when the bytes lie
 * outside the pattern (served from the original).
 */
public record Segment(long offset, long length, long replicaOffset) {
    public boolean inPattern() {
        return replicaOffset >= 0;
    }
}
