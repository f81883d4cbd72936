package io.pdla.darshan;

/**
 * How one counter of several records (several ranks of a shared file, or all records for a total) is
 * combined, as Darshan's shared-record reduction does. {@link #RECORD} counters are combined by
 * the reduction together with their partners (the slowest op keeps its size, common-value tables
 * merge as a whole, fastest/slowest rank carry bytes and time).
 */
public enum Merge {
    /** Added; a negative sum ("not monitored" -1 values) stays -1. */
    SUM,
    MAX,
    /** The smallest non-zero value (0 means "never happened"). */
    MIN_NONZERO,
    /** The value of the last record merged (Darshan copies one input: alignments, modes). */
    COPY,
    RECORD
}
