package io.pdla.costmodel.benefit;

import io.pdla.costmodel.AccessPattern;
import io.pdla.costmodel.Checks;

import java.util.Objects;
import java.util.Optional;

/**
 * A pattern is critical when its benefit B exceeds a threshold [V, S1 4.3]. The paper gives no value; the
 * default 0 follows S8/S9, where data is performance-critical iff B &gt; 0 [R]. A positive threshold demands a
 * minimum absolute gain (seconds per execution of the pattern).
 */
public final class CriticalPatternRule {

    /** B must be strictly above this to count; 0 as in S8/S9 [R]. */
    public static final double DEFAULT_THRESHOLD_SECONDS = 0;

    private final BenefitCalculator calculator;
    private final double thresholdSeconds;

    public CriticalPatternRule(BenefitCalculator calculator) {
        this(calculator, DEFAULT_THRESHOLD_SECONDS);
    }

    public CriticalPatternRule(BenefitCalculator calculator, double thresholdSeconds) {
        this.calculator = Objects.requireNonNull(calculator, "calculator");
        this.thresholdSeconds = Checks.nonNegative("thresholdSeconds", thresholdSeconds);
    }

    public boolean isCritical(PatternBenefit benefit) {
        return benefit.benefit() > thresholdSeconds && benefit.bestSpace() != ReplicaSpace.HSERVERS;
    }

    /** The CPT entry for a pattern whose replica holds all its processes' data (a global one), or empty if it is not critical. */
    public Optional<CriticalPatternEntry> classify(String patternKey, AccessPattern pattern) {
        return classify(patternKey, pattern, pattern.processes());
    }

    /**
     * The CPT entry for the pattern, or empty if it is not critical. {@code dataProcesses}: whose data the replica
     * holds, which is what it occupies on the SServers (1 for a local pattern; see {@link SServerSpace}).
     */
    public Optional<CriticalPatternEntry> classify(String patternKey, AccessPattern pattern, int dataProcesses) {
        PatternBenefit b = calculator.evaluate(pattern);
        if (!isCritical(b)) {
            return Optional.empty();
        }
        ReplicaSpace space = b.bestSpace();
        boolean hybrid = space == ReplicaSpace.HSERVERS_PLUS_SSERVERS;
        long bytes = hybrid && b.hybridRequestAligned()
                ? SServerSpace.bytesPerSServerRequestAligned(pattern, dataProcesses, calculator.hServers() + calculator.sServers())
                : SServerSpace.bytesPerSServer(pattern, dataProcesses, space, b.bestLayout(), calculator.sServers(),
                        b.sServerStripe());
        return Optional.of(new CriticalPatternEntry(patternKey, b.benefit(), space, b.bestLayout(), bytes,
                hybrid ? Math.round(b.hServerStripe()) : 0, hybrid ? Math.round(b.sServerStripe()) : 0));
    }
}
