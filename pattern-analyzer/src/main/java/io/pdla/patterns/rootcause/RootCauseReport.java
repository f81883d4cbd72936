package io.pdla.patterns.rootcause;

import java.util.List;

/**
 * Why a job's I/O was slow, IOMiner style.
 *
 * @param criticalPathBandwidth bytes / critical-path time (null without byte counts)
 * @param spanBandwidth         bytes / (last end - first start), what Darshan-style timing gives
 * @param dominantFiles         critical files by share of the critical path, largest first
 * @param ioMode                1-1, 1-M, N-1, N-N or N-M from which ranks touched which files (null if unknown)
 * @param storageTargetsUsed    distinct storage targets over all files (null if unknown)
 * @param rankImbalance         max over mean bytes per rank (null without per-rank bytes)
 */
public record RootCauseReport(CriticalPath criticalPath, int files, long bytes, Double criticalPathBandwidth,
                              Double spanBandwidth, List<FileShare> dominantFiles, List<Factor> factors,
                              String ioMode, Integer storageTargetsUsed, Double rankImbalance) {
    public RootCauseReport {
        dominantFiles = List.copyOf(dominantFiles);
        factors = List.copyOf(factors);
    }

    /** A critical file and its fraction of the critical path. */
    public record FileShare(String file, double exclusiveSeconds, double fraction) {
    }
}
