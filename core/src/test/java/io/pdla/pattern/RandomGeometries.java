package io.pdla.pattern;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Random valid closed forms and their brute-force byte order, for property tests here and in the analyzer (core test-jar). */
public final class RandomGeometries {
    private RandomGeometries() {
    }

    /** Explicit nested loops, independent of Geometry's arithmetic: every byte offset in data order. */
    public static List<Long> materialize(Geometry.Spec s) {
        List<Long> cycleBases = new ArrayList<>();
        cycleBases.add(0L);
        int levels = s.strides().length;
        for (int l = 0; l < levels; l++) {
            List<Long> next = new ArrayList<>();
            long count = s.counts()[l];
            for (long i = 0; i < count; i++) for (long b : cycleBases) next.add(b + i * s.strides()[l]);
            cycleBases = next;
        }
        List<Long> bytes = new ArrayList<>();
        outer:
        for (long base : cycleBases) {
            for (int j = 0; j < s.segOffsets().length; j++) {
                for (long k = 0; k < s.segLengths()[j]; k++) {
                    if (bytes.size() == s.totalBytes()) break outer;
                    bytes.add(s.start() + base + s.segOffsets()[j] + k);
                }
            }
        }
        return bytes;
    }

    /** Brute-force byte order of a grouped spec: the base's bytes, then the base's shifted by groupStride, ... */
    public static List<Long> materializeGrouped(Geometry.Spec s) {
        List<Long> base = materialize(baseOf(s));
        List<Long> bytes = new ArrayList<>(base.size() * s.groups());
        for (int i = 0; i < s.groups(); i++) for (long b : base) bytes.add(b + i * s.groupStride());
        return bytes;
    }

    /** The base (copy 0) of a grouped spec, as an ordinary spec. */
    public static Geometry.Spec baseOf(Geometry.Spec s) {
        return new Geometry.Spec(s.start(), s.segOffsets(), s.segLengths(), s.strides(), s.counts(), s.totalBytes() / s.groups());
    }

    /**
     * A random valid grouped spec: a base of 1-3 levels whose strides are multiples of the innermost |stride| P,
     * segments inside a cycle span w, 2-8 copies, a group stride d in [w, (P - w) / (copies - 1)].
     */
    public static Geometry.Spec randomGroupedSpec(Random r) {
        int m = 1 + r.nextInt(3);
        long[] off = new long[m], len = new long[m];
        long shift = r.nextInt(4);   // the cycle need not begin at the start
        long cursor = 0;
        for (int j = 0; j < m; j++) {
            len[j] = 1 + r.nextInt(5);
            off[j] = shift + cursor;
            cursor += len[j] + r.nextInt(3);
        }
        long w = off[m - 1] + len[m - 1] - off[0];
        for (int j = m - 1; j > 0; j--) {
            int k = r.nextInt(j + 1);
            long t = off[j]; off[j] = off[k]; off[k] = t;
            t = len[j]; len[j] = len[k]; len[k] = t;
        }
        int copies = 2 + r.nextInt(7);
        long p = copies * w + r.nextInt(7);
        long maxD = (p - w) / (copies - 1);
        long d = w + (maxD > w ? r.nextInt((int) (maxD - w + 1)) : 0);
        int levels = 1 + r.nextInt(3);
        long[] strides = new long[levels], counts = new long[levels];
        long lo = 0, hi = w;   // only the blocks' widths matter here
        long cycleBytes = 0;
        for (long l : len) cycleBytes += l;
        long cycles = 1;
        for (int l = 0; l < levels; l++) {
            long width = hi - lo;
            long s = l == 0 ? p : p * (Geometry.ceilDiv(width, p) + r.nextInt(3));
            if (l > 0 && r.nextInt(4) == 0 && Math.abs(counts[l - 1] * strides[l - 1]) >= width) s = Math.abs(counts[l - 1] * strides[l - 1]);
            if (r.nextBoolean()) s = -s;
            long c = 1 + r.nextInt(3);
            strides[l] = s;
            counts[l] = c;
            long reach = (c - 1) * s;
            lo += Math.min(0, reach);
            hi += Math.max(0, reach);
            cycles *= c;
        }
        long full = cycles * cycleBytes;
        long total = full - r.nextInt((int) Math.min(full, cycleBytes * (cycles / counts[levels - 1])));
        long cyc = Geometry.ceilDiv(total, cycleBytes);
        counts[levels - 1] = Geometry.ceilDiv(cyc, cycles / counts[levels - 1]);
        Geometry.Spec probe = new Geometry.Spec(1_000_000, off, len, strides, counts, total);
        long min = Long.MAX_VALUE;
        for (long b : materialize(probe)) min = Math.min(min, b);
        long start = 1_000_000 - min + (r.nextInt(3) == 0 ? 0 : r.nextInt(50));
        return new Geometry.Spec(start, off, len, strides, counts, total * copies, copies, d);
    }

    public static Geometry.Spec randomSpec(Random r) {
        int m = 1 + r.nextInt(3);
        long[] off = new long[m], len = new long[m];
        // segments placed at distinct slots, data order shuffled
        long[] slots = new long[m];
        long cursor = 0;
        for (int j = 0; j < m; j++) {
            long l = 1 + r.nextInt(5);
            slots[j] = cursor;
            len[j] = l;
            cursor += l + r.nextInt(3);
        }
        for (int j = m - 1; j > 0; j--) { // shuffle (offset,len) pairs together
            int k = r.nextInt(j + 1);
            long t = slots[j]; slots[j] = slots[k]; slots[k] = t;
            t = len[j]; len[j] = len[k]; len[k] = t;
        }
        System.arraycopy(slots, 0, off, 0, m);
        long lo = 0, hi = cursor;
        int levels = r.nextInt(4);
        long[] strides = new long[levels], counts = new long[levels];
        long cycleBytes = 0;
        for (long l : len) cycleBytes += l;
        long cycles = 1;
        for (int l = 0; l < levels; l++) {
            long width = hi - lo;
            long s = width + r.nextInt(4);
            if (r.nextBoolean()) s = -s;
            if (l > 0 && r.nextInt(4) == 0 && Math.abs(counts[l - 1] * strides[l - 1]) >= width) s = counts[l - 1] * strides[l - 1];
            if (l == 0 && m == 1 && off[0] == 0 && r.nextInt(4) == 0) s = len[0];
            long c = 1 + r.nextInt(4);
            strides[l] = s;
            counts[l] = c;
            long reach = (c - 1) * s;
            lo += Math.min(0, reach);
            hi += Math.max(0, reach);
            cycles *= c;
        }
        long full = cycles * cycleBytes;
        long total = levels == 0 ? full : full - r.nextInt((int) Math.min(full, cycleBytes * (levels > 0 ? cycles / counts[levels - 1] : 1)));
        if (levels > 0) {
            long cyc = Geometry.ceilDiv(total, cycleBytes);
            long inner = cycles / counts[levels - 1];
            counts[levels - 1] = Geometry.ceilDiv(cyc, inner);
        }
        long start = -lo + r.nextInt(50);
        if (r.nextInt(3) == 0) {
            // as low as the touched bytes allow: partial negative-stride patterns may start below the full block
            Geometry.Spec probe = new Geometry.Spec(1_000_000, off, len, strides, counts, total);
            long min = Long.MAX_VALUE;
            for (long b : materialize(probe)) min = Math.min(min, b);
            start = 1_000_000 - min;
        }
        return new Geometry.Spec(start, off, len, strides, counts, total);
    }
}
