package io.pdla.costmodel;

import io.pdla.storage.Layout.Distribution;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LayoutCostModelTest {

    /** S4's tool defaults (formulas.md 1.3): e = 0.3 ms, v = b = 1/(120 MiB/s), a = 0.1 ms. */
    private static final double MIB_RATE = 1.0 / (120.0 * 1024 * 1024);
    private static final ModelParameters S4 = new ModelParameters(
            new NetworkParameters(0.0003, MIB_RATE), new DeviceParameters(0.0001, MIB_RATE),
            new DeviceParameters(0.0001, MIB_RATE), new DeviceParameters(0.0001, MIB_RATE));
    /** formulas.md 1.6 prints six decimals. */
    private static final double TABLE_ROUNDING = 5e-7;

    /**
     * The worked example of formulas.md 1.6, computed there by hand from the printed formulas, independently
     * of this code. Columns: p, n, m, s, T1V, T1H, T2D(g=2) and T2D(g=4) with the printed and the derived
     * connection term.
     */
    @ParameterizedTest
    @CsvSource({
        "8,   8, 1, 16384,   0.000660, 0.003460, 0.001860, 0.001060, 0.001860, 0.001060",
        "64,  8, 8, 262144,  0.036533, 0.058933, 0.055733, 0.054133, 0.046133, 0.039733",
        "4,   8, 1, 4194304, 0.067067, 0.052800, 0.050800, 0.050400, 0.051400, 0.050700",
        "512, 8, 8, 16384,   0.042267, 0.221467, 0.195867, 0.183067, 0.119067, 0.067867"})
    void matchesTheHandComputedTableOfTheReference(int p, int n, int m, long s, double t1v, double t1h,
                                                   double printed2, double printed4,
                                                   double derived2, double derived4) {
        LayoutCostModel printed = LayoutCostModel.hdd(S4, n, TwoDConnectionTerm.PRINTED);
        LayoutCostModel derived = LayoutCostModel.hdd(S4, n, TwoDConnectionTerm.DERIVED);
        assertEquals(t1v, derived.requestSeconds(Distribution.ONE_DV, n, p, m, s, Op.READ), TABLE_ROUNDING);
        assertEquals(t1h, derived.requestSeconds(Distribution.ONE_DH, 1, p, m, s, Op.READ), TABLE_ROUNDING);
        assertEquals(printed2, printed.requestSeconds(Distribution.TWO_D, 2, p, m, s, Op.READ), TABLE_ROUNDING);
        assertEquals(printed4, printed.requestSeconds(Distribution.TWO_D, 4, p, m, s, Op.READ), TABLE_ROUNDING);
        assertEquals(derived2, derived.requestSeconds(Distribution.TWO_D, 2, p, m, s, Op.READ), TABLE_ROUNDING);
        assertEquals(derived4, derived.requestSeconds(Distribution.TWO_D, 4, p, m, s, Op.READ), TABLE_ROUNDING);
    }

    @Test
    void patternCostIsTheSumOverItsRounds() {
        LayoutCostModel model = LayoutCostModel.hdd(ModelParameters.defaults(), 8);
        AccessPattern mixed = new AccessPattern(16, 2, List.of(
                new RequestBatch(16384, 5, Op.READ), new RequestBatch(4 << 20, 3, Op.WRITE)));
        for (LayoutCostModel.Candidate c : model.candidates()) {
            double expected = 5 * model.requestSeconds(c.layout(), c.groups(), 16, 2, 16384, Op.READ)
                    + 3 * model.requestSeconds(c.layout(), c.groups(), 16, 2, 4 << 20, Op.WRITE);
            assertEquals(expected, model.patternSeconds(c.layout(), c.groups(), mixed), 1e-12 * expected);
        }
    }

    @Test
    void bestIsTheMinimumOverAllCandidates() {
        LayoutCostModel model = LayoutCostModel.hdd(ModelParameters.defaults(), 12);
        AccessPattern pattern = AccessPattern.of(6, 1, 1 << 20, 10, Op.READ);
        LayoutChoice best = model.best(pattern);
        for (LayoutChoice c : model.rank(pattern)) {
            assertTrue(best.seconds() <= c.seconds(), () -> best + " vs " + c);
        }
    }

    @Test
    void twoDCandidatesAreTheProperDivisorsOfTheServerCount() {
        List<LayoutCostModel.Candidate> twelve = LayoutCostModel.hdd(ModelParameters.defaults(), 12).candidates();
        assertEquals(List.of(new LayoutCostModel.Candidate(Distribution.ONE_DH, 1),
                new LayoutCostModel.Candidate(Distribution.ONE_DV, 12),
                new LayoutCostModel.Candidate(Distribution.TWO_D, 2), new LayoutCostModel.Candidate(Distribution.TWO_D, 3),
                new LayoutCostModel.Candidate(Distribution.TWO_D, 4), new LayoutCostModel.Candidate(Distribution.TWO_D, 6)),
                twelve);
        assertEquals(2, LayoutCostModel.hdd(ModelParameters.defaults(), 7).candidates().size());
    }

    @Test
    void ssdWritesCostMoreThanReadsWithTheDefaults() {
        LayoutCostModel ssd = LayoutCostModel.ssd(ModelParameters.defaults(), 4);
        for (LayoutCostModel.Candidate c : ssd.candidates()) {
            for (long s : new long[] {4096, 1 << 20}) {
                assertTrue(ssd.requestSeconds(c.layout(), c.groups(), 8, 1, s, Op.WRITE)
                        > ssd.requestSeconds(c.layout(), c.groups(), 8, 1, s, Op.READ), c + " s=" + s);
            }
        }
    }

    @Test
    void hddIgnoresTheDirection() {
        LayoutCostModel hdd = LayoutCostModel.hdd(ModelParameters.defaults(), 8);
        assertEquals(hdd.requestSeconds(Distribution.TWO_D, 4, 8, 1, 65536, Op.READ),
                hdd.requestSeconds(Distribution.TWO_D, 4, 8, 1, 65536, Op.WRITE));
    }

    @Test
    void partsAddUpAndOnlyTheStoragePartDependsOnTheDevice() {
        ModelParameters base = ModelParameters.defaults();
        ModelParameters slowDisk = base.withHdd(new DeviceParameters(0.1, 1e-6));
        CostParts a = LayoutCostModel.hdd(base, 8).requestParts(Distribution.ONE_DH, 1, 16, 2, 65536, Op.READ);
        CostParts b = LayoutCostModel.hdd(slowDisk, 8).requestParts(Distribution.ONE_DH, 1, 16, 2, 65536, Op.READ);
        assertEquals(a.networkSeconds(), b.networkSeconds());
        assertTrue(b.storageSeconds() > a.storageSeconds());
        assertEquals(a.networkSeconds() + a.storageSeconds(), a.totalSeconds());
    }

    @Test
    void costGrowsWithRequestSizeForEveryLayout() {
        LayoutCostModel model = LayoutCostModel.hdd(ModelParameters.defaults(), 16);
        for (LayoutCostModel.Candidate c : model.candidates()) {
            double previous = 0;
            for (long s = 1024; s <= (64 << 20); s *= 4) {
                double t = model.requestSeconds(c.layout(), c.groups(), 24, 3, s, Op.READ);
                assertTrue(t > previous, c + " s=" + s);
                previous = t;
            }
        }
    }

    /**
     * The explicit p &le; n / p &gt; n cases of S4 (formulas.md 1.3) for 1-DV, written out independently of the
     * max() form the model uses.
     */
    @Test
    void oneDVAgreesWithTheCaseFormForPBelowAndAboveN() {
        ModelParameters d = ModelParameters.defaults();
        double e = d.network().connectSeconds();
        double v = d.network().secondsPerByte();
        double a = d.hdd().startupSeconds();
        double b = d.hdd().secondsPerByte();
        for (int n : new int[] {1, 3, 8, 16}) {
            LayoutCostModel model = LayoutCostModel.hdd(d, n);
            for (int p = 1; p <= 5 * n; p++) {
                for (int m : new int[] {1, 2, 8}) {
                    for (long s : new long[] {512, 65536, 8 << 20}) {
                        long perServer = (p + n - 1) / n;
                        double network;
                        if (p <= n) {
                            network = m * e + m * s * v;
                        } else if (m <= perServer) {
                            network = perServer * e + perServer * s * v;
                        } else {
                            network = m * e + m * s * v;
                        }
                        double expected = perServer * a + perServer * s * b + network;
                        assertEquals(expected, model.requestSeconds(Distribution.ONE_DV, n, p, m, s, Op.READ),
                                1e-12 * expected, "n=" + n + " p=" + p + " m=" + m + " s=" + s);
                    }
                }
            }
        }
    }
}
