package io.pdla.simpfs.timing;

import io.pdla.access.ExtentList;

import java.util.Arrays;

/**
 * One client request as the engine consumes it: a mutable holder that a {@link RequestStream} fills, so that
 * replaying millions of requests allocates nothing per request. A BARRIER carries no extents and makes the
 * rank wait for every other unfinished rank (MPI_Barrier, or the synchronisation at a collective call).
 */
public final class Request {
    public enum Kind { READ, WRITE, BARRIER }

    private Kind kind = Kind.READ;
    private int file;
    private int count;
    private long[] offsets = new long[4];
    private long[] lengths = new long[4];

    public Request set(Kind kind, int file) {
        this.kind = kind;
        this.file = file;
        this.count = 0;
        return this;
    }

    public Request barrier() {
        return set(Kind.BARRIER, 0);
    }

    public Request add(long offset, long length) {
        if (offset < 0 || length < 0) throw new IllegalArgumentException("extent [" + offset + "+" + length + ") is negative");
        if (length == 0) return this;
        if (count == offsets.length) {
            offsets = Arrays.copyOf(offsets, count * 2);
            lengths = Arrays.copyOf(lengths, count * 2);
        }
        offsets[count] = offset;
        lengths[count] = length;
        count++;
        return this;
    }

    public Request addAll(ExtentList extents) {
        for (int i = 0; i < extents.size(); i++) add(extents.offset(i), extents.length(i));
        return this;
    }

    public Kind kind() {
        return kind;
    }

    public int file() {
        return file;
    }

    public int extents() {
        return count;
    }

    public long offset(int i) {
        return offsets[i];
    }

    public long length(int i) {
        return lengths[i];
    }

    public long totalBytes() {
        long t = 0;
        for (int i = 0; i < count; i++) t += lengths[i];
        return t;
    }
}
