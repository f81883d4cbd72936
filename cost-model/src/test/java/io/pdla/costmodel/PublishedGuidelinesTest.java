package io.pdla.costmodel;

import io.pdla.storage.Layout.Distribution;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The three layout guidelines of S1 3.4.2 (formulas.md 1.4), checked over ranges of p, n and s with the
 * documented default parameters. Where the published formulas themselves contradict the prose of a guideline,
 * the test states the range in which the formulas do support it and a second test pins down the reason, so a
 * change of the formulas cannot silently move the boundary.
 */
class PublishedGuidelinesTest {

    private static final ModelParameters DEFAULTS = ModelParameters.defaults();
    /** Size at which one disk start-up costs as much as the transfer: a/b = 960 KB with the defaults. */
    private static final double BREAK_EVEN_BYTES =
            DEFAULTS.hdd().startupSeconds() / DEFAULTS.hdd().secondsPerByte();
    private static final int[] SERVER_COUNTS = {4, 8, 16, 32, 64};

    /**
     * Guideline 3: p &gt; n and relatively small s → 1-DV. "Small" = at most a quarter of a/b
     * (s ≤ 256 KiB with the defaults); p from n+1 to 16n, including non-multiples of n.
     */
    @ParameterizedTest
    @EnumSource(TwoDConnectionTerm.class)
    void manyMoreProcessesThanServersAndSmallRequestsChoose1DV(TwoDConnectionTerm term) {
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (int n : SERVER_COUNTS) {
            LayoutCostModel model = LayoutCostModel.hdd(DEFAULTS, n, term);
            TreeSet<Integer> ps = new TreeSet<>(List.of(n + 1, n + n / 4, n + n / 2, 2 * n, 3 * n, 4 * n,
                    8 * n, 16 * n));
            for (int p : ps) {
                for (int m : new int[] {1, 4}) {
                    for (long s = 4096; s <= BREAK_EVEN_BYTES / 4 + 1; s *= 2) {
                        LayoutChoice best = model.best(p, m, s, Op.READ);
                        checked++;
                        if (best.layout() != Distribution.ONE_DV) {
                            failures.add("n=" + n + " p=" + p + " m=" + m + " s=" + s + " -> " + best.describe());
                        }
                    }
                }
            }
        }
        assertTrue(checked > 300, "range too small: " + checked);
        assertEquals(List.of(), failures);
    }

    /**
     * Guideline 2: p ≈ n and medium s → 2-D. The formulas give 2-D for n/4 ≤ p ≤ n/2 and s from 16 KiB to
     * 4 MiB (about s/64 to 4 a/b), for every n from 8 to 64. At p = n itself they never do: see
     * {@link #atPEqualsNThe2DLayoutNeverBeats1DV()}.
     */
    @ParameterizedTest
    @EnumSource(TwoDConnectionTerm.class)
    void processesWithinAFactorFourBelowTheServersAndMediumRequestsChoose2D(TwoDConnectionTerm term) {
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (int n : new int[] {8, 16, 32, 64}) {
            LayoutCostModel model = LayoutCostModel.hdd(DEFAULTS, n, term);
            for (int p = n / 4; p <= n / 2; p++) {
                for (long s = 16384; s <= 4L << 20; s *= 2) {
                    LayoutChoice best = model.best(p, 1, s, Op.READ);
                    checked++;
                    if (best.layout() != Distribution.TWO_D) {
                        failures.add("n=" + n + " p=" + p + " s=" + s + " -> " + best.describe());
                    }
                }
            }
        }
        assertTrue(checked > 200, "range too small: " + checked);
        assertEquals(List.of(), failures);
    }

