package io.pdla.collective;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ROMIO's automatic rule ("aggregate when the ranks' requests interleave") decides every collective call; the engine
 * compares pairs in place for a few ranks and sorts for many. Both must decide alike, empty requests must never count.
 */
class InterleaveDecisionTest {
    private static long[] rows(long[]... bounds) {
        long[] all = new long[bounds.length * TwoPhaseEngine.ROW];
        for (int r = 0; r < bounds.length; r++) {
            long[] b = bounds[r];
            int at = r * TwoPhaseEngine.ROW;
            if (b == null) {
                all[at] = -1;
                all[at + 1] = -1;
                continue; // no bytes: the engine sends -1, -1, 0
            }
            all[at] = b[0];
            all[at + 1] = b[1];
            all[at + 2] = b[1] - b[0];
        }
        return all;
    }

    @Test
    void sideBySideRequestsDoNotInterleaveAndOverlappingOnesDo() {
        // IOR -c: rank r's 16 KiB at r * 16 KiB, touching but not overlapping
        long[] side = rows(new long[]{0, 16384}, new long[]{16384, 32768}, new long[]{32768, 49152}, new long[]{49152, 65536});
        assertFalse(TwoPhaseEngine.anyTwoOverlap(side, 4));
        assertFalse(TwoPhaseEngine.overlapAfterSorting(side, 4, 4));
        // the same in reverse rank order
        long[] reversed = rows(new long[]{49152, 65536}, new long[]{32768, 49152}, new long[]{16384, 32768}, new long[]{0, 16384});
        assertFalse(TwoPhaseEngine.anyTwoOverlap(reversed, 4));
        // strided views: each rank's span covers the others'
        long[] strided = rows(new long[]{0, 1000}, new long[]{10, 1010}, new long[]{20, 1020});
        assertTrue(TwoPhaseEngine.anyTwoOverlap(strided, 3));
        assertTrue(TwoPhaseEngine.overlapAfterSorting(strided, 3, 3));
        // one range inside another, and equal starts
        assertTrue(TwoPhaseEngine.anyTwoOverlap(rows(new long[]{0, 100}, new long[]{40, 50}), 2));
        assertTrue(TwoPhaseEngine.anyTwoOverlap(rows(new long[]{7, 8}, new long[]{7, 9}), 2));
        // an empty request inside another rank's span does not interleave
        assertFalse(TwoPhaseEngine.anyTwoOverlap(rows(new long[]{0, 100}, null, new long[]{100, 200}), 3));
        assertFalse(TwoPhaseEngine.overlapAfterSorting(rows(new long[]{0, 100}, null, new long[]{100, 200}), 3, 2));
    }

    @Test
    void comparingPairsDecidesAsSortingDoesOnRandomBounds() {
        Random random = new Random(20261129);
        for (int trial = 0; trial < 20000; trial++) {
            int np = 1 + random.nextInt(20);
            long[][] bounds = new long[np][];
            int n = 0;
            for (int r = 0; r < np; r++) {
                if (random.nextInt(5) == 0) continue; // a rank with nothing to move
                long first = random.nextInt(np * 40);
                bounds[r] = new long[]{first, first + 1 + random.nextInt(60)};
                n++;
            }
            long[] all = rows(bounds);
            assertEquals(TwoPhaseEngine.overlapAfterSorting(all, np, n), TwoPhaseEngine.anyTwoOverlap(all, np),
                    "trial " + trial + ": " + java.util.Arrays.deepToString(bounds));
        }
    }
}
