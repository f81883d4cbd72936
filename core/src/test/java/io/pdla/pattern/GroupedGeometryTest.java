package io.pdla.pattern;

import io.pdla.access.Extent;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Grouped (rank-major) geometries against a brute-force byte enumeration, on seeded random bases, and their refusals. */
class GroupedGeometryTest {

    @Test
    void groupedGeometriesMatchTheirEnumeratedBytesOnRandomBases() {
        long seed = System.nanoTime();
        System.out.println("GroupedGeometryTest seed " + seed);
        Random r = new Random(seed);
        for (int n = 0; n < 1500; n++) {
            Geometry.Spec spec = RandomGeometries.randomGroupedSpec(r);
            String ctx = "seed " + seed + " case " + n + " " + spec;
            Geometry base = Geometry.of(RandomGeometries.baseOf(spec));
            Geometry g = Geometry.grouped(base, spec.groups(), spec.groupStride());
            assertEquals(Geometry.of(spec), g, ctx);
            assertEquals(spec, g.spec(), ctx);
            assertEquals(spec.groups(), g.groups(), ctx);
            assertEquals(spec.groupStride(), g.groupStride(), ctx);
            assertEquals(base, g.groupBase(), ctx);
            long copy = base.totalBytes();
            long d = spec.groupStride();
            List<Long> bytes = RandomGeometries.materializeGrouped(spec);
            assertEquals(bytes.size(), g.totalBytes(), ctx);

            Map<Long, Long> pos = new HashMap<>();
            long min = Long.MAX_VALUE, max = Long.MIN_VALUE;
            for (int i = 0; i < bytes.size(); i++) {
                long o = bytes.get(i);
                assertEquals(null, pos.put(o, (long) i), "copies share byte " + o + " " + ctx);
                assertEquals(o, g.offsetAt(i), "offsetAt(" + i + ") " + ctx);
                min = Math.min(min, o);
                max = Math.max(max, o);
            }
            assertThrows(IndexOutOfBoundsException.class, () -> g.offsetAt(g.totalBytes()), ctx);
            for (long k = 0; k < 5; k++) {
                assertEquals(base.unboundedOffsetAt(copy + k) + (spec.groups() - 1) * d, g.unboundedOffsetAt(g.totalBytes() + k),
                        "past the end the last copy continues " + ctx);
            }

            // extents: copy 0's, then copy 1's shifted by d, ...
            List<Extent> expected = new ArrayList<>();
            for (int i = 0; i < spec.groups(); i++) {
                for (Iterator<Extent> it = base.extents(); it.hasNext(); ) {
                    Extent e = it.next();
                    expected.add(new Extent(e.offset() + i * d, e.length()));
                }
            }
            List<Extent> actual = new ArrayList<>();
            g.extents().forEachRemaining(actual::add);
            assertEquals(expected, actual, "extents " + ctx);
            List<Extent> streamed = new ArrayList<>();
            g.forEachExtent((o, l) -> streamed.add(new Extent(o, l)));
            assertEquals(expected, streamed, "forEachExtent " + ctx);
            assertEquals(expected.size(), g.extentCount(), "extentCount " + ctx);

            // each copy alone (groupCopy): exactly its share of the enumerated bytes and of the extents
            assertSame(base, g.groupCopy(0), ctx);
            int perCopy = Math.toIntExact(base.extentCount());
            for (int i = 0; i < spec.groups(); i++) {
                Geometry c = g.groupCopy(i);
                assertEquals(1, c.groups(), "groupCopy(" + i + ") is ordinary " + ctx);
                List<Long> copied = new ArrayList<>();
                c.forEachExtent((o, l) -> { for (long k = 0; k < l; k++) copied.add(o + k); });
                assertEquals(bytes.subList(Math.toIntExact(i * copy), Math.toIntExact((i + 1) * copy)), copied, "groupCopy(" + i + ") bytes " + ctx);
                List<Extent> own = new ArrayList<>();
                c.extents().forEachRemaining(own::add);
                assertEquals(actual.subList(i * perCopy, (i + 1) * perCopy), own, "groupCopy(" + i + ") extents " + ctx);
            }

            Geometry canon = g.canonical();
            assertEquals(g.groups(), canon.groups(), ctx);
            assertTrue(canon.levels() <= g.levels(), ctx);
            TreeSet<Long> touched = new TreeSet<>(pos.keySet());
            long from = Math.min(Math.max(0, min - 20), g.lowOffset() - 10), to = Math.max(max + 20, g.lowOffset() + g.span() + 10);
            for (long o = Math.max(0, from); o < to; o++) {
                long want = pos.getOrDefault(o, -1L);
                assertEquals(want, g.positionOf(o), "positionOf(" + o + ") " + ctx);
                assertEquals(want, canon.positionOf(o), "canonical positionOf(" + o + ") " + ctx + " -> " + canon);
                Long next = touched.ceiling(o);
                assertEquals(next == null ? -1L : next, g.nextCoveredOffset(o), "nextCoveredOffset(" + o + ") " + ctx);
                if (want >= 0) {
                    long run = 0;
                    while (pos.containsKey(o + run) && pos.get(o + run) == want + run) run++;
                    long got = g.runLengthAt(o);
                    assertTrue(got >= 1 && got <= run, "runLengthAt(" + o + ") = " + got + " of " + run + " " + ctx);
                    assertEquals(want / copy, (want + got - 1) / copy, "runLengthAt(" + o + ") crosses a copy boundary " + ctx);
                } else {
                    assertEquals(0, g.runLengthAt(o), ctx);
                }
                long len = 1 + r.nextInt(12);
                long at = o;
                for (Segment seg : g.map(o, len)) {
                    assertEquals(at, seg.offset(), "map pieces are adjacent " + ctx);
                    for (long k = 0; k < seg.length(); k++) {
                        assertEquals(pos.getOrDefault(seg.offset() + k, -1L), seg.inPattern() ? seg.replicaOffset() + k : -1L,
                                "map(" + o + "," + len + ") " + ctx);
                    }
                    at += seg.length();
                }
                assertEquals(o + len, at, ctx);
                boolean any = false;
                for (long k = 0; k < len; k++) any |= pos.containsKey(o + k);
                assertEquals(any, g.overlaps(o, len), "overlaps(" + o + "," + len + ") " + ctx);
            }
            List<Long> canonBytes = new ArrayList<>();
            canon.forEachExtent((o, l) -> { for (long k = 0; k < l; k++) canonBytes.add(o + k); });
            assertEquals(bytes, canonBytes, "canonical order " + ctx);

            boolean run = true;
            for (int k = 1; k < bytes.size(); k++) run &= bytes.get(k) == bytes.get(k - 1) + 1;
            assertEquals(run, g.isAscendingRun(), "isAscendingRun " + ctx);
            assertEquals(base.complete(), g.complete(), ctx);
            assertTrue(g.lowOffset() <= min && g.lowOffset() + g.span() > max, ctx);
            if (g.complete()) {
                assertEquals(min, g.lowOffset(), ctx);
                assertEquals(max + 1, g.lowOffset() + g.span(), ctx);
            }
            assertTrue(g.describe().startsWith(base.describe()) && g.describe().contains("x" + spec.groups() + " copies " + d + " apart"), g.describe());
        }
    }