    /**
     * Why guideline 2 fails at p = n: each server then holds one process's request under 1-DV (one start-up,
     * s bytes), while 2-D gives it ceil(p/g) &gt; 1 start-ups for the same s bytes, and 2-D's connection and
     * transfer terms are never smaller. This holds for every s and every parameter set.
     */
    @Test
    void atPEqualsNThe2DLayoutNeverBeats1DV() {
        for (int n : SERVER_COUNTS) {
            LayoutCostModel model = LayoutCostModel.hdd(DEFAULTS, n);
            for (long s = 1024; s <= (256L << 20); s *= 4) {
                double oneDV = model.requestSeconds(Distribution.ONE_DV, n, n, 1, s, Op.READ);
                for (LayoutCostModel.Candidate c : model.candidates()) {
                    if (c.layout() == Distribution.TWO_D) {
                        assertTrue(oneDV < model.requestSeconds(c.layout(), c.groups(), n, 1, s, Op.READ),
                                "n=p=" + n + " s=" + s + " g=" + c.groups());
                    }
                }
            }
        }
    }

    /**
     * Guideline 1: p &lt; n and very large s → 1-DH. In the formulas it holds as the best layout overall for
     * p = 1 (S2's "p much smaller than n") once s exceeds n²·e/(2b), where 1-DH's byte share s/n beats the
     * best 2-D's 2s/n despite n/2 more connections; checked here with a factor of two margin.
     */
    @Test
    void aSingleProcessWithVeryLargeRequestsChooses1DH() {
        List<String> failures = new ArrayList<>();
        double e = DEFAULTS.network().connectSeconds();
        double b = DEFAULTS.hdd().secondsPerByte();
        for (int n = 2; n <= 64; n++) {
            LayoutCostModel model = LayoutCostModel.hdd(DEFAULTS, n);
            long threshold = (long) Math.ceil(2 * n * n * e / (2 * b));
            for (long s = Math.max(threshold, 1 << 20); s <= (1L << 30); s *= 4) {
                LayoutChoice best = model.best(1, 1, s, Op.READ);
                if (best.layout() != Distribution.ONE_DH) {
                    failures.add("n=" + n + " s=" + s + " -> " + best.describe());
                }
            }
        }
        assertEquals(List.of(), failures);
    }

    /**
     * Guideline 1, the part that holds for every p ≤ n/2: with very large s (at least n·a/b) striping over all
     * servers beats putting each process on one server, because each server then carries p/n·s bytes instead
     * of s, which outweighs the extra p-1 start-ups.
     */
    @Test
    void fewProcessesWithVeryLargeRequestsPrefer1DHTo1DV() {
        for (int n : SERVER_COUNTS) {
            LayoutCostModel model = LayoutCostModel.hdd(DEFAULTS, n);
            for (int p = 1; p <= n / 2; p++) {
                for (long s = (long) (n * BREAK_EVEN_BYTES); s <= 16 * n * BREAK_EVEN_BYTES; s *= 2) {
                    double oneDH = model.requestSeconds(Distribution.ONE_DH, 1, p, 1, s, Op.READ);
                    double oneDV = model.requestSeconds(Distribution.ONE_DV, n, p, 1, s, Op.READ);
                    assertTrue(oneDH < oneDV, "n=" + n + " p=" + p + " s=" + s);
                }
            }
        }
    }

    /**
     * Why guideline 1 does not hold as the overall choice for 1 &lt; p &lt; n when p divides n: 2-D with
     * g = p groups puts one process on each group of n/p servers, the same bytes per server as 1-DH with one
     * start-up instead of p, and fewer connections. So the formulas prefer 2-D there at every s.
     */
    @Test
    void whenPDividesNTwoDWithPGroupsNeverCostsMoreThan1DH() {
        for (int n : SERVER_COUNTS) {
            LayoutCostModel model = LayoutCostModel.hdd(DEFAULTS, n);
            for (int p = 2; p < n; p++) {
                if (n % p != 0) {
                    continue;
                }
                for (long s = 1024; s <= (1L << 30); s *= 4) {
                    double twoD = model.requestSeconds(Distribution.TWO_D, p, p, 1, s, Op.READ);
                    double oneDH = model.requestSeconds(Distribution.ONE_DH, 1, p, 1, s, Op.READ);
                    assertTrue(twoD < oneDH, "n=" + n + " p=" + p + " s=" + s);
                }
            }
        }
    }
}
