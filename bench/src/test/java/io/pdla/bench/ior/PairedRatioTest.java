package io.pdla.bench.ior;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PairedRatioTest {
    private static IterationPoint point(String backend, String op, int it, double seconds) {
        return IterationPoint.of(backend, op, it, 1 << 20, 1, seconds, 0, seconds, 0);
    }

    @Test
    void eachIterationIsComparedWithItsOwnPartnerAndTheMedianIgnoresOneSlowPair() {
        List<IterationPoint> points = new ArrayList<>();
        // the traced side 2 % slower in every iteration; iteration 2 is slow on both sides (a disk hiccup)
        double[] untraced = {0.010, 0.011, 0.050, 0.010, 0.012};
        for (int i = 0; i < untraced.length; i++) {
            points.add(point(Reports.SHIM, "read", i, untraced[i]));
            points.add(point(Reports.TRACED, "read", i, untraced[i] * 1.02));
        }
        points.add(point(Reports.SHIM, "write", 0, 0.01));   // no traced write: no pair
        List<IorReport.PairedRatio> paired = Reports.paired(points);
        assertEquals(1, paired.size(), paired.toString());
        IorReport.PairedRatio r = paired.get(0);
        assertEquals(Reports.TRACED, r.numerator());
        assertEquals(Reports.SHIM, r.denominator());
        assertEquals("read", r.operation());
        assertEquals(5, r.iterations());
        assertEquals(1 / 1.02, r.median(), 1e-9);
        assertTrue(r.min() <= r.median() && r.median() <= r.max());
    }

    @Test
    void anEvenNumberOfPairsTakesTheMeanOfTheMiddleTwo() {
        List<IterationPoint> points = new ArrayList<>();
        double[] ratios = {0.5, 1.0, 2.0, 4.0};
        for (int i = 0; i < ratios.length; i++) {
            points.add(point(Reports.BASELINE, "write", i, 1.0));
            points.add(point(Reports.SHIM, "write", i, 1.0 / ratios[i]));
        }
        IorReport.PairedRatio r = Reports.paired(points).get(0);
        assertEquals(1.5, r.median(), 1e-9);
        assertEquals(0.5, r.min(), 1e-9);
        assertEquals(4.0, r.max(), 1e-9);
    }
}
