package io.pdla.access;

/**
 * One contiguous byte range of a file: {@code [offset, offset + length)}. End offsets in pdla are always
 * exclusive.
 */
public record Extent(long offset, long length) {
    public Extent {
        if (offset < 0) throw new IllegalArgumentException("extent offset must be >= 0, was " + offset);
        if (length < 0) throw new IllegalArgumentException("extent length must be >= 0, was " + length);
    }

    public long end() {
        return offset + length;
    }

    @Override
    public String toString() {
        return "[" + offset + "+" + length + ")";
    }
}
