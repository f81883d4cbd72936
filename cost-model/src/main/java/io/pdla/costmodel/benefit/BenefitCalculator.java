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
 * [R, our extension] For a request-aligned pattern ({@link AccessPattern#requestAligned()}) T_{H+S} is the cheaper of
 * the LP hybrid and the request-aligned hybrid ({@link HybridCostModel#requestAlignedParts}, stripe = request size on
 * both classes, summed over the rounds); ties keep the LP hybrid. Ordinary patterns are priced as before.
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

    public int hServers() {
        return hybrid.hServers();
    }

    /** The request-aligned hybrid's T (sum over the rounds), whether or not the pattern is flagged [R]. */
    public double requestAlignedSeconds(AccessPattern pattern) {
        double sum = 0;
        for (RequestBatch b : pattern.batches()) {
            sum += b.count() * hybrid.requestAlignedSeconds(pattern.processes(), pattern.processesPerNode(), b.size(), b.op());
        }
        return sum;
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
        if (pattern.requestAligned()) {
            double aligned = requestAlignedSeconds(pattern);
            if (aligned < hybridSeconds) {
                long size = dominantSize(pattern);
                return new PatternBenefit(hdd.best(pattern), ssd.best(pattern), aligned, size, size, true);
            }
        }
        return new PatternBenefit(hdd.best(pattern), ssd.best(pattern), hybridSeconds,
                dominant.hServerStripe(), dominant.sServerStripe(), false);
    }

    /** The request size carrying most bytes (the first of equals): the one stripe a replica can have [R]. */
    private static long dominantSize(AccessPattern pattern) {
        long size = 0;
        long most = -1;
        for (RequestBatch b : pattern.batches()) {
            long bytes = b.size() * b.count();
            if (bytes > most) {
                most = bytes;
                size = b.size();
            }
        }
        return size;
    }
}
