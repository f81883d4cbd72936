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
