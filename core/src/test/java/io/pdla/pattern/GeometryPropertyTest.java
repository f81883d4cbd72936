package io.pdla.pattern;

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

    @Test
    void positionOfAndOffsetAtMatchMaterializedBytesOnRandomPatterns() {
        long seed = System.nanoTime();
        System.out.println("GeometryPropertyTest seed " + seed);
        Random r = new Random(seed);
        for (int n = 0; n < 3000; n++) {
            Geometry.Spec spec = RandomGeometries.randomSpec(r);
            Geometry g = Geometry.of(spec);
            List<Long> bytes = RandomGeometries.materialize(spec);
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
            long extentCount = 0;
            for (Iterator<Extent> it = g.extents(); it.hasNext(); it.next()) extentCount++;
            assertEquals(extentCount, g.extentCount(), "extentCount " + ctx);
            // nextCoveredOffset, runLengthAt and map against the materialized bytes
            java.util.TreeSet<Long> touched = new java.util.TreeSet<>(pos.keySet());
            for (long o = Math.max(0, min - 20); o <= max + 20; o++) {
                Long next = touched.ceiling(o);
                assertEquals(next == null ? -1L : next, g.nextCoveredOffset(o), "nextCoveredOffset(" + o + ") " + ctx);
                long run = 0;
                if (pos.containsKey(o)) {
                    long p0 = pos.get(o);
                    while (pos.containsKey(o + run) && pos.get(o + run) == p0 + run) run++;
                    assertTrue(g.runLengthAt(o) >= 1 && g.runLengthAt(o) <= run, "runLengthAt(" + o + ") " + ctx);
                } else {
                    assertEquals(0, g.runLengthAt(o), ctx);
                }
                long len = 1 + r.nextInt(12);
                long covered = 0;
                long at = o;
                for (Segment seg : g.map(o, len)) {
                    assertEquals(at, seg.offset(), "map pieces are adjacent " + ctx);
                    for (long k = 0; k < seg.length(); k++) {
                        assertEquals(pos.getOrDefault(seg.offset() + k, -1L), seg.inPattern() ? seg.replicaOffset() + k : -1L,
                                "map(" + o + "," + len + ") " + ctx);
                    }
                    at += seg.length();
                    covered += seg.length();
                }
                assertEquals(len, covered, ctx);
                boolean any = false;
                for (long k = 0; k < len; k++) any |= pos.containsKey(o + k);
                assertEquals(any, g.overlaps(o, len), "overlaps(" + o + "," + len + ") " + ctx);
            }
            boolean run = true;
            for (int k = 1; k < bytes.size(); k++) run &= bytes.get(k) == bytes.get(k - 1) + 1;
            assertEquals(run, g.isAscendingRun(), "isAscendingRun " + ctx);
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
