package io.pdla.patterns.template;

import io.pdla.access.Extent;
import io.pdla.access.IoOp;
import io.pdla.pattern.Geometry;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * A pattern being learned: the closed form so far plus the statistics of the requests it absorbed. It grows
 * by {@link #tryAccept} (the next request is exactly where the closed form predicts) and by folding with
 * equal-shaped neighbours ({@link #foldLevel}, {@link #foldCycle}, {@link #foldRepetition}).
 */
final class PatternBuilder {
    private static final int MAX_SIZES = 8;

    long start;
    long[] segOff;
    long[] segLen;
    long[] strides = new long[0];
    long[] counts = new long[0];
    // derived from the above, refreshed by reshape()
    private long cycleBytes;
    private long[] prefix;
    private long[] cyclesPer;

    long consumed;
    long requests;
    long requestBytes;
    int repetitions = 1;
    OpMix ops;
    long[] sizes = new long[2];
    int sizeCount;
    long firstStart, lastStart, lastEnd;
    long gaps;
    double gapSum, gapSumSq;

    private PatternBuilder() {
    }

    static PatternBuilder single(long offset, long length, IoOp op, long startNanos, long endNanos) {
        PatternBuilder b = new PatternBuilder();
        b.start = offset;
        b.segOff = new long[]{0};
        b.segLen = new long[]{length};
        b.consumed = length;
        b.ops = OpMix.of(op);
        b.firstStart = startNanos;
        b.lastStart = startNanos;
        b.lastEnd = endNanos;
        b.requests = 1;
        b.requestBytes = length;
        b.addSize(length);
        b.reshape();
        return b;
    }

    private void reshape() {
        int m = segLen.length;
        prefix = new long[m + 1];
        for (int j = 0; j < m; j++) prefix[j + 1] = prefix[j] + segLen[j];
        cycleBytes = prefix[m];
        cyclesPer = new long[strides.length + 1];
        cyclesPer[0] = 1;
        for (int l = 0; l < strides.length; l++) cyclesPer[l + 1] = cyclesPer[l] * counts[l];
    }

    private boolean lone() {
        return strides.length == 0 && segLen.length == 1;
    }

    /** Absorbs the request if it continues the closed form; false leaves the builder unchanged. */
    boolean tryAccept(long offset, long length, IoOp op, long startNanos, long endNanos) {
        if (repetitions != 1) return false; // a repeated pattern is closed; the next round folds in whole
        if (lone()) {
            if (offset == start + segLen[0]) {            // contiguous: sizes may vary
                segLen[0] += length;
                consumed += length;
                reshape();
            } else if (requests == 1 && length == segLen[0] && offset != start
                    && Math.abs(offset - start) >= length) {
                strides = new long[]{offset - start};        // second request of a fixed stride
                counts = new long[]{2};
                consumed += length;
                reshape();
            } else {
                return false;
            }
        } else {
            long p = consumed;
            long cycle = p / cycleBytes;
            long w = p - cycle * cycleBytes;
            int j = segmentAt(w);
            long expected = cycleBase(cycle) + segOff[j] + (w - prefix[j]);
            if (offset != expected || length > prefix[j + 1] - w) return false;
            consumed += length;
            int outer = strides.length - 1;
            long cycles = Geometry.ceilDiv(consumed, cycleBytes);
            counts[outer] = Geometry.ceilDiv(cycles, cyclesPer[outer]);
            cyclesPer[outer + 1] = cyclesPer[outer] * counts[outer];
        }
        record(length, op, startNanos, endNanos);
        return true;
    }

    /** The same request again right away (read-modify-write): counted, not a new position. */
    void reaccess(long length, IoOp op, long startNanos, long endNanos) {
        record(length, op, startNanos, endNanos);
    }

    private void record(long length, IoOp op, long startNanos, long endNanos) {
        requests++;
        requestBytes += length;
        ops = ops.union(OpMix.of(op));
        addSize(length);
        long gap = startNanos - lastStart;
        gaps++;
        gapSum += gap;
        gapSumSq += (double) gap * gap;
        lastStart = startNanos;
        lastEnd = Math.max(lastEnd, endNanos);
    }

    private void addSize(long size) {
        for (int i = 0; i < sizeCount; i++) if (sizes[i] == size) return;
        if (sizeCount == MAX_SIZES) return;
        if (sizeCount == sizes.length) sizes = Arrays.copyOf(sizes, sizeCount * 2);
        sizes[sizeCount++] = size;
    }

    private int segmentAt(long w) {
        return Geometry.segmentAt(prefix, w);
    }

    private long cycleBase(long cycle) {
        return Geometry.cycleBase(start, strides, counts, cyclesPer, cycle);
    }

    boolean complete() {
        return consumed == cyclesPer[strides.length] * cycleBytes;
    }

    /** Same closed form apart from the start. */
    boolean sameShape(PatternBuilder o) {
        return consumed == o.consumed && repetitions == o.repetitions
                && Arrays.equals(segLen, o.segLen) && Arrays.equals(segOff, o.segOff)
                && Arrays.equals(strides, o.strides) && Arrays.equals(counts, o.counts);
    }

    Geometry.Spec spec() {
        return new Geometry.Spec(start, segOff, segLen, strides, counts, consumed);
    }

    Geometry geometry() {
        return Geometry.of(spec());
    }

    /** {@code a} then {@code b}, same shape, {@code b} shifted: a new outermost level of count 2, or null. */
    static PatternBuilder foldLevel(PatternBuilder a, PatternBuilder b) {
        if (!a.sameShape(b) || !a.complete() || a.repetitions != 1) return null;
        long d = b.start - a.start;
        if (d == 0) return null;
        long[] st = Arrays.copyOf(a.strides, a.strides.length + 1);
        long[] ct = Arrays.copyOf(a.counts, a.counts.length + 1);
        st[st.length - 1] = d;
        ct[ct.length - 1] = 2;
        return merged(a, b, a.start, a.segOff.clone(), a.segLen.clone(), st, ct, a.consumed * 2);
    }

    /** {@code b} accesses exactly what {@code a} did: one pattern with one more repetition, or null. */
    static PatternBuilder foldRepetition(PatternBuilder a, PatternBuilder b) {
        if (b.repetitions != 1 || a.start != b.start || a.consumed != b.consumed
                || !Arrays.equals(a.segLen, b.segLen) || !Arrays.equals(a.segOff, b.segOff)
                || !Arrays.equals(a.strides, b.strides) || !Arrays.equals(a.counts, b.counts)) return null;
        PatternBuilder r = merged(a, b, a.start, a.segOff.clone(), a.segLen.clone(), a.strides.clone(), a.counts.clone(), a.consumed);
        if (r != null) r.repetitions = a.repetitions + 1;
        return r;
    }

    /**
     * {@code parts} = A_0..A_{m-1}, B_0..B_{m-1} where each B_k is A_k shifted by one common D: a cycle of the
     * A's segments repeated twice at stride D (a repeating size sequence), or null.
     */
    static PatternBuilder foldCycle(List<PatternBuilder> parts, int maxSegments) {
        int m = parts.size() / 2;
        long d = parts.get(m).start - parts.get(0).start;
        if (d == 0) return null;
        int segs = 0;
        for (int k = 0; k < m; k++) {
            PatternBuilder a = parts.get(k), b = parts.get(m + k);
            if (!a.sameShape(b) || b.start - a.start != d || a.repetitions != 1) return null;
            segs += a.segmentInstances();
            if (segs > maxSegments) return null;
        }
        long base = parts.get(0).start;
        long[] off = new long[segs], len = new long[segs];
        int n = 0;
        for (int k = 0; k < m; k++) {
            for (Iterator<Extent> it = parts.get(k).geometry().extents(); it.hasNext(); ) {
                Extent e = it.next();
                if (n > 0 && off[n - 1] + len[n - 1] == e.offset() - base) {
                    len[n - 1] += e.length();   // contiguous in data and file order: one segment
                } else {
                    off[n] = e.offset() - base;
                    len[n] = e.length();
                    n++;
                }
            }
        }
        long cycle = 0;
        for (int k = 0; k < m; k++) cycle += parts.get(k).consumed;
        PatternBuilder a = parts.get(0);
        PatternBuilder acc = merged(a, parts.get(1), base, Arrays.copyOf(off, n), Arrays.copyOf(len, n),
                new long[]{d}, new long[]{2}, 2 * cycle);
        if (acc == null) return null;
        for (int k = 2; k < parts.size(); k++) acc.absorbStats(parts.get(k));
        return acc;
    }

    /** Segment instances (requests, for fixed-size patterns) this run holds, or -1 when more than {@code max}. */
    int instancesUpTo(int max) {
        long n = segmentInstances();
        if (strides.length > 0) n = Geometry.ceilDiv(consumed, cycleBytes) * segLen.length; // partial last block
        return n > max ? -1 : (int) n;
    }

    /** Appends this run's segment instances, in data order, to {@code off/len} from {@code at}; returns the new end. */
    int flatten(long[] off, long[] len, int at) {
        if (lone()) {
            off[at] = start;
            len[at] = segLen[0];
            return at + 1;
        }
        // walks the closed form directly: this runs at every break, a Geometry per call would dominate
        for (long pos = 0; pos < consumed; at++) {
            long cycle = pos / cycleBytes;
            long w = pos - cycle * cycleBytes;
            int j = segmentAt(w);
            long piece = Math.min(prefix[j + 1] - w, consumed - pos);
            off[at] = cycleBase(cycle) + segOff[j] + (w - prefix[j]);
            len[at] = piece;
            pos += piece;
        }
        return at;
    }

    /**
     * The flat requests {@code off/len[0..f)} of {@code parts} as one cycle of the first {@code m} requests
     * repeated at stride {@code d} (the last cycle may be partial), or null if that is no valid closed form.
     */
    static PatternBuilder flatCycle(List<PatternBuilder> parts, long[] off, long[] len, int f, int m, long d) {
        long base = off[0];
        long[] so = new long[m], sl = new long[m];
        for (int k = 0; k < m; k++) {
            so[k] = off[k] - base;
            sl[k] = len[k];
        }
        long consumed = 0;
        for (int k = 0; k < f; k++) consumed += len[k];
        PatternBuilder acc = merged(parts.get(0), parts.get(1), base, so, sl, new long[]{d},
                new long[]{Geometry.ceilDiv(f, m)}, consumed);
        if (acc == null) return null;
        for (int k = 2; k < parts.size(); k++) acc.absorbStats(parts.get(k));
        return acc;
    }

    private long segmentInstances() {
        return strides.length == 0 ? segLen.length : cyclesPer[strides.length] * segLen.length;
    }

    private static PatternBuilder merged(PatternBuilder a, PatternBuilder b, long start, long[] off, long[] len,
                                         long[] st, long[] ct, long consumed) {
        try {
            Geometry.of(new Geometry.Spec(start, off, len, st, ct, consumed)); // validates non-overlap
        } catch (IllegalArgumentException | ArithmeticException notAPattern) {
            return null;
        }
        PatternBuilder r = new PatternBuilder();
        r.start = start;
        r.segOff = off;
        r.segLen = len;
        r.strides = st;
        r.counts = ct;
        r.consumed = consumed;
        r.requests = a.requests;
        r.requestBytes = a.requestBytes;
        r.ops = a.ops;
        r.sizes = Arrays.copyOf(a.sizes, Math.max(2, a.sizes.length));
        r.sizeCount = a.sizeCount;
        r.firstStart = a.firstStart;
        r.lastStart = a.lastStart;
        r.lastEnd = a.lastEnd;
        r.gaps = a.gaps;
        r.gapSum = a.gapSum;
        r.gapSumSq = a.gapSumSq;
        r.reshape();
        r.absorbStats(b);
        return r;
    }

    private void absorbStats(PatternBuilder b) {
        long gap = b.firstStart - lastStart;
        gaps += b.gaps + 1;
        gapSum += b.gapSum + gap;
        gapSumSq += b.gapSumSq + (double) gap * gap;
        requests += b.requests;
        requestBytes += b.requestBytes;
        ops = ops.union(b.ops);
        for (int i = 0; i < b.sizeCount; i++) addSize(b.sizes[i]);
        lastStart = b.lastStart;
        lastEnd = Math.max(lastEnd, b.lastEnd);
    }

    LocalPattern toPattern(int rank, int fileId, MatcherConfig cfg) {
        Geometry g = geometry().canonical();
        long[] s = Arrays.copyOf(sizes, sizeCount);
        Arrays.sort(s);
        return new LocalPattern(rank, fileId, PatternKind.of(g), ops, g, requests, requestBytes, repetitions, s,
                Temporal.of(gaps, gapSum, gapSumSq, cfg.fixedIntervalCv()), firstStart, lastEnd);
    }
}
