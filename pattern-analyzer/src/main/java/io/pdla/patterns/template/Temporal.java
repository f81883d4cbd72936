package io.pdla.patterns.template;

/**
 * Temporal behaviour of a pattern: the intervals between the starts of successive requests. FIXED when the
 * standard deviation is within {@link MatcherConfig#fixedIntervalCv()} of the mean, IRREGULAR otherwise, SINGLE
 * with fewer than two intervals.
 */
public record Temporal(Kind kind, long meanIntervalNanos) {
    public enum Kind { FIXED, IRREGULAR, SINGLE }

    public static Temporal of(long gaps, double sum, double sumSq, double cv) {
        if (gaps < 2) return new Temporal(Kind.SINGLE, gaps == 1 ? (long) sum : 0);
        double mean = sum / gaps;
        double var = Math.max(0, sumSq / gaps - mean * mean);
        boolean fixed = Math.sqrt(var) <= cv * mean;
        return new Temporal(fixed ? Kind.FIXED : Kind.IRREGULAR, Math.round(mean));
    }
}
