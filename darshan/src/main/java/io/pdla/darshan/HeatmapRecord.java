package io.pdla.darshan;

/** Bytes read and written per time bin, for one rank and one instrumented module ("heatmap:POSIX", ...). */
public record HeatmapRecord(long id, long rank, double binWidthSeconds, long[] writeBins, long[] readBins) {}
