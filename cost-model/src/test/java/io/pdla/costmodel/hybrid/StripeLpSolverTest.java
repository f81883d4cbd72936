package io.pdla.costmodel.hybrid;

import io.pdla.storage.Layout.Distribution;
import io.pdla.costmodel.LayoutCostModel;
import io.pdla.costmodel.ModelParameters;
import io.pdla.costmodel.Op;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StripeLpSolverTest {

    private static final ModelParameters P = ModelParameters.defaults();
    /** Floating-point slack when comparing two evaluations of the same cost function. */
    private static final double RELATIVE_EPS = 1e-9;
    /** Search points per case: fine enough to be exact up to the Lipschitz bound, cheap enough for a unit test. */
    private static final int SEARCH_POINTS = 4000;

    /**
     * Upper bound of |d cost / d s_h| over the feasible range: moving s_h by one byte moves n_h/n_s bytes on each
     * SServer, changing the transfer term by at most p*v*(1 + n_h/n_s) and the storage term by at most
     * p*(b_h + b_s*n_h/n_s).
     */
    private static double lipschitz(int p, int nh, int ns, Op op) {
        double ratio = (double) nh / ns;
        return p * (P.network().secondsPerByte() * (1 + ratio) + P.hdd().secondsPerByte()
                + P.ssd(op).secondsPerByte() * ratio);
    }

    @Test
    void lpOptimumEqualsDirectSearchOptimumOnAGrid() {
        StripeLpSolver lp = new StripeLpSolver();
        List<String> failures = new ArrayList<>();
        double worstRelativeGap = 0;
        int cases = 0;
        for (int nh : new int[] {1, 2, 4, 8, 16}) {
            for (int ns : new int[] {1, 2, 4, 8}) {
                HybridCostModel model = new HybridCostModel(P, nh, ns);
                for (long s : new long[] {4096, 65536, 1 << 20, 4 << 20, 64 << 20}) {
                    double step = Math.max(1, s / (double) nh / SEARCH_POINTS);
                    DirectStripeSearch search = new DirectStripeSearch(step);
                    for (int p : new int[] {1, 16, 128}) {
                        for (int m : new int[] {1, 8}) {
                            for (Op op : Op.values()) {
                                StripeSplit byLp = lp.solve(model, p, m, s, op);
                                StripeSplit bySearch = search.search(model, p, m, s, op);
                                cases++;
                                double slack = RELATIVE_EPS * byLp.seconds();
                                double bound = lipschitz(p, nh, ns, op) * step + slack;
                                // the LP is the exact optimum: the search can match it but not beat it
                                boolean ok = bySearch.seconds() >= byLp.seconds() - slack
                                        && bySearch.seconds() - byLp.seconds() <= bound
                                        && Math.abs(nh * byLp.hServerStripe() + ns * byLp.sServerStripe() - s)
                                        <= RELATIVE_EPS * s;
                                worstRelativeGap = Math.max(worstRelativeGap,
                                        Math.abs(bySearch.seconds() - byLp.seconds()) / byLp.seconds());
                                if (!ok) {
                                    failures.add("nh=" + nh + " ns=" + ns + " s=" + s + " p=" + p + " m=" + m
                                            + " " + op + ": lp=" + byLp + " search=" + bySearch);
                                }
                            }
                        }
                    }
                }
            }
        }
        assertEquals(5 * 4 * 5 * 3 * 2 * 2, cases);
        assertEquals(List.of(), failures);
        assertTrue(worstRelativeGap < 1e-3, "worst gap " + worstRelativeGap);
    }

    @Test
    void thePublishedFourKilobyteSearchAgreesWithinOneStepOfSlope() {
        StripeLpSolver lp = new StripeLpSolver();
        DirectStripeSearch published = new DirectStripeSearch(DirectStripeSearch.PUBLISHED_STEP_BYTES);
        for (long s : new long[] {1 << 20, 4 << 20, 16 << 20}) {
            HybridCostModel model = new HybridCostModel(P, 8, 4);
            StripeSplit byLp = lp.solve(model, 128, 16, s, Op.READ);
            StripeSplit bySearch = published.search(model, 128, 16, s, Op.READ);
            assertTrue(bySearch.seconds() - byLp.seconds()
                    <= lipschitz(128, 8, 4, Op.READ) * DirectStripeSearch.PUBLISHED_STEP_BYTES, "s=" + s);
            assertTrue(bySearch.seconds() >= byLp.seconds() * (1 - RELATIVE_EPS), "s=" + s);
        }
    }

    @Test
    void withoutSServersTheHybridModelIsTheHdd1DHModel() {
        StripeLpSolver lp = new StripeLpSolver();
        for (int nh : new int[] {1, 3, 8, 16}) {
            LayoutCostModel hdd = LayoutCostModel.hdd(P, nh);
            HybridCostModel hybrid = new HybridCostModel(P, nh, 0);
            for (long s : new long[] {4096, 262144, 4 << 20}) {
                for (int p : new int[] {1, 7, 64}) {
                    for (int m : new int[] {1, 4}) {
                        double expected = hdd.requestSeconds(Distribution.ONE_DH, 1, p, m, s, Op.WRITE);
                        StripeSplit split = lp.solve(hybrid, p, m, s, Op.WRITE);
                        assertEquals(expected, split.seconds(), RELATIVE_EPS * expected);
                        assertEquals((double) s / nh, split.hServerStripe(), 1e-9 * s);
                        assertEquals(0.0, split.sServerStripe());
                    }
                }
            }
        }
    }

    @Test
    void withoutHServersTheHybridModelIsTheSsd1DHModel() {
        StripeLpSolver lp = new StripeLpSolver();
        for (int ns : new int[] {1, 2, 4, 8}) {
            LayoutCostModel ssd = LayoutCostModel.ssd(P, ns);
            HybridCostModel hybrid = new HybridCostModel(P, 0, ns);
            for (long s : new long[] {4096, 262144, 4 << 20}) {
                for (int p : new int[] {1, 7, 64}) {
                    for (Op op : Op.values()) {
                        double expected = ssd.requestSeconds(Distribution.ONE_DH, 1, p, 2, s, op);
                        StripeSplit split = lp.solve(hybrid, p, 2, s, op);
                        assertEquals(expected, split.seconds(), RELATIVE_EPS * expected);
                        assertEquals((double) s / ns, split.sServerStripe(), 1e-9 * s);
                    }
                }
            }
        }
    }

    /**
     * The storage balance point of formulas.md 2.3 (a_h + b_h*s_h = a_s + b_s*s_s) is where the optimum sits
     * when storage dominates and both stripes are positive: check the LP lands there for a large request.
     */
    @Test
    void largeRequestsAreSplitAtTheStorageBalancePoint() {
        int nh = 8;
        int ns = 4;
        long s = 256L << 20;
        int p = 1;
        StripeSplit split = new StripeLpSolver().solve(new HybridCostModel(P, nh, ns), p, 1, s, Op.READ);
        double ah = P.hdd().startupSeconds();
        double bh = P.hdd().secondsPerByte();
        double as = P.ssdRead().startupSeconds();
        double bs = P.ssdRead().secondsPerByte();
        double balance = (ns * (as - ah) + s * bs) / (ns * bh + nh * bs);
        assertTrue(balance > 0);
        // the network term also charges p*max(s_h, s_s)*v, which can pull the optimum off the balance point;
        // with p = 1 and m = 1 the busiest endpoint is the client (m*s), so it does not
        assertEquals(balance, split.hServerStripe(), 1e-6 * s);
    }
}
