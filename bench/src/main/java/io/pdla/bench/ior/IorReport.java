package io.pdla.bench.ior;

import java.util.List;

/**
 * Everything a run produced, as written to JSON: raw points, summaries and the shim/baseline ratios of
 * mean bandwidth, of max bandwidth, and of mean bandwidth with open and close left out ({@code null} when
 * a phase or the baseline did not run), with --trace the traced/untraced (also without open and close: the
 * tracer's per-call cost, apart from opening and closing its trace files) and with --redirected the
 * redirected/plain ratios of mean bandwidth, and with -c the collective/independent ratios of the shim in the same run;
 * {@code paired}: each of those comparisons as the median of per-iteration ratios.
 */
public record IorReport(RunInfo run, List<IterationPoint> points, List<Summary> summaries,
                        Double writeRatio, Double readRatio, Double writeRatioOfMax, Double readRatioOfMax,
                        Double writeTransferRatio, Double readTransferRatio,
                        Double tracedWriteRatio, Double tracedReadRatio,
                        Double tracedWriteTransferRatio, Double tracedReadTransferRatio,
                        Double redirectedWriteRatio, Double redirectedReadRatio,
                        Double collectiveWriteRatio, Double collectiveReadRatio,
                        List<PairedRatio> paired,
                        Verification verification, List<String> errors) {

    /**
     * One comparison taken iteration by iteration: the median, least and greatest of {@code numerator}'s bandwidth
     * over {@code denominator}'s in the same iteration (the two ran back to back, in alternating order). Less
     * sensitive than a ratio of means to a slow iteration or a drifting disk, which hit both sides of a pair alike.
     */
    public record PairedRatio(String numerator, String denominator, String operation, double median, double min, double max, int iterations) {
    }

    /** The -R check: transfers compared and those that differed, summed over ranks and backends. */
    public record Verification(boolean enabled, long transfersChecked, long badTransfers) {
        public boolean passed() {
            return badTransfers == 0;
        }
    }

    public boolean succeeded() {
        return errors.isEmpty() && verification.passed();
    }
}
