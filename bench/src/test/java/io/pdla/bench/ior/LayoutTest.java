package io.pdla.bench.ior;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layout against an independent construction: walk the file front to back the way IOR's segmented
 * layout fills it (segment by segment, rank by rank, transfer by transfer) and note whose transfer each
 * position is.
 */
class LayoutTest {
    private record Slot(int rank, int segment, long k) {
    }

    /** Shared file: position cursor advances through segments, then ranks, then transfers. */
    private static Map<Slot, Long> walkShared(int np, long b, long t, int s) {
        Map<Slot, Long> m = new HashMap<>();
        long cursor = 0;
        for (int seg = 0; seg < s; seg++) {
            for (int r = 0; r < np; r++) {
                for (long k = 0; k < b / t; k++) {
                    m.put(new Slot(r, seg, k), cursor);
                    cursor += t;
                }
            }
        }
        assertEquals(np * b * s, cursor);
        return m;
    }

    @ParameterizedTest(name = "np={0} b={1} t={2} s={3}")
    @CsvSource({"1,4096,4096,1", "2,65536,16384,4", "4,16384,16384,16", "3,12288,4096,5"})
    void sharedFileIsSegmented(int np, long b, long t, int s) {
        Layout layout = new Layout(np, b, t, s, false);
        Map<Slot, Long> expected = walkShared(np, b, t, s);
        for (Map.Entry<Slot, Long> e : expected.entrySet()) {
            Slot x = e.getKey();
            assertEquals(e.getValue(), layout.offset(x.rank, x.segment, x.k), x.toString());
        }
        assertEquals(np * b * s, layout.aggregateBytes());
        assertEquals(b * s, layout.bytesPerRank());
        assertEquals("base", layout.fileName("base", 1));
    }

    @ParameterizedTest(name = "np={0} b={1} t={2} s={3}")
    @CsvSource({"2,65536,16384,4", "4,8192,1024,3"})
    void filePerProcessIsContiguousPerFile(int np, long b, long t, int s) {
        Layout layout = new Layout(np, b, t, s, true);
        Set<String> files = new HashSet<>();
        for (int r = 0; r < np; r++) {
            files.add(layout.fileName("base", r));
            long cursor = 0;
            for (int seg = 0; seg < s; seg++) {
                for (long k = 0; k < b / t; k++) {
                    assertEquals(cursor, layout.offset(r, seg, k));
                    cursor += t;
                }
            }
        }
        assertEquals(np, files.size(), "one file per rank");
        assertEquals("base.00000003", layout.fileName("base", 3));
    }

    @Test
    void reorderReadsTheSuccessorsData() {
        int np = 4;
        long b = 8192, t = 4096;
        int s = 3;
        Layout layout = new Layout(np, b, t, s, false);
        for (int r = 0; r < np; r++) {
            int reader = r;
            int source = layout.readRank(reader, true);
            assertEquals((r + 1) % np, source);
            assertEquals(r, layout.readRank(r, false));
            // the reader's offsets are exactly those the source rank wrote
            List<Long> read = new ArrayList<>(), written = new ArrayList<>();
            for (int seg = 0; seg < s; seg++) {
                for (long k = 0; k < b / t; k++) {
                    read.add(layout.offset(source, seg, k));
                }
            }
            walkShared(np, b, t, s).forEach((slot, off) -> {
                if (slot.rank == source) written.add(off);
            });
            assertEquals(new HashSet<>(written), new HashSet<>(read));
            assertEquals(written.size(), read.size());
        }
        assertEquals(0, layout.readRank(3, true), "wraps around");
    }

    @Test
    void patternDependsOnWriterAndStampsOffset() {
        byte[] a = Pattern.filled(0, 64), b = Pattern.filled(1, 64);
        assertTrue(Pattern.mismatch(a, b, 64) >= 0, "ranks write different data");
        Pattern.stamp(a, 0x0102030405060708L);
        assertEquals(1, a[0]);
        assertEquals(8, a[7]);
        byte[] c = Pattern.filled(0, 64);
        assertEquals(0, Pattern.mismatch(c, a, 64), "only the stamp differs");
        assertEquals(-1, Pattern.mismatch(Pattern.filled(5, 100), Pattern.filled(5, 100), 100));
    }
}
