package io.pdla.replicator.pattern;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The nested-strided closed form: blocks of {@code size} bytes at
 * {@code start + k_0*stride_0 + k_1*stride_1 + ...}, {@code 0 <= k_i < count_i}, level 0 varying fastest
 * (pattern order). Covers contiguous access (no level), fixed strides, negative strides and nested 2-D
 * tiles (a row level inside a tile level).
 *
 * <p>Offsets are inverted greedily, level by level in order of decreasing |stride|, which is exact when each
 * |stride| is at least the span of all smaller levels (a mixed radix): then no two blocks overlap, file
 * order is the lexicographic order of the digits, and every mapping costs O(levels), independent of the
 * pattern's length. Patterns that interleave differently are refused at construction.
 */
public final class NestedStridedPattern implements ReplicablePattern {
    public static final String TYPE = "nested-strided";

    /** One level: {@code count} repetitions {@code stride} bytes apart (stride may be negative). */
    public record Level(long stride, long count) {
        public Level {
            if (count < 1) throw new IllegalArgumentException("level count must be >= 1, was " + count);
            if (stride == 0 && count > 1) throw new IllegalArgumentException("level stride 0 with count " + count + " would touch bytes twice");
        }
    }

    private final PatternKey key;
    private final long start;
    private final long size;
    private final List<Level> levels;
    /** Lowest block offset: start moved back by every negative stride. */
    private final long base;
    /** Replica bytes per step of each level (pattern order). */
    private final long[] weight;
    /** Level indexes sorted by decreasing |stride| (radix order). */
    private final int[] radix;
    private final long totalBytes;

    public NestedStridedPattern(PatternKey key, long start, long size, List<Level> levels) {
        if (size <= 0) throw new IllegalArgumentException("block size must be > 0, was " + size);
        if (start < 0) throw new IllegalArgumentException("start offset must be >= 0, was " + start);
        this.key = java.util.Objects.requireNonNull(key, "key");
        this.start = start;
        this.size = size;
        List<Level> kept = new ArrayList<>();
        for (Level l : levels) if (l.count() > 1) kept.add(l);
        this.levels = List.copyOf(kept);
        int n = kept.size();
        weight = new long[n];
        long w = size;
        long b = start;
        for (int i = 0; i < n; i++) {
            weight[i] = w;
            w = Math.multiplyExact(w, kept.get(i).count());
            if (kept.get(i).stride() < 0) b += kept.get(i).stride() * (kept.get(i).count() - 1);
        }
        totalBytes = w;
        base = b;
        if (base < 0) throw new IllegalArgumentException("pattern reaches below offset 0 (lowest block at " + base + "): " + describeRaw());
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) order[i] = i;
        Arrays.sort(order, Comparator.comparingLong((Integer i) -> Math.abs(kept.get(i).stride())).reversed());
        radix = new int[n];
        for (int i = 0; i < n; i++) radix[i] = order[i];
        long span = size;
        for (int r = n - 1; r >= 0; r--) {
            Level l = kept.get(radix[r]);
            long s = Math.abs(l.stride());
            if (s < span) {
                throw new IllegalArgumentException("blocks overlap or interleave: level stride " + l.stride()
                        + " is smaller than the " + span + " bytes spanned by the levels inside it: " + describeRaw());
            }
            span = Math.addExact(Math.multiplyExact(s, l.count() - 1), span);
        }
    }

    public static NestedStridedPattern contiguous(PatternKey key, long start, long length) {
        return new NestedStridedPattern(key, start, length, List.of());
    }

    public static NestedStridedPattern strided(PatternKey key, long start, long size, long stride, long count) {
        return new NestedStridedPattern(key, start, size, List.of(new Level(stride, count)));
    }

    public long start() {
        return start;
    }

    public long blockSize() {
        return size;
    }

    public List<Level> levels() {
        return levels;
    }

    @Override
    public PatternKey key() {
        return key;
    }

    @Override
    public long totalBytes() {
        return totalBytes;
    }

    @Override
    public long positionOf(long offset) {
        long d = offset - base;
        if (d < 0) return -1;
        long pos = 0;
        for (int r : radix) {
            Level l = levels.get(r);
            long s = Math.abs(l.stride());
            long digit = Math.min(l.count() - 1, d / s);
            d -= digit * s;
            long k = l.stride() < 0 ? l.count() - 1 - digit : digit;
            pos += k * weight[r];
        }
        return d < size ? pos + d : -1;
    }

    @Override
    public long offsetAt(long position) {
        if (position < 0 || position >= totalBytes) {
            throw new IndexOutOfBoundsException("replica position " + position + " outside 0.." + totalBytes);
        }
        long q = position / size;
        long off = start + position % size;
        for (Level l : levels) {
            off += (q % l.count()) * l.stride();
            q /= l.count();
        }
        return off;
    }

    @Override
    public long runLengthAt(long offset) {
        long pos = positionOf(offset);
        if (pos < 0) return 0;
        return size - pos % size;
    }

    @Override
    public long nextCoveredOffset(long offset) {
        long d = offset - base;
        if (d < 0) return base;
        int n = radix.length;
        long[] digits = new long[n];
        for (int i = 0; i < n; i++) {
            Level l = levels.get(radix[i]);
            long s = Math.abs(l.stride());
            digits[i] = Math.min(l.count() - 1, d / s);
            d -= digits[i] * s;
        }
        if (d < size) return offset;
        // in a gap (or past the end): the next block in file order is the next digit vector
        int i = n - 1;
        while (i >= 0) {
            if (digits[i] + 1 < levels.get(radix[i]).count()) {
                digits[i]++;
                break;
            }
            digits[i] = 0;
            i--;
        }
        if (i < 0) return -1;
        long off = base;
        for (int j = 0; j < n; j++) off += digits[j] * Math.abs(levels.get(radix[j]).stride());
        return off;
    }

    @Override
    public void forEachExtent(ExtentSink sink) {
        int n = levels.size();
        long[] k = new long[n];
        long off = start;
        long blocks = totalBytes / size;
        for (long b = 0; b < blocks; b++) {
            sink.accept(off, size);
            // odometer: advance level 0, carrying outward
            for (int i = 0; i < n; i++) {
                Level l = levels.get(i);
                if (++k[i] < l.count()) {
                    off += l.stride();
                    break;
                }
                off -= l.stride() * (l.count() - 1);
                k[i] = 0;
            }
        }
    }

    @Override
    public RequestShape requestShape() {
        return new RequestShape(size, totalBytes / size);
    }

    @Override
    public byte[] encode() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeUTF(TYPE);
            out.writeInt(1);
            byte[] k = key.toBytes();
            out.writeInt(k.length);
            out.write(k);
            out.writeLong(start);
            out.writeLong(size);
            out.writeInt(levels.size());
            for (Level l : levels) {
                out.writeLong(l.stride());
                out.writeLong(l.count());
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String describe() {
        return describeRaw() + ", " + totalBytes + " bytes";
    }

    private String describeRaw() {
        StringBuilder sb = new StringBuilder(TYPE).append("(start=").append(start).append(", size=").append(size);
        for (Level l : levels) sb.append(", (stride=").append(l.stride()).append(" x").append(l.count()).append(')');
        return sb.append(')').toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NestedStridedPattern p && p.key.equals(key) && p.start == start && p.size == size && p.levels.equals(levels);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(key, start, size, levels);
    }

    @Override
    public String toString() {
        return key.id() + " " + describe();
    }
}