    @Test
    void groupCopiesOutsideTheGroupAreRefusedNamingTheRange() {
        Geometry base = Geometry.strided(0, 16, 64, 4);
        Geometry g = Geometry.grouped(base, 4, 16);
        assertEquals(Geometry.strided(48, 16, 64, 4), g.groupCopy(3));
        assertIndexMessage("copy 4 of a geometry of 4 copies (0 to 3)", () -> g.groupCopy(4));
        assertIndexMessage("copy -1 of a geometry of 4 copies (0 to 3)", () -> g.groupCopy(-1));
        assertSame(base, base.groupCopy(0), "an ordinary geometry is its own only copy");
        assertIndexMessage("copy 1 of a geometry of 1 copy (0 to 0)", () -> base.groupCopy(1));
    }

    @Test
    void iorStridedRanksBecomeRankMajor() {
        long block = 16384;
        Geometry rank0 = Geometry.strided(0, block, 4 * block, 256);
        Geometry g = Geometry.grouped(rank0, 4, block);
        assertEquals(4 * 256 * block, g.totalBytes());
        assertEquals(256 * block, g.positionOf(block), "rank 1's first byte begins copy 1");
        assertEquals(block, g.positionOf(4 * block), "rank 0's second block follows its first");
        assertEquals(block + 5, g.offsetAt(256 * block + 5));
        assertEquals(4 * 256 * block - 1, g.positionOf(256 * 4 * block - 1), "the last byte of the file is rank 3's last");
        assertEquals(0, g.lowOffset());
        assertEquals(256 * 4 * block, g.span());
        assertEquals(4 * 256, g.extentCount());
        assertEquals(block, g.runLengthAt(block + 7) + 7);
        assertEquals("start=0, cycle=16384@0, (stride=65536 x256), 4194304 bytes, x4 copies 16384 apart", g.describe());
        assertTrue(g.spec().toString().endsWith(", groups=4, groupStride=16384]"), g.spec().toString());
        assertEquals(g, Geometry.of(g.spec()));
        assertSame(rank0, g.groupBase());

        // the daemon's case: 64 ranks of 16 KiB blocks, rank r at r * 16 KiB
        Geometry wide = Geometry.grouped(Geometry.strided(0, block, 64 * block, 8), 64, block);
        for (int rank = 0; rank < 64; rank++) {
            for (int s = 0; s < 8; s++) {
                assertEquals((long) rank * 8 * block + s * block, wide.positionOf(rank * block + s * 64 * block));
            }
        }
    }

