package io.pdla.darshan;

/** Integer counters of the MPI-IO module (Darshan MPIIO v3): one count per MPI-IO call. Names and order are Darshan's, so darshan-parser scripts read ours. */
public enum MpiioCounter implements Counter {
    /** Opens on a communicator of size 1. */
    MPIIO_INDEP_OPENS(Merge.SUM),
    /** Opens on a communicator of size > 1. */
    MPIIO_COLL_OPENS(Merge.SUM),
    /** Independent reads (explicit offset, individual or shared pointer). */
    MPIIO_INDEP_READS(Merge.SUM),
    /** Independent writes. */
    MPIIO_INDEP_WRITES(Merge.SUM),
    /** Collective reads (including ordered). */
    MPIIO_COLL_READS(Merge.SUM),
    /** Collective writes (including ordered). */
    MPIIO_COLL_WRITES(Merge.SUM),
    /** Split collective reads: 0, the shim has none. */
    MPIIO_SPLIT_READS(Merge.SUM),
    /** Split collective writes: 0. */
    MPIIO_SPLIT_WRITES(Merge.SUM),
    /** Nonblocking reads: 0. */
    MPIIO_NB_READS(Merge.SUM),
    /** Nonblocking writes: 0. */
    MPIIO_NB_WRITES(Merge.SUM),
    /** Syncs (their time counts as write time). */
    MPIIO_SYNCS(Merge.SUM),
    /** Opens with a non-empty hint set. */
    MPIIO_HINTS(Merge.SUM),
    /** set_view calls. */
    MPIIO_VIEWS(Merge.SUM),
    /** Access mode given at open. */
    MPIIO_MODE(Merge.COPY),
    /** Bytes requested by reads. */
    MPIIO_BYTES_READ(Merge.SUM),
    /** Bytes requested by writes. */
    MPIIO_BYTES_WRITTEN(Merge.SUM),
    /** Changes between reading and writing. */
    MPIIO_RW_SWITCHES(Merge.SUM),
    /** Bytes of the slowest read. */
    MPIIO_MAX_READ_TIME_SIZE(Merge.RECORD),
    /** Bytes of the slowest write. */
    MPIIO_MAX_WRITE_TIME_SIZE(Merge.RECORD),
    /** Read calls moving 0-100 bytes. */
    MPIIO_SIZE_READ_AGG_0_100(Merge.SUM),
    /** Read calls moving 100-1K bytes. */
    MPIIO_SIZE_READ_AGG_100_1K(Merge.SUM),
    /** Read calls moving 1K-10K bytes. */
    MPIIO_SIZE_READ_AGG_1K_10K(Merge.SUM),
    /** Read calls moving 10K-100K bytes. */
    MPIIO_SIZE_READ_AGG_10K_100K(Merge.SUM),
    /** Read calls moving 100K-1M bytes. */
    MPIIO_SIZE_READ_AGG_100K_1M(Merge.SUM),
    /** Read calls moving 1M-4M bytes. */
    MPIIO_SIZE_READ_AGG_1M_4M(Merge.SUM),
    /** Read calls moving 4M-10M bytes. */
    MPIIO_SIZE_READ_AGG_4M_10M(Merge.SUM),
    /** Read calls moving 10M-100M bytes. */
    MPIIO_SIZE_READ_AGG_10M_100M(Merge.SUM),
    /** Read calls moving 100M-1G bytes. */
    MPIIO_SIZE_READ_AGG_100M_1G(Merge.SUM),
    /** Read calls moving 1G-PLUS bytes. */
    MPIIO_SIZE_READ_AGG_1G_PLUS(Merge.SUM),
    /** Write calls moving 0-100 bytes. */
    MPIIO_SIZE_WRITE_AGG_0_100(Merge.SUM),
    /** Write calls moving 100-1K bytes. */
    MPIIO_SIZE_WRITE_AGG_100_1K(Merge.SUM),
    /** Write calls moving 1K-10K bytes. */
    MPIIO_SIZE_WRITE_AGG_1K_10K(Merge.SUM),
    /** Write calls moving 10K-100K bytes. */
    MPIIO_SIZE_WRITE_AGG_10K_100K(Merge.SUM),
    /** Write calls moving 100K-1M bytes. */
    MPIIO_SIZE_WRITE_AGG_100K_1M(Merge.SUM),
    /** Write calls moving 1M-4M bytes. */
    MPIIO_SIZE_WRITE_AGG_1M_4M(Merge.SUM),
    /** Write calls moving 4M-10M bytes. */
    MPIIO_SIZE_WRITE_AGG_4M_10M(Merge.SUM),
    /** Write calls moving 10M-100M bytes. */
    MPIIO_SIZE_WRITE_AGG_10M_100M(Merge.SUM),
    /** Write calls moving 100M-1G bytes. */
    MPIIO_SIZE_WRITE_AGG_100M_1G(Merge.SUM),
    /** Write calls moving 1G-PLUS bytes. */
    MPIIO_SIZE_WRITE_AGG_1G_PLUS(Merge.SUM),
    /** Common access size 1. */
    MPIIO_ACCESS1_ACCESS(Merge.RECORD),
    /** Common access size 2. */
    MPIIO_ACCESS2_ACCESS(Merge.RECORD),
    /** Common access size 3. */
    MPIIO_ACCESS3_ACCESS(Merge.RECORD),
    /** Common access size 4. */
    MPIIO_ACCESS4_ACCESS(Merge.RECORD),
    /** Count of common access size 1. */
    MPIIO_ACCESS1_COUNT(Merge.RECORD),
    /** Count of common access size 2. */
    MPIIO_ACCESS2_COUNT(Merge.RECORD),
    /** Count of common access size 3. */
    MPIIO_ACCESS3_COUNT(Merge.RECORD),
    /** Count of common access size 4. */
    MPIIO_ACCESS4_COUNT(Merge.RECORD),
    /** Shared records: the rank with the least I/O time. */
    MPIIO_FASTEST_RANK(Merge.RECORD),
    /** Shared records: that rank's bytes. */
    MPIIO_FASTEST_RANK_BYTES(Merge.RECORD),
    /** Shared records: the rank with the most I/O time. */
    MPIIO_SLOWEST_RANK(Merge.RECORD),
    /** Shared records: that rank's bytes. */
    MPIIO_SLOWEST_RANK_BYTES(Merge.RECORD);

    private final Merge merge;

    MpiioCounter(Merge merge) {
        this.merge = merge;
    }

    @Override
    public Merge merge() {
        return merge;
    }
}
