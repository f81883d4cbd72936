package io.pdla.access;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The one representation of an access that every pdla module shares: an ordered list of
 * {@code (offset, length)} byte extents of a file, in the order the data appears in the memory buffer
 * (ROMIO's flattened datatype). Immutable; stored as two primitive arrays so that a view flattened once
 * can be re-used by every request without allocation per extent.
 *
 * <p>Extents may be in any file order (a view is monotone, but a memory-ordered list built by the
 * caller need not be); {@link #isMonotone()} says whether offsets never go backwards.
 */
public final class ExtentList extends AbstractList<Extent> implements RandomAccess {
    private static final long[] NONE = new long[0];
    public static final ExtentList EMPTY = new ExtentList(NONE, NONE, 0);

    private final long[] offsets;
    private final long[] lengths;
    private final long totalBytes;

    private ExtentList(long[] offsets, long[] lengths, long totalBytes) {
        this.offsets = offsets;
        this.lengths = lengths;
        this.totalBytes = totalBytes;
    }

    /** One extent; every contiguous data call makes one, so it is built without a builder's arrays and copies. */
    public static ExtentList of(long offset, long length) {
        if (length == 0) return EMPTY;
        checkExtent(offset, length);
        return new ExtentList(new long[]{offset}, new long[]{length}, length);
    }

    private static void checkExtent(long offset, long length) {
        if (offset < 0) throw new IllegalArgumentException("extent offset must be >= 0, was " + offset);
        if (length < 0) throw new IllegalArgumentException("extent length must be >= 0, was " + length);
        if (offset > Long.MAX_VALUE - length) {
            throw new IllegalArgumentException("extent at " + offset + " of " + length + " bytes ends past the largest file offset (2^63 - 1)");
        }
    }

    public static ExtentList of(List<Extent> extents) {
        Builder b = new Builder(extents.size());
        for (Extent e : extents) b.add(e.offset(), e.length());
        return b.build();
    }

    public static Builder builder() {
        return new Builder(8);
    }

    public static Builder builder(int expectedExtents) {
        return new Builder(expectedExtents);
    }

    @Override
    public Extent get(int index) {
        Objects.checkIndex(index, offsets.length);
        return new Extent(offsets[index], lengths[index]);
    }

    @Override
    public int size() {
        return offsets.length;
    }

    public long offset(int index) {
        return offsets[index];
    }

    public long length(int index) {
        return lengths[index];
    }

    /** Sum of all extent lengths: the number of bytes the access moves. */
    public long totalBytes() {
        return totalBytes;
    }

    /** Lowest offset touched, or -1 when empty. */
    public long firstOffset() {
        long min = Long.MAX_VALUE;
        for (long o : offsets) min = Math.min(min, o);
        return offsets.length == 0 ? -1 : min;
    }

    /** One past the highest byte touched (exclusive end), or 0 when empty. */
    public long endOffset() {
        long max = 0;
        for (int i = 0; i < offsets.length; i++) max = Math.max(max, offsets[i] + lengths[i]);
        return max;
    }

    public boolean isMonotone() {
        for (int i = 1; i < offsets.length; i++) {
            if (offsets[i] < offsets[i - 1] + lengths[i - 1]) return false;
        }
        return true;
    }

    /** The same extents with every offset moved by {@code delta}. */
    public ExtentList shift(long delta) {
        if (delta == 0) return this;
        long[] o = offsets.clone();
        for (int i = 0; i < o.length; i++) {
            o[i] += delta;
            if (o[i] < 0) throw new IllegalArgumentException("shift by " + delta + " makes extent " + i + " negative");
        }
        return new ExtentList(o, lengths, totalBytes);
    }

    /**
     * The sub-list of bytes {@code [fromByte, fromByte + byteCount)} of this access, counted in buffer
     * order. Used to cut a request short at end-of-file and to split work between servers.
     */
    public ExtentList slice(long fromByte, long byteCount) {
        if (fromByte < 0 || byteCount < 0 || fromByte + byteCount > totalBytes) {
            throw new IllegalArgumentException("slice [" + fromByte + "+" + byteCount + ") outside access of " + totalBytes + " bytes");
        }
        Builder b = new Builder(4);
        long skip = fromByte, want = byteCount;
        for (int i = 0; i < offsets.length && want > 0; i++) {
            long len = lengths[i];
            if (skip >= len) {
                skip -= len;
                continue;
            }
            long take = Math.min(len - skip, want);
            b.add(offsets[i] + skip, take);
            want -= take;
            skip = 0;
        }
        return b.build();
    }

    /** Adjacent extents merged: the fewest extents that describe the same bytes in the same order. */
    public ExtentList coalesced() {
        Builder b = new Builder(offsets.length);
        for (int i = 0; i < offsets.length; i++) b.add(offsets[i], lengths[i]);
        return b.build();
    }

    @Override
    public boolean equals(Object o) {
        if (o instanceof ExtentList other) {
            return Arrays.equals(offsets, other.offsets) && Arrays.equals(lengths, other.lengths);
        }
        return super.equals(o);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(offsets) + Arrays.hashCode(lengths);
    }

    @Override
    public String toString() {
        if (offsets.length > 8) {
            return "ExtentList[" + offsets.length + " extents, " + totalBytes + " bytes, first " + get(0) + "]";
        }
        return super.toString();
    }

    /**
     * Accumulates extents. Zero-length extents are dropped and an extent that starts where the previous
     * one ended is merged into it, so built lists are always coalesced.
     */
    public static final class Builder {
        private long[] offsets;
        private long[] lengths;
        private int n;
        private long total;

        private Builder(int capacity) {
            offsets = new long[Math.max(1, capacity)];
            lengths = new long[Math.max(1, capacity)];
        }

        public Builder add(long offset, long length) {
            checkExtent(offset, length);
            if (length == 0) return this;
            total += length;
            if (n > 0 && offsets[n - 1] + lengths[n - 1] == offset) {
                lengths[n - 1] += length;
                return this;
            }
            if (n == offsets.length) {
                offsets = Arrays.copyOf(offsets, n * 2);
                lengths = Arrays.copyOf(lengths, n * 2);
            }
            offsets[n] = offset;
            lengths[n] = length;
            n++;
            return this;
        }

        public Builder addAll(ExtentList list) {
            for (int i = 0; i < list.size(); i++) add(list.offset(i), list.length(i));
            return this;
        }

        public long totalBytes() {
            return total;
        }

        public ExtentList build() {
            if (n == 0) return EMPTY;
            return new ExtentList(Arrays.copyOf(offsets, n), Arrays.copyOf(lengths, n), total);
        }
    }
}