    @Test
    void ordinaryGeometriesAreOneGroupAndUnchanged() {
        Geometry g = Geometry.strided(100, 4, 16, 3);
        assertEquals(1, g.groups());
        assertEquals(0, g.groupStride());
        assertSame(g, g.groupBase());
        assertSame(g, Geometry.grouped(g, 1, 12345));
        assertEquals("start=100, cycle=4@0, (stride=16 x3), 12 bytes", g.describe());
        assertEquals("Spec[start=100, seg=[0]/[4], strides=[16], counts=[3], totalBytes=12]", g.spec().toString());
        assertEquals(new Geometry.Spec(100, new long[]{0}, new long[]{4}, new long[]{16}, new long[]{3}, 12, 1, 0), g.spec());
    }

    @Test
    void invalidGroupingsAreRefusedNamingTheRule() {
        Geometry base = Geometry.strided(0, 16, 64, 4);
        assertMessage("copies 0 < 1", () -> Geometry.grouped(base, 0, 16));
        assertMessage("< the cycle's span 16", () -> Geometry.grouped(base, 2, 8));
        assertMessage("groupStride 0 <= 0", () -> Geometry.grouped(base, 2, 0));
        assertMessage("exceeds the innermost stride 64", () -> Geometry.grouped(base, 4, 20));
        Geometry.grouped(base, 4, 16); // exactly fills the period
        Geometry crooked = Geometry.of(new Geometry.Spec(0, new long[]{0}, new long[]{4}, new long[]{16, 40}, new long[]{2, 2}, 16));
        assertMessage("stride 40 is not a multiple of the innermost stride 16", () -> Geometry.grouped(crooked, 2, 4));
        Geometry grouped = Geometry.grouped(base, 2, 16);
        assertMessage("cannot group a grouped geometry", () -> Geometry.grouped(grouped, 2, 16));
        assertMessage("cannot group a grouped geometry", () -> Geometry.grouped(grouped, 1, 16));
        assertMessage("needs a base with >= 1 level", () -> Geometry.grouped(Geometry.contiguous(0, 10), 2, 10));
        // the same rules when a grouped spec is read back
        assertMessage("groups 0 < 1", () -> Geometry.of(new Geometry.Spec(0, new long[]{0}, new long[]{16}, new long[]{64}, new long[]{4}, 64, 0, 0)));
        assertMessage("is not 3 equal copies", () -> Geometry.of(new Geometry.Spec(0, new long[]{0}, new long[]{16}, new long[]{64}, new long[]{4}, 128, 3, 16)));
        assertMessage("an ungrouped spec (groups 1) has groupStride 0", () -> Geometry.of(new Geometry.Spec(0, new long[]{0}, new long[]{16}, new long[]{64}, new long[]{4}, 64, 1, 16)));
        assertMessage("exceeds the innermost stride 64", () -> Geometry.of(new Geometry.Spec(0, new long[]{0}, new long[]{16}, new long[]{64}, new long[]{4}, 256, 4, 20)));
    }

    private static void assertMessage(String part, org.junit.jupiter.api.function.Executable call) {
        assertMessage(IllegalArgumentException.class, part, call);
    }

    private static void assertIndexMessage(String part, org.junit.jupiter.api.function.Executable call) {
        assertMessage(IndexOutOfBoundsException.class, part, call);
    }

    private static void assertMessage(Class<? extends RuntimeException> type, String part, org.junit.jupiter.api.function.Executable call) {
        RuntimeException e = assertThrows(type, call);
        assertTrue(e.getMessage().contains(part), "'" + e.getMessage() + "' does not say '" + part + "'");
    }
}
