package io.pdla.patterns.template;

/**
 * Knobs of the template matcher.
 *
 * @param minRequests      fewest requests for a run to count as a pattern (IOSIG's learning -> stable rule)
 * @param maxPeriod        longest repeating size sequence looked for (in sub-patterns per cycle)
 * @param maxCycleSegments most segments in one cycle of a size-sequence pattern
 * @param outlierMax       a run of at most this many requests that interrupts a pattern which then resumes is
 *                         dropped as outliers rather than ending the pattern
 * @param fixedIntervalCv  intervals count as fixed when their standard deviation is at most this times the mean
 */
public record MatcherConfig(int minRequests, int maxPeriod, int maxCycleSegments, int outlierMax, double fixedIntervalCv) {
    public MatcherConfig {
        if (minRequests < 2) throw new IllegalArgumentException("minRequests must be >= 2, was " + minRequests);
        if (maxPeriod < 1) throw new IllegalArgumentException("maxPeriod must be >= 1, was " + maxPeriod);
    }

    public static MatcherConfig defaults() {
        return new MatcherConfig(3, 4, 16, 2, 0.25);
    }

    int stackLimit() {
        return 2 * maxPeriod + 4;
    }
}
