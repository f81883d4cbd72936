package io.pdla.costmodel.benefit;

import io.pdla.costmodel.AccessPattern;
import io.pdla.costmodel.Checks;
import io.pdla.costmodel.LayoutCostModel;
import io.pdla.costmodel.ModelParameters;
import io.pdla.costmodel.RequestBatch;
import io.pdla.costmodel.TwoDConnectionTerm;
import io.pdla.costmodel.hybrid.HybridCostModel;
import io.pdla.costmodel.hybrid.StripeLpSolver;
import io.pdla.costmodel.hybrid.StripeSplit;

import java.util.Objects;

/**
 * Computes {@link PatternBenefit} for a system of {@code n_h} HServers and {@code n_s} SServers [V, S1 4.3].
 * [R] A pattern with several request sizes gets the LP-optimal stripes per size in T_{H+S}; a real replica has
 * one stripe pair, so this is an optimistic bound for mixed-size patterns (exact for single-size ones).
 */
public final class BenefitCalculator {

    private final LayoutCostModel hdd;
    private final LayoutCostModel ssd;
    private final HybridCostModel hybrid;
    private final StripeLpSolver lp = new StripeLpSolver();

    public BenefitCalculator(ModelParameters params, int hServers, int sServers) {
        this(params, hServers, sServers, TwoDConnectionTerm.DERIVED);
    }

    public BenefitCalculator(ModelParameters params, int hServers, int sServers, TwoDConnectionTerm term) {
        Objects.requireNonNull(params, "params");
        Checks.positive("HServers (n_h)", hServers);
        Checks.positive("SServers (n_s)", sServers);
        this.hdd = LayoutCostModel.hdd(params, hServers, term);
        this.ssd = LayoutCostModel.ssd(params, sServers, term);
        this.hybrid = new HybridCostModel(params, hServers, sServers);
    }

    public int sServers() {
        return ssd.servers();
    }

    public PatternBenefit evaluate(AccessPattern pattern) {
        double hybridSeconds = 0;
        StripeSplit dominant = null;
        long dominantBytes = -1;
        for (RequestBatch b : pattern.batches()) {
            StripeSplit split = lp.solve(hybrid, pattern.processes(), pattern.processesPerNode(), b.size(), b.op());
            hybridSeconds += b.count() * split.seconds();
            long bytes = b.size() * b.count();
            if (bytes > dominantBytes) {
                dominantBytes = bytes;
                dominant = split;
            }
        }
        return new PatternBenefit(hdd.best(pattern), ssd.best(pattern), hybridSeconds,
                dominant.hServerStripe(), dominant.sServerStripe());
    }
}
