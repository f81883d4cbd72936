package io.pdla.costmodel.hybrid;

import io.pdla.costmodel.Checks;
import io.pdla.costmodel.Op;

/**
 * Exhaustive search over feasible HServer stripes {@code s_h = 0, step, 2*step, ..., s/n_h} (and the end point),
 * with {@code s_s} from the constraint. This is the iterative search of the published schemes [V, S7 PSA
 * Algorithm 1 and S8 H2DP Algorithm 1 use 4 KB steps] with the constraint enforced [R]; here it serves as the
 * independent cross-check of {@link StripeLpSolver}.
 */
public final class DirectStripeSearch {

    /** The file-system stripe granularity of PSA and H2DP. */
    public static final double PUBLISHED_STEP_BYTES = 4096;

    private final double stepBytes;

    public DirectStripeSearch(double stepBytes) {
        this.stepBytes = Checks.positive("stepBytes", stepBytes);
    }

    public StripeSplit search(HybridCostModel model, int p, int m, long s, Op op) {
        Checks.positive("request size (s)", s);
        double lo = model.minHServerStripe(s);
        double hi = model.maxHServerStripe(s);
        StripeSplit best = model.split(p, m, s, op, lo);
        long steps = (long) Math.floor((hi - lo) / stepBytes);
        for (long i = 1; i <= steps + 1; i++) {
            StripeSplit candidate = model.split(p, m, s, op, Math.min(hi, lo + i * stepBytes));
            // on a plateau keep the larger s_h: same time, less SSD space (the preference PSA states)
            if (candidate.seconds() <= best.seconds()) {
                best = candidate;
            }
        }
        return best;
    }
}
