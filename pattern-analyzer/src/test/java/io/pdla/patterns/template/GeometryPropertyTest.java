package io.pdla.patterns.template;

import io.pdla.access.Extent;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** positionOf / offsetAt / extents against a brute-force materialization, on seeded random patterns. */
class GeometryPropertyTest {

    /** Explicit nested loops, independent of Geometry's arithmetic: every byte offset in data order. */
    static List<Long> materialize(Geometry.Spec s) {
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

    static Geometry.Spec randomSpec(Random r) {
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

    @Test
    void positionOfAndOffsetAtMatchMaterializedBytesOnRandomPatterns() {
        long seed = System.nanoTime();
        System.out.println("GeometryPropertyTest seed " + seed);
        Random r = new Random(seed);
        for (int n = 0; n < 3000; n++) {
            Geometry.Spec spec = randomSpec(r);
            Geometry g = Geometry.of(spec);
            List<Long> bytes = materialize(spec);
            String ctx = "seed " + seed + " case " + n + " " + spec;
            assertEquals(bytes.size(), g.totalBytes(), ctx);
            Map<Long, Long> pos = new HashMap<>();
            long min = Long.MAX_VALUE, max = Long.MIN_VALUE;
            for (int i = 0; i < bytes.size(); i++) {
                long o = bytes.get(i);
                assertEquals(null, pos.put(o, (long) i), "byte touched twice " + ctx);
                assertEquals(o, g.offsetAt(i), "offsetAt(" + i + ") " + ctx);
                min = Math.min(min, o);
                max = Math.max(max, o);
            }
            Geometry canon = g.canonical();
            assertTrue(canon.levels() <= g.levels(), ctx);
            for (long o = Math.max(0, min - 20); o <= max + 20; o++) {
                assertEquals(pos.getOrDefault(o, -1L), g.positionOf(o), "positionOf(" + o + ") " + ctx);
                assertEquals(pos.getOrDefault(o, -1L), canon.positionOf(o), "canonical positionOf(" + o + ") " + ctx + " -> " + canon);
            }
            // streamed extents reproduce the byte order
            int i = 0;
            for (Iterator<Extent> it = g.extents(); it.hasNext(); ) {
                Extent e = it.next();
                for (long k = 0; k < e.length(); k++) assertEquals(bytes.get(i++), e.offset() + k, ctx);
            }
            assertEquals(bytes.size(), i, ctx);
            assertTrue(g.lowOffset() <= min, ctx);
            if (g.complete()) assertEquals(min, g.lowOffset(), ctx);
        }
    }

    @Test
    void rejectsOverlappingLevelsAndInconsistentCounts() {
        assertThrows(IllegalArgumentException.class, () -> Geometry.strided(0, 10, 5, 4));
        assertThrows(IllegalArgumentException.class, () -> Geometry.of(new Geometry.Spec(0, new long[]{0},
                new long[]{4}, new long[]{8}, new long[]{3}, 40)));
        assertThrows(IllegalArgumentException.class, () -> Geometry.strided(0, 4, -8, 3)); // reaches below 0
        Geometry g = Geometry.strided(16, 4, -8, 3);
        assertEquals(0, g.lowOffset());
        assertTrue(g.complete());
    }

    @Test
    void largeOffsetsAreMappedWithoutOverflow() {
        Geometry g = Geometry.strided(1L << 40, 1 << 20, 64L << 20, 1 << 16);
        long last = g.offsetAt(g.totalBytes() - 1);
        assertEquals(g.totalBytes() - 1, g.positionOf(last));
        assertEquals(-1, g.positionOf(last + 1));
        assertEquals(-1, g.positionOf(Long.MAX_VALUE));
        assertEquals(-1, g.positionOf(0));
    }
}
