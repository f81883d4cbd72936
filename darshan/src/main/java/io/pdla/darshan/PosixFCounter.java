package io.pdla.darshan;

/** Floating-point counters of the POSIX module (seconds). Names and order are Darshan's, so darshan-parser scripts read ours. */
public enum PosixFCounter implements Counter {
    /** Start of the first open (seconds since the job start). */
    POSIX_F_OPEN_START_TIMESTAMP(Merge.MIN_NONZERO),
    /** Start of the first read (seconds since the job start). */
    POSIX_F_READ_START_TIMESTAMP(Merge.MIN_NONZERO),
    /** Start of the first write (seconds since the job start). */
    POSIX_F_WRITE_START_TIMESTAMP(Merge.MIN_NONZERO),
    /** Start of the first close (seconds since the job start). */
    POSIX_F_CLOSE_START_TIMESTAMP(Merge.MIN_NONZERO),
    /** End of the last open. */
    POSIX_F_OPEN_END_TIMESTAMP(Merge.MAX),
    /** End of the last read. */
    POSIX_F_READ_END_TIMESTAMP(Merge.MAX),
    /** End of the last write. */
    POSIX_F_WRITE_END_TIMESTAMP(Merge.MAX),
    /** End of the last close. */
    POSIX_F_CLOSE_END_TIMESTAMP(Merge.MAX),
    /** Cumulative read time, overlap-free. */
    POSIX_F_READ_TIME(Merge.SUM),
    /** Cumulative write time including syncs, overlap-free. */
    POSIX_F_WRITE_TIME(Merge.SUM),
    /** Cumulative metadata time (open, close, seek, set_view, set_size), overlap-free. */
    POSIX_F_META_TIME(Merge.SUM),
    /** Duration of the slowest read call. */
    POSIX_F_MAX_READ_TIME(Merge.RECORD),
    /** Duration of the slowest write call. */
    POSIX_F_MAX_WRITE_TIME(Merge.RECORD),
    /** Shared records: I/O time of the fastest rank. */
    POSIX_F_FASTEST_RANK_TIME(Merge.RECORD),
    /** Shared records: I/O time of the slowest rank. */
    POSIX_F_SLOWEST_RANK_TIME(Merge.RECORD),
    /** Shared records: population variance of per-rank I/O time. */
    POSIX_F_VARIANCE_RANK_TIME(Merge.RECORD),
    /** Shared records: population variance of per-rank bytes. */
    POSIX_F_VARIANCE_RANK_BYTES(Merge.RECORD);

    private final Merge merge;

    PosixFCounter(Merge merge) {
        this.merge = merge;
    }

    @Override
    public Merge merge() {
        return merge;
    }
}
