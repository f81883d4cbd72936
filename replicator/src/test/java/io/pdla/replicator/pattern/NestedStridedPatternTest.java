package io.pdla.replicator.pattern;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Property tests of the closed form against materialised extents (seeded; the seed is printed). */
class NestedStridedPatternTest {
    static final PatternKey KEY = new PatternKey("app", 4, 1, URI.create("file:/tmp/x"));

    /** Materialises blocks by the definition, recursively, independent of the class's odometer and radix code. */
    static List<long[]> materialise(long start, long size, List<NestedStridedPattern.Level> levels) {
        List<long[]> out = new ArrayList<>();
        walk(start, size, levels, levels.size() - 1, out);
        return out;
    }

    private static void walk(long off, long size, List<NestedStridedPattern.Level> levels, int level, List<long[]> out) {
        if (level < 0) {
            out.add(new long[]{off, size});
            return;
        }
        for (long k = 0; k < levels.get(level).count(); k++) walk(off + k * levels.get(level).stride(), size, levels, level - 1, out);
    }

    /** A random mixed-radix pattern: tiles, strides, negative strides, contiguous. */
    static NestedStridedPattern random(Random rnd) {
        long size = 1 + rnd.nextInt(12);
        int depth = rnd.nextInt(4);
        List<Long> spans = new ArrayList<>();
        List<NestedStridedPattern.Level> inner = new ArrayList<>();
        long span = size;
        for (int i = 0; i < depth; i++) {
            long count = 1 + rnd.nextInt(4);
            long stride = span + rnd.nextInt(6);
            inner.add(new NestedStridedPattern.Level(rnd.nextInt(4) == 0 ? -stride : stride, count));
            span = stride * (count - 1) + span;
            spans.add(span);
        }
        // shuffle level order sometimes: the pattern order need not follow stride order (tiles)
        if (depth >= 2 && rnd.nextBoolean()) java.util.Collections.swap(inner, 0, 1);
        long reach = 0;
        for (NestedStridedPattern.Level l : inner) if (l.stride() < 0) reach += -l.stride() * (l.count() - 1);
        long start = reach + rnd.nextInt(20);
        return new NestedStridedPattern(KEY, start, size, inner);
    }

    @Test
    void closedFormAgreesWithMaterialisedExtents() {
        long seed = System.nanoTime();
        System.out.println("NestedStridedPatternTest seed=" + seed);
        Random rnd = new Random(seed);
        for (int t = 0; t < 400; t++) {
            NestedStridedPattern p = random(rnd);
            String where = "seed " + seed + " case " + t + " " + p.describe();
            List<long[]> blocks = materialise(p.start(), p.blockSize(), p.levels());
            Map<Long, Long> position = new HashMap<>();
            long pos = 0;
            for (long[] b : blocks) for (long i = 0; i < b[1]; i++) position.put(b[0] + i, pos++);
            assertEquals(pos, p.totalBytes(), where);
            List<long[]> streamed = new ArrayList<>();
            p.forEachExtent((o, l) -> streamed.add(new long[]{o, l}));
            assertEquals(blocks.size(), streamed.size(), where);
            for (int i = 0; i < blocks.size(); i++) assertEquals(blocks.get(i)[0], streamed.get(i)[0], where + " block " + i);
            long end = 0;
            for (long[] b : blocks) end = Math.max(end, b[0] + b[1]);
            for (long off = 0; off < end + 8; off++) {
                long expected = position.getOrDefault(off, -1L);
                assertEquals(expected, p.positionOf(off), where + " offset " + off);
                if (expected >= 0) assertEquals(off, p.offsetAt(expected), where + " position " + expected);
                long next = -1;
                for (long o = off; o < end; o++) if (position.containsKey(o)) { next = o; break; }
                assertEquals(next, p.nextCoveredOffset(off), where + " next after " + off);
            }
            for (int r = 0; r < 20; r++) {
                long off = rnd.nextInt((int) end + 4);
                long len = 1 + rnd.nextInt((int) end + 4);
                long o = off;
                for (Segment s : p.map(off, len)) {
                    assertEquals(o, s.offset(), where + " map contiguity");
                    for (long i = 0; i < s.length(); i++) {
                        long want = position.getOrDefault(s.offset() + i, -1L);
                        assertEquals(want, s.inPattern() ? s.replicaOffset() + i : -1, where + " map(" + off + "," + len + ") byte " + (s.offset() + i));
                    }
                    o += s.length();
                }
                assertEquals(off + len, o, where + " map covers the request");
                boolean any = false;
                for (long i = off; i < off + len; i++) any |= position.containsKey(i);
                assertEquals(any, p.overlaps(off, len), where);
            }
            assertEquals(p, PatternCodec.decode(p.encode()), where + " codec round trip");
        }
    }

    @Test
    void tilesOfA2DArrayAreOneClosedForm() {
        // 4x4 tiles of a 16x16-byte array, tile (1,2): rows of 4 bytes, 16 bytes apart
        NestedStridedPattern tile = new NestedStridedPattern(KEY, 1 * 4 * 16 + 2 * 4, 4, List.of(new NestedStridedPattern.Level(16, 4)));
        assertEquals(16, tile.totalBytes());
        assertEquals(0, tile.positionOf(72));
        assertEquals(4, tile.positionOf(88));
        assertEquals(-1, tile.positionOf(76));
        assertEquals(88, tile.nextCoveredOffset(76));
    }

    @Test
    void overlappingBlocksAreRefusedWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NestedStridedPattern.strided(KEY, 0, 8, 4, 3));
        assertTrue(e.getMessage().contains("overlap"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> NestedStridedPattern.strided(KEY, 0, 4, -8, 3));
    }

    @Test
    void patternKeyIdRoundTrips() {
        PatternKey k = new PatternKey("java -cp x Main a|b", 8, PatternKey.ALL_RANKS, URI.create("file:/data/f"));
        assertEquals(k, PatternKey.parse(k.id()));
        assertEquals(k, PatternKey.fromBytes(k.toBytes()));
    }
}
