package io.pdla.costmodel.benefit;

import io.pdla.storage.Layout.Distribution;
import io.pdla.costmodel.LayoutChoice;

import java.util.Objects;

/**
 * Costs of one pattern in the three replica spaces and the resulting benefit [V, S1 4.3 Eqs 1-6]:
 * <pre>
 * T_H = min over layouts of sum_i T_H^L(r_i)        (1)
 * T_S = min over layouts of sum_i T_S^L(r_i)        (2)
 * T_{H+S} = sum_i T_{H+S}^1H(r_i)                   (3)
 *           [R] for a request-aligned pattern: the cheaper of (3) and sum_i T^RA(r_i), the request-aligned
 *           hybrid (stripe = request size on both classes; HybridCostModel, our extension, not in the papers)
 * B_S = T_H - T_S,  B_{H+S} = T_H - T_{H+S},  B = max(B_S, B_{H+S})     (4)-(6)
 * </pre>
 *
 * @param onHServers       argmin layout and T_H
 * @param onSServers       argmin layout and T_S
 * @param hybridSeconds    T_{H+S}, each request size with its LP-optimal stripes, or with stripe = request size when
 *                         {@code hybridRequestAligned}
 * @param hServerStripe    s_h of the request size carrying most bytes (the replicator needs one stripe pair) [R]
 * @param sServerStripe    s_s for the same request size
 * @param hybridRequestAligned [R] T_{H+S} is the request-aligned hybrid's (s_h = s_s = the request size), which was
 *                         cheaper than the LP stripes; only ever true for a request-aligned pattern
 */
public record PatternBenefit(LayoutChoice onHServers, LayoutChoice onSServers, double hybridSeconds,
                             double hServerStripe, double sServerStripe, boolean hybridRequestAligned) {

    public PatternBenefit {
        Objects.requireNonNull(onHServers, "onHServers");
        Objects.requireNonNull(onSServers, "onSServers");
    }

    /** T_{H+S} with the LP stripes (the papers' hybrid): {@code hybridRequestAligned} false. */
    public PatternBenefit(LayoutChoice onHServers, LayoutChoice onSServers, double hybridSeconds,
                          double hServerStripe, double sServerStripe) {
        this(onHServers, onSServers, hybridSeconds, hServerStripe, sServerStripe, false);
    }

    public double benefitOnSServers() {
        return onHServers.seconds() - onSServers.seconds();
    }

    public double benefitOnHybrid() {
        return onHServers.seconds() - hybridSeconds;
    }

    /** B = max(B_S, B_{H+S}) (Eq. 6). */
    public double benefit() {
        return Math.max(benefitOnSServers(), benefitOnHybrid());
    }

    /**
     * The space giving the maximum benefit; {@link ReplicaSpace#HSERVERS} when neither SSD option beats the HDD
     * replica (B &le; 0). Ties between the two SSD spaces go to SServers, which needs no HServer bandwidth.
     */
    public ReplicaSpace bestSpace() {
        if (benefit() <= 0) {
            return ReplicaSpace.HSERVERS;
        }
        return benefitOnSServers() >= benefitOnHybrid() ? ReplicaSpace.SSERVERS : ReplicaSpace.HSERVERS_PLUS_SSERVERS;
    }

    /**
     * The layout used in {@link #bestSpace()}; hybrid replicas are always 1-DH [V, S1 4.3] (the request-aligned one is
     * 1-DH with stripe = request size on every server).
     */
    public LayoutChoice bestLayout() {
        switch (bestSpace()) {
            case SSERVERS: return onSServers;
            case HSERVERS_PLUS_SSERVERS: return new LayoutChoice(Distribution.ONE_DH, 1, hybridSeconds);
            default: return onHServers;
        }
    }
}
