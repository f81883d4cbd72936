package io.pdla.pattern;

import io.pdla.access.Extent;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * The closed form of a spatial pattern: which bytes it touches and in which order, without a per-request table.
 *
 * <p>A <em>cycle</em> is a short list of segments {@code (segOffset, segLength)} relative to {@code start}, in
 * data order (one segment for plain strides, several for a repeating size sequence). The cycle is repeated by
 * nested levels, innermost first: level {@code l} places {@code counts[l]} copies of the level-below block at
 * {@code strides[l]} apart (strides may be negative). The outermost level is open-ended; the pattern stops
 * after {@code totalBytes} bytes of data, so a last block may be partial. Copies never overlap (checked here),
 * which makes the byte order a bijection: {@link #positionOf(long)} and {@link #offsetAt(long)} are inverse,
 * each in O(levels + log segments).
 *
 * <p>The replica of a pattern holds exactly these bytes in this order, so the replica offset of original
 * offset {@code o} is {@code positionOf(o)}. This one form is what the analyzer finds, the pattern database and
 * the replica catalog store, the replicator copies and the redirect layer routes through: whatever the analyzer
 * finds (several segments per cycle, negative strides, a partial last block) can be replicated.
 *
 * <p>A <em>grouped</em> geometry ({@link #grouped}) is {@code n} copies of an ordinary base, copy {@code i} shifted
 * by {@code i * groupStride} in the file, in data order all of copy 0's bytes, then all of copy 1's, and so on: the
 * replicator's rank-major replica of interleaved per-rank patterns, where each rank's data ends up consecutive.
 * The copies interleave in the file, which the nested levels cannot express (their blocks never interleave), so
 * the grouping is a layer over the base rather than one more level. For a grouped geometry the cycle and level
 * accessors ({@link #cycleBytes()}, {@link #segments()}, {@link #levels()}, {@link #stride(int)} ...) describe the
 * base.
 */
public final class Geometry {
    private final Spec spec;
    private final long start;
    private final long[] segOff;
    private final long[] segLen;
    private final long[] strides;
    private final long[] counts;
    private final long totalBytes;
    // derived
    private final long cycleBytes;
    private final long[] prefix;          // data position of each segment within the cycle
    private final int[] byOffset;         // segment indices sorted by offset, for positionOf
    private final long[] sortedOff;
    private final long[] lo;              // lo[l+1] = lowest relative offset of a level-l block; lo[0] = cycle
    private final long[] hi;
    private final long[] cyclesPer;       // cyclesPer[l+1] = cycles in a level-l block; cyclesPer[0] = 1
    // grouping: groups == 1 (base == this) for an ordinary geometry; the other fields only matter when grouped
    private final int groups;
    private final long groupStride;
    private final Geometry base;
    private final long copyBytes;         // the base's totalBytes
    private final long period;            // |strides[0]|: every cycle of the base starts at a multiple of it
    private final long loMod;             // floorMod(lo[0], period)
    private final long cycleSpan;         // hi[0] - lo[0]

    /**
     * The serializable description; {@link Geometry#of(Spec)} validates it. With {@code groups > 1} it describes a
     * grouped geometry: the other fields but {@code totalBytes} are the base's, {@code totalBytes} is the whole
     * (groups times the base's) and {@code groupStride} the file distance between copies. An ordinary geometry has
     * {@code groups == 1} and {@code groupStride == 0}.
     */
    public record Spec(long start, long[] segOffsets, long[] segLengths, long[] strides, long[] counts, long totalBytes,
                       int groups, long groupStride) {
        /** An ordinary (ungrouped) geometry. */
        public Spec(long start, long[] segOffsets, long[] segLengths, long[] strides, long[] counts, long totalBytes) {
            this(start, segOffsets, segLengths, strides, counts, totalBytes, 1, 0);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Spec s && start == s.start && totalBytes == s.totalBytes
                    && groups == s.groups && groupStride == s.groupStride
                    && Arrays.equals(segOffsets, s.segOffsets) && Arrays.equals(segLengths, s.segLengths)
                    && Arrays.equals(strides, s.strides) && Arrays.equals(counts, s.counts);
        }

        @Override
        public int hashCode() {
            // ungrouped specs hash as before the grouping existed
            int h = Arrays.hashCode(new long[]{start, totalBytes, Arrays.hashCode(segOffsets),
                Arrays.hashCode(segLengths), Arrays.hashCode(strides), Arrays.hashCode(counts)});
            return groups == 1 && groupStride == 0 ? h : 31 * h + Arrays.hashCode(new long[]{groups, groupStride});
        }

        @Override
        public String toString() {
            // ungrouped specs print as before, so logs and messages keep their form
            return "Spec[start=" + start + ", seg=" + Arrays.toString(segOffsets) + "/" + Arrays.toString(segLengths)
                    + ", strides=" + Arrays.toString(strides) + ", counts=" + Arrays.toString(counts)
                    + ", totalBytes=" + totalBytes
                    + (groups == 1 && groupStride == 0 ? "" : ", groups=" + groups + ", groupStride=" + groupStride) + "]";
        }
    }

    public static Geometry of(Spec spec) {
        int n = spec.groups();
        if (n == 1) {
            // one spelling per pattern, so that equal specs mean equal patterns
            if (spec.groupStride() != 0) throw new IllegalArgumentException("an ungrouped spec (groups 1) has groupStride 0, not " + spec.groupStride() + ": " + spec);
            return new Geometry(spec);
        }
        if (n < 1) throw new IllegalArgumentException("groups " + n + " < 1: " + spec);
        if (spec.totalBytes() <= 0 || spec.totalBytes() % n != 0) {
            throw new IllegalArgumentException("totalBytes " + spec.totalBytes() + " is not " + n + " equal copies of a base: " + spec);
        }
        Geometry base = new Geometry(new Spec(spec.start(), spec.segOffsets(), spec.segLengths(), spec.strides(), spec.counts(),
                spec.totalBytes() / n));
        return new Geometry(base, n, spec.groupStride(), spec);
    }

    /**
     * {@code copies} copies of {@code base}, copy {@code i} at file offset shift {@code i * copyStride}, in data
     * order copy 0's bytes, then copy 1's, ...: the rank-major replica of ranks whose patterns are one pattern
     * shifted by the rank. The copies may interleave in the file but must never share a byte, which these rules
     * guarantee: with {@code P} the base's innermost |stride| and {@code w} the span of its cycle, every |stride|
     * is a multiple of {@code P} and {@code w <= copyStride}, {@code (copies - 1) * copyStride + w <= P}. Every
     * byte of copy {@code i} then lies at a residue modulo {@code P} (relative to the cycle's lowest offset) in
     * {@code [i * copyStride, i * copyStride + w)}, intervals that are disjoint and do not wrap, which is also how
     * {@link #positionOf} finds the copy. One copy is {@code base} itself.
     *
     * @throws IllegalArgumentException naming the rule the arguments break
     */
    public static Geometry grouped(Geometry base, int copies, long copyStride) {
        Objects.requireNonNull(base, "base geometry");
        if (copies < 1) throw new IllegalArgumentException("copies " + copies + " < 1 (grouping " + base.spec + ")");
        if (base.groups != 1) {
            throw new IllegalArgumentException("cannot group a grouped geometry (" + base.groups + " copies " + base.groupStride
                    + " apart); group its groupBase() instead: " + base.spec);
        }
        if (copies == 1) return base;
        long total;
        try {
            total = Math.multiplyExact(copies, base.totalBytes);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(copies + " copies of " + base.totalBytes + " bytes overflow a long: " + base.spec, e);
        }
        Spec b = base.spec;
        return new Geometry(base, copies, copyStride,
                new Spec(b.start(), b.segOffsets(), b.segLengths(), b.strides(), b.counts(), total, copies, copyStride));
    }

    /** One contiguous run of {@code length} bytes. */
    public static Geometry contiguous(long start, long length) {
        return of(new Spec(start, new long[]{0}, new long[]{length}, new long[0], new long[0], length));
    }

    /** {@code count} requests of {@code size} bytes, {@code stride} apart. */
    public static Geometry strided(long start, long size, long stride, long count) {
        return of(new Spec(start, new long[]{0}, new long[]{size}, new long[]{stride}, new long[]{count}, size * count));
    }

    private Geometry(Spec spec) {
        this.spec = spec;
        this.start = spec.start();
        this.segOff = spec.segOffsets().clone();
        this.segLen = spec.segLengths().clone();
        this.strides = spec.strides().clone();
        this.counts = spec.counts().clone();
        this.totalBytes = spec.totalBytes();
        this.groups = 1;
        this.groupStride = 0;
        this.base = this;
        this.copyBytes = totalBytes;
        this.period = 0;
        this.loMod = 0;
        this.cycleSpan = 0;
        int m = segOff.length;
        if (m == 0 || segLen.length != m) throw new IllegalArgumentException("a cycle needs >= 1 segment, offsets and lengths alike: " + spec);
        if (strides.length != counts.length) throw new IllegalArgumentException("strides and counts differ in length: " + spec);
        prefix = new long[m + 1];
        for (int j = 0; j < m; j++) {
            if (segLen[j] <= 0) throw new IllegalArgumentException("segment " + j + " has length " + segLen[j] + ": " + spec);
            prefix[j + 1] = prefix[j] + segLen[j];
        }
        cycleBytes = prefix[m];
        Integer[] order = new Integer[m];
        for (int j = 0; j < m; j++) order[j] = j;
        Arrays.sort(order, (a, b) -> Long.compare(segOff[a], segOff[b]));
        byOffset = new int[m];
        sortedOff = new long[m];
        for (int j = 0; j < m; j++) {
            byOffset[j] = order[j];
            sortedOff[j] = segOff[order[j]];
            if (j > 0 && sortedOff[j] < sortedOff[j - 1] + segLen[byOffset[j - 1]]) {
                throw new IllegalArgumentException("cycle segments overlap: " + spec);
            }
        }
        int levels = strides.length;
        lo = new long[levels + 1];
        hi = new long[levels + 1];
        cyclesPer = new long[levels + 1];
        lo[0] = sortedOff[0];
        hi[0] = sortedOff[m - 1] + segLen[byOffset[m - 1]];
        cyclesPer[0] = 1;
        for (int l = 0; l < levels; l++) {
            long s = strides[l], c = counts[l];
            if (c < 1) throw new IllegalArgumentException("level " + l + " count " + c + " < 1: " + spec);
            if (s == 0 || Math.abs(s) < hi[l] - lo[l]) {
                throw new IllegalArgumentException("level " + l + " stride " + s + " overlaps its " + (hi[l] - lo[l]) + "-byte inner block: " + spec);
            }
            long reach = Math.multiplyExact(c - 1, s);
            lo[l + 1] = lo[l] + Math.min(0, reach);
            hi[l + 1] = hi[l] + Math.max(0, reach);
            cyclesPer[l + 1] = Math.multiplyExact(cyclesPer[l], c);
        }
        if (totalBytes <= 0) throw new IllegalArgumentException("totalBytes " + totalBytes + " <= 0: " + spec);
        long capacity = levels == 0 ? cycleBytes : Long.MAX_VALUE;
        if (totalBytes > capacity) throw new IllegalArgumentException("totalBytes " + totalBytes + " exceeds one cycle of a level-less pattern: " + spec);
        if (levels > 0) {
            // the outermost count must be what totalBytes implies, so that equal specs mean equal patterns
            long cycles = ceilDiv(totalBytes, cycleBytes);
            long outer = ceilDiv(cycles, cyclesPer[levels - 1]);
            if (outer != counts[levels - 1]) {
                throw new IllegalArgumentException("outermost count " + counts[levels - 1] + " but " + totalBytes + " bytes need " + outer + ": " + spec);
            }
        }
        if (start + lowestTouched() < 0) throw new IllegalArgumentException("pattern reaches below offset 0: " + spec);
    }

    /** A grouped geometry over the validated ordinary {@code base}; checks the rules {@link #grouped} states. */
    private Geometry(Geometry base, int copies, long d, Spec spec) {
        this.spec = spec;
        // the base's arrays are never written after construction, so sharing them is safe
        this.start = base.start;
        this.segOff = base.segOff;
        this.segLen = base.segLen;
        this.strides = base.strides;
        this.counts = base.counts;
        this.cycleBytes = base.cycleBytes;
        this.prefix = base.prefix;
        this.byOffset = base.byOffset;
        this.sortedOff = base.sortedOff;
        this.lo = base.lo;
        this.hi = base.hi;
        this.cyclesPer = base.cyclesPer;
        this.groups = copies;
        this.groupStride = d;
        this.base = base;
        this.copyBytes = base.totalBytes;
        this.totalBytes = Math.multiplyExact(copies, base.totalBytes);
        if (strides.length == 0) {
            throw new IllegalArgumentException("a grouped geometry needs a base with >= 1 level: its innermost stride is the period"
                    + " the copies share (copies of a level-less base are an ordinary level of stride " + d + "): " + spec);
        }
        long p = Math.abs(strides[0]);
        for (int l = 1; l < strides.length; l++) {
            if (strides[l] % p != 0) {
                throw new IllegalArgumentException("level " + l + " stride " + strides[l] + " is not a multiple of the innermost stride "
                        + p + ", so the copies could collide in a later block: " + spec);
            }
        }
        long w = hi[0] - lo[0];
        if (d <= 0) throw new IllegalArgumentException("groupStride " + d + " <= 0: " + spec);
        if (d < w) throw new IllegalArgumentException("groupStride " + d + " < the cycle's span " + w + ": neighbouring copies would overlap: " + spec);
        if (d > (p - w) / (copies - 1)) {
            throw new IllegalArgumentException("(copies - 1) * groupStride + cycle span = " + (copies - 1) + " * " + d + " + " + w
                    + " exceeds the innermost stride " + p + ": the last copy would run into copy 0's next cycle: " + spec);
        }
        this.period = p;
        this.loMod = Math.floorMod(lo[0], p);
        this.cycleSpan = w;
    }

    /** Lowest relative offset actually touched; with a partial last block this can be above the full block's. */
    private long lowestTouched() {
        if (strides.length == 0 || complete()) return lo[strides.length];
        long cycles = ceilDiv(totalBytes, cycleBytes);
        long lastBytes = totalBytes - (cycles - 1) * cycleBytes;
        long best = Long.MAX_VALUE;
        for (int j = 0; j < segOff.length && prefix[j] < lastBytes; j++) best = Math.min(best, segOff[j]);
        best += cycleBase(cycles - 1) - start;
        if (cycles > 1) best = Math.min(best, minBase(strides.length - 1, cycles - 1) + lo[0]);
        return best;
    }

    /** Lowest cycle base (relative) over cycle indices 0 .. c-1, c >= 1, using levels 0..level. */
    private long minBase(int level, long c) {
        if (level < 0) return 0;
        long perBlock = cyclesPer[level];
        long q = c / perBlock, r = c % perBlock;
        long best = Long.MAX_VALUE;
        if (q > 0) best = (lo[level] - lo[0]) + Math.min(0, (q - 1) * strides[level]);
        if (r > 0) best = Math.min(best, q * strides[level] + minBase(level - 1, r));
        return best;
    }

    /** Ceiling of {@code a / b} for {@code b > 0}. */
    public static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }

    public Spec spec() {
        return spec;
    }

    /** Number of copies of {@link #groupBase()}: 1 for an ordinary geometry. */
    public int groups() {
        return groups;
    }

    /** File distance between consecutive copies: 0 for an ordinary geometry. */
    public long groupStride() {
        return groupStride;
    }

    /** Copy 0 of a grouped geometry; {@code this} for an ordinary one. */
    public Geometry groupBase() {
        return base;
    }

    /**
     * Copy {@code i} of a grouped geometry as an ordinary one: {@link #groupBase()} shifted by {@code i * groupStride},
     * the bytes of the i-th region of its data order (one rank's, in a rank-major replica). An ordinary geometry is its
     * own only copy, 0.
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= i < groups()}
     */
    public Geometry groupCopy(int i) {
        if (i < 0 || i >= groups) {
            throw new IndexOutOfBoundsException("copy " + i + " of a geometry of " + groups + (groups == 1 ? " copy" : " copies")
                    + " (0 to " + (groups - 1) + "): " + spec);
        }
        if (i == 0) return base;
        Spec b = base.spec;
        // a shift up keeps every rule the base passed (nothing reaches below offset 0), so this cannot be refused
        return new Geometry(new Spec(b.start() + i * groupStride, b.segOffsets(), b.segLengths(), b.strides(), b.counts(), b.totalBytes()));
    }

    public long start() {
        return start;
    }

    public long totalBytes() {
        return totalBytes;
    }

    public long cycleBytes() {
        return cycleBytes;
    }

    public int segments() {
        return segOff.length;
    }

    public long segmentOffset(int j) {
        return segOff[j];
    }

    public long segmentLength(int j) {
        return segLen[j];
    }

    public int levels() {
        return strides.length;
    }

    public long stride(int level) {
        return strides[level];
    }

    public long count(int level) {
        return counts[level];
    }

    /** Whether every level is full: no partial block at the end (of each copy, for a grouped geometry). */
    public boolean complete() {
        if (groups != 1) return base.complete();
        return totalBytes == Math.multiplyExact(cyclesPer[strides.length], cycleBytes);
    }

    /**
     * Lowest file offset of the full block: exact when {@link #complete()}, a lower bound otherwise. For a grouped
     * geometry copy 0's, the lowest of all, as the copies lie above it.
     */
    public long lowOffset() {
        return start + lo[strides.length];
    }

    /** Width of the full block (lowest to one past highest offset), as if complete; for a grouped geometry, of all copies. */
    public long span() {
        if (groups != 1) return base.span() + (groups - 1) * groupStride;
        return hi[strides.length] - lo[strides.length];
    }

    /**
     * Index of the byte at file offset {@code offset} in the pattern's data order, or -1 when the pattern does
     * not touch it. The replica offset of {@code offset}.
     */
    public long positionOf(long offset) {
        if (groups != 1) return groupedPositionOf(offset);
        long rel = offset - start;
        long cycle = 0;
        for (int l = strides.length - 1; l >= 0; l--) {
            long s = strides[l];
            long t = rel - lo[l];
            long i = s > 0 ? Math.floorDiv(t, s) : -Math.floorDiv(t, -s);
            boolean outer = l == strides.length - 1;
            if (i < 0 || (!outer && i >= counts[l])) return -1;
            rel -= i * s;
            cycle += i * cyclesPer[l];
            if (cycle < 0) return -1; // overflow far outside
        }
        int k = Arrays.binarySearch(sortedOff, rel);
        if (k < 0) k = -k - 2;
        if (k < 0) return -1;
        int j = byOffset[k];
        long within = rel - segOff[j];
        if (within >= segLen[j]) return -1;
        if (cycle > totalBytes / cycleBytes) return -1;
        long pos = cycle * cycleBytes + prefix[j] + within;
        return pos < totalBytes ? pos : -1;
    }

    /** The copy is given by the residue of the offset modulo the period (see {@link #grouped}); the base does the rest. */
    private long groupedPositionOf(long offset) {
        // lo[0] is reduced on its own (loMod), so that rel - lo[0] cannot overflow for offsets far out
        long r = Math.floorMod(offset - start, period) - loMod;
        if (r < 0) r += period;
        long i = r / groupStride;
        if (i >= groups || r - i * groupStride >= cycleSpan) return -1;
        long p = base.positionOf(offset - i * groupStride);
        return p < 0 ? -1 : p + i * copyBytes;
    }

    /** File offset of the byte at data position {@code position}; the inverse of {@link #positionOf(long)}. */
    public long offsetAt(long position) {
        if (position < 0 || position >= totalBytes) {
            throw new IndexOutOfBoundsException("position " + position + " outside pattern of " + totalBytes + " bytes");
        }
        return unboundedOffsetAt(position);
    }

    /** As {@link #offsetAt} but past the end too (the outermost level continues): used to predict. */
    public long unboundedOffsetAt(long position) {
        if (groups != 1) {
            // past the end, the last copy continues
            long i = copyOf(position);
            return base.unboundedOffsetAt(position - i * copyBytes) + i * groupStride;
        }
        long cycle = position / cycleBytes;
        long w = position - cycle * cycleBytes;
        int j = segmentAtPosition(w);
        return cycleBase(cycle) + segOff[j] + (w - prefix[j]);
    }

    /**
     * Bytes left in the segment instance that holds data position {@code position}. For a grouped geometry never
     * past the end of the copy (a copy's last segment may be partial, and the next copy's bytes lie elsewhere).
     */
    public long segmentRemaining(long position) {
        if (groups != 1) {
            long i = copyOf(position);
            long q = position - i * copyBytes;
            long rem = base.segmentRemaining(q);
            return i < groups - 1 ? Math.min(rem, copyBytes - q) : rem;
        }
        long w = position % cycleBytes;
        int j = segmentAtPosition(w);
        return prefix[j + 1] - w;
    }

    /** The copy holding data position {@code position} of a grouped geometry, the last one past the end. */
    private long copyOf(long position) {
        return Math.max(0, Math.min(position / copyBytes, groups - 1));
    }

    private int segmentAtPosition(long w) {
        return segmentAt(prefix, w);
    }

    private long cycleBase(long cycle) {
        return cycleBase(start, strides, counts, cyclesPer, cycle);
    }

    /** The segment holding byte {@code w} of a cycle, given the segments' prefix sums. */
    public static int segmentAt(long[] prefix, long w) {
        if (prefix.length == 2) return 0;
        int j = Arrays.binarySearch(prefix, w);
        return j >= 0 ? j : -j - 2;
    }

    /**
     * Where cycle {@code cycle} starts: {@code start} plus each level's index times its stride, the outermost
     * level unbounded ({@code cyclesPer[l]} = cycles per step of level l). Public for the analyzer's builder,
     * which grows the outer count as requests arrive and cannot hold a Geometry per step.
     */
    public static long cycleBase(long start, long[] strides, long[] counts, long[] cyclesPer, long cycle) {
        long off = start;
        int levels = strides.length;
        for (int l = 0; l < levels; l++) {
            long i = cycle / cyclesPer[l];
            if (l < levels - 1) i %= counts[l];
            off += i * strides[l];
        }
        return off;
    }

    /**
     * Bytes from {@code offset} on that the pattern touches and that are consecutive both in the file and in the
     * data order (to the end of the segment instance, or of the pattern); 0 when {@code offset} is not touched.
     */
    public long runLengthAt(long offset) {
        long pos = positionOf(offset);
        if (pos < 0) return 0;
        return Math.min(segmentRemaining(pos), totalBytes - pos);
    }

    /**
     * The smallest offset at or above {@code offset} that the pattern touches, or -1 if none. Sub-blocks of a
     * level occupy disjoint intervals in index order (or reverse order for a negative stride), so each level
     * looks at most at the sub-block that reaches past {@code offset} and the one after it: O(levels + segments).
     */
    public long nextCoveredOffset(long offset) {
        if (groups != 1) {
            // the copies interleave, so any of them may come next: O(copies * levels)
            long best = -1;
            for (int i = 0; i < groups; i++) {
                long shift = i * groupStride;
                long n = base.nextCoveredOffset(offset - shift);
                if (n >= 0 && (best < 0 || n + shift < best)) best = n + shift;
                if (best == offset) break;
            }
            return best;
        }
        return nextCovered(strides.length, start, totalBytes, offset);
    }

    /** Lowest touched offset >= x in a tier-t block (t nested levels; tier 0 = one cycle) at base b of which the first {@code avail} data bytes exist. */
    private long nextCovered(int t, long b, long avail, long x) {
        if (avail <= 0) return -1;
        if (t == 0) {
            for (int k = 0; k < sortedOff.length; k++) {
                int j = byOffset[k];
                long a = Math.min(segLen[j], avail - prefix[j]);
                if (a > 0 && b + segOff[j] + a > x) return Math.max(x, b + segOff[j]);
            }
            return -1;
        }
        long s = strides[t - 1];
        long subBytes = cyclesPer[t - 1] * cycleBytes;
        long n = Math.min(counts[t - 1], ceilDiv(avail, subBytes));
        long reach = x - b - hi[t - 1];   // sub-block i reaches past x when i*s > reach
        if (s > 0) {
            for (long i = reach < 0 ? 0 : Math.floorDiv(reach, s) + 1; i < n; i++) {
                long r = nextCovered(t - 1, b + i * s, Math.min(subBytes, avail - i * subBytes), x);
                if (r >= 0) return r;
            }
        } else {
            if (reach >= 0) return -1;
            for (long i = Math.min(n - 1, ceilDiv(-reach, -s) - 1); i >= 0; i--) {
                long r = nextCovered(t - 1, b + i * s, Math.min(subBytes, avail - i * subBytes), x);
                if (r >= 0) return r;
            }
        }
        return -1;
    }

    /** Whether any byte of {@code [offset, offset + length)} is in the pattern. */
    public boolean overlaps(long offset, long length) {
        if (length <= 0) return false;
        long next = nextCoveredOffset(offset);
        return next >= 0 && next - offset < length;
    }

    /**
     * Splits {@code [offset, offset + length)} into segments in file order, each either in the pattern (with its
     * data position, the replica offset) or outside it. Adjacent segments that stay consecutive in the data order
     * are merged.
     */
    public List<Segment> map(long offset, long length) {
        List<Segment> out = new ArrayList<>(2);
        long o = offset;
        long end = offset + length;
        while (o < end) {
            long pos = positionOf(o);
            if (pos >= 0) {
                long run = Math.min(runLengthAt(o), end - o);
                Segment last = out.isEmpty() ? null : out.get(out.size() - 1);
                if (last != null && last.inPattern() && last.replicaOffset() + last.length() == pos) {
                    out.set(out.size() - 1, new Segment(last.offset(), last.length() + run, last.replicaOffset()));
                } else {
                    out.add(new Segment(o, run, pos));
                }
                o += run;
            } else {
                long next = nextCoveredOffset(o);
                long stop = next < 0 || next > end ? end : next;
                out.add(new Segment(o, stop - o, -1));
                o = stop;
            }
        }
        return out;
    }

    /** Number of segment instances (the extents {@link #extents()} yields): the requests of the closed form. */
    public long extentCount() {
        if (groups != 1) return groups * base.extentCount();
        long cycles = ceilDiv(totalBytes, cycleBytes);
        long last = totalBytes - (cycles - 1) * cycleBytes;
        long inLast = 0;
        for (int j = 0; j < segOff.length && prefix[j] < last; j++) inLast++;
        return (cycles - 1) * segOff.length + inLast;
    }

    /** Whether the bytes, in data order, are one ascending contiguous run of the file (a replica would copy them as they lie). */
    public boolean isAscendingRun() {
        if (segOff.length == 1 && strides.length == 0) return true;
        Iterator<Extent> it = extents();
        long next = -1;
        while (it.hasNext()) {
            Extent e = it.next();
            if (next >= 0 && e.offset() != next) return false;
            next = e.offset() + e.length();
        }
        return true;
    }

    /** Streams the touched extents in data order (the replica's order). */
    public void forEachExtent(ExtentSink sink) {
        Iterator<Extent> it = extents();
        while (it.hasNext()) {
            Extent e = it.next();
            sink.accept(e.offset(), e.length());
        }
    }

    /** Receives extents in data order. */
    @FunctionalInterface
    public interface ExtentSink {
        void accept(long offset, long length);
    }

    /** One line for logs and listings: start, cycle, levels and size (of the base, then the copies, when grouped). */
    public String describe() {
        if (groups != 1) return base.describe() + ", x" + groups + " copies " + groupStride + " apart";
        StringBuilder b = new StringBuilder("start=").append(start).append(", cycle=");
        for (int j = 0; j < segOff.length; j++) b.append(j == 0 ? "" : "+").append(segLen[j]).append('@').append(segOff[j]);
        for (int l = 0; l < strides.length; l++) b.append(", (stride=").append(strides[l]).append(" x").append(counts[l]).append(')');
        return b.append(", ").append(totalBytes).append(" bytes").toString();
    }

    /** The touched bytes as extents in data order, one per segment instance, streamed without materializing. */
    public Iterator<Extent> extents() {
        return new Iterator<>() {
            long pos = 0;

            @Override
            public boolean hasNext() {
                return pos < totalBytes;
            }

            @Override
            public Extent next() {
                if (pos >= totalBytes) throw new NoSuchElementException();
                long len = Math.min(segmentRemaining(pos), totalBytes - pos);
                Extent e = new Extent(unboundedOffsetAt(pos), len);
                pos += len;
                return e;
            }
        };
    }

    /**
     * The same bytes in the same order with the fewest levels: an innermost level whose stride equals the
     * single segment's length is folded into the segment (so rank-interleaved strides that tile a region
     * become CONTIG). A grouped geometry keeps its grouping over the canonical base (which keeps its innermost
     * stride and cycle, so the grouping stays valid).
     */
    public Geometry canonical() {
        if (groups != 1) {
            Geometry c = base.canonical();
            return c == base ? this : grouped(c, groups, groupStride);
        }
        Spec s = spec;
        // collinear levels: the next level continues the inner stride exactly, so the two are one level
        for (int l = 0; l + 1 < s.strides().length; l++) {
            if (s.strides()[l + 1] == s.counts()[l] * s.strides()[l]) {
                int n = s.strides().length;
                long[] st = new long[n - 1], ct = new long[n - 1];
                for (int i = 0, j = 0; i < n; i++) {
                    if (i == l + 1) continue;
                    st[j] = s.strides()[i];
                    ct[j] = i == l ? s.counts()[l] * s.counts()[l + 1] : s.counts()[i];
                    j++;
                }
                if (l + 1 == n - 1) {
                    long inner = 1;
                    for (int i = 0; i < l; i++) inner *= ct[i];
                    ct[l] = ceilDiv(ceilDiv(s.totalBytes(), cycleBytes), inner);
                }
                s = new Spec(s.start(), s.segOffsets(), s.segLengths(), st, ct, s.totalBytes());
                l = -1;
            }
        }
        while (s.segLengths().length == 1 && s.strides().length >= 1 && s.strides()[0] == s.segLengths()[0]
                && s.segOffsets()[0] == 0) {
            int levels = s.strides().length;
            if (levels == 1) return contiguous(s.start(), s.totalBytes());
            long seg = s.segLengths()[0] * s.counts()[0];
            s = new Spec(s.start(), new long[]{0}, new long[]{seg}, Arrays.copyOfRange(s.strides(), 1, levels),
                    Arrays.copyOfRange(s.counts(), 1, levels), s.totalBytes());
            // the new outermost count is re-derived by the constructor check; it is unchanged for levels > 1
        }
        return s == spec ? this : of(s);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Geometry g && spec.equals(g.spec);
    }

    @Override
    public int hashCode() {
        return spec.hashCode();
    }

    @Override
    public String toString() {
        return spec.toString();
    }
}
