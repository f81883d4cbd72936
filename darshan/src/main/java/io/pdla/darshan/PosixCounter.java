package io.pdla.darshan;

/** Integer counters of the POSIX module (Darshan POSIX v4): what the storage driver does underneath. Names and order are Darshan's, so darshan-parser scripts read ours. */
public enum PosixCounter implements Counter {
    /** Opens of the file (one per MPI-IO open: the driver opens once). */
    POSIX_OPENS(Merge.SUM),
    /** fileno() calls: not monitored (-1), Java has none. */
    POSIX_FILENOS(Merge.SUM),
    /** dup() calls: not monitored (-1). */
    POSIX_DUPS(Merge.SUM),
    /** Read operations: one per flattened extent of a read call. */
    POSIX_READS(Merge.SUM),
    /** Write operations: one per flattened extent of a write call. */
    POSIX_WRITES(Merge.SUM),
    /** lseek calls: 0, the driver uses positional I/O. */
    POSIX_SEEKS(Merge.SUM),
    /** stat calls: not monitored (-1). */
    POSIX_STATS(Merge.SUM),
    /** mmap calls: not monitored (-1). */
    POSIX_MMAPS(Merge.SUM),
    /** fsync calls (one per sync). */
    POSIX_FSYNCS(Merge.SUM),
    /** fdatasync calls: 0. */
    POSIX_FDSYNCS(Merge.SUM),
    /** rename sources: not monitored (-1). */
    POSIX_RENAME_SOURCES(Merge.SUM),
    /** rename targets: not monitored (-1). */
    POSIX_RENAME_TARGETS(Merge.SUM),
    /** Record id of the first rename source: 0. */
    POSIX_RENAMED_FROM(Merge.COPY),
    /** Permission bits of a creating open: not monitored (-1). */
    POSIX_MODE(Merge.COPY),
    /** Bytes read. */
    POSIX_BYTES_READ(Merge.SUM),
    /** Bytes written. */
    POSIX_BYTES_WRITTEN(Merge.SUM),
    /** Highest byte offset read (inclusive). */
    POSIX_MAX_BYTE_READ(Merge.MAX),
    /** Highest byte offset written (inclusive). */
    POSIX_MAX_BYTE_WRITTEN(Merge.MAX),
    /** Reads starting exactly one byte after the previous read's last byte. */
    POSIX_CONSEC_READS(Merge.SUM),
    /** Writes starting exactly one byte after the previous write's last byte. */
    POSIX_CONSEC_WRITES(Merge.SUM),
    /** Reads starting beyond the previous read's last byte. */
    POSIX_SEQ_READS(Merge.SUM),
    /** Writes starting beyond the previous write's last byte. */
    POSIX_SEQ_WRITES(Merge.SUM),
    /** Changes between reading and writing. */
    POSIX_RW_SWITCHES(Merge.SUM),
    /** Ops with an unaligned memory buffer: not monitored (-1), Java hides addresses. */
    POSIX_MEM_NOT_ALIGNED(Merge.SUM),
    /** Memory alignment: not monitored (-1). */
    POSIX_MEM_ALIGNMENT(Merge.COPY),
    /** Ops whose start offset is not a multiple of POSIX_FILE_ALIGNMENT. */
    POSIX_FILE_NOT_ALIGNED(Merge.SUM),
    /** The file store's block size (4096 when unknown). */
    POSIX_FILE_ALIGNMENT(Merge.COPY),
    /** Bytes of the slowest read call. */
    POSIX_MAX_READ_TIME_SIZE(Merge.RECORD),
    /** Bytes of the slowest write call. */
    POSIX_MAX_WRITE_TIME_SIZE(Merge.RECORD),
    /** Reads of size 0-100. */
    POSIX_SIZE_READ_0_100(Merge.SUM),
    /** Reads of size 100-1K. */
    POSIX_SIZE_READ_100_1K(Merge.SUM),
    /** Reads of size 1K-10K. */
    POSIX_SIZE_READ_1K_10K(Merge.SUM),
    /** Reads of size 10K-100K. */
    POSIX_SIZE_READ_10K_100K(Merge.SUM),
    /** Reads of size 100K-1M. */
    POSIX_SIZE_READ_100K_1M(Merge.SUM),
    /** Reads of size 1M-4M. */
    POSIX_SIZE_READ_1M_4M(Merge.SUM),
    /** Reads of size 4M-10M. */
    POSIX_SIZE_READ_4M_10M(Merge.SUM),
    /** Reads of size 10M-100M. */
    POSIX_SIZE_READ_10M_100M(Merge.SUM),
    /** Reads of size 100M-1G. */
    POSIX_SIZE_READ_100M_1G(Merge.SUM),
    /** Reads of size 1G-PLUS. */
    POSIX_SIZE_READ_1G_PLUS(Merge.SUM),
    /** Writes of size 0-100. */
    POSIX_SIZE_WRITE_0_100(Merge.SUM),
    /** Writes of size 100-1K. */
    POSIX_SIZE_WRITE_100_1K(Merge.SUM),
    /** Writes of size 1K-10K. */
    POSIX_SIZE_WRITE_1K_10K(Merge.SUM),
    /** Writes of size 10K-100K. */
    POSIX_SIZE_WRITE_10K_100K(Merge.SUM),
    /** Writes of size 100K-1M. */
    POSIX_SIZE_WRITE_100K_1M(Merge.SUM),
    /** Writes of size 1M-4M. */
    POSIX_SIZE_WRITE_1M_4M(Merge.SUM),
    /** Writes of size 4M-10M. */
    POSIX_SIZE_WRITE_4M_10M(Merge.SUM),
    /** Writes of size 10M-100M. */
    POSIX_SIZE_WRITE_10M_100M(Merge.SUM),
    /** Writes of size 100M-1G. */
    POSIX_SIZE_WRITE_100M_1G(Merge.SUM),
    /** Writes of size 1G-PLUS. */
    POSIX_SIZE_WRITE_1G_PLUS(Merge.SUM),
    /** Common stride 1. */
    POSIX_STRIDE1_STRIDE(Merge.RECORD),
    /** Common stride 2. */
    POSIX_STRIDE2_STRIDE(Merge.RECORD),
    /** Common stride 3. */
    POSIX_STRIDE3_STRIDE(Merge.RECORD),
    /** Common stride 4. */
    POSIX_STRIDE4_STRIDE(Merge.RECORD),
    /** Count of common stride 1. */
    POSIX_STRIDE1_COUNT(Merge.RECORD),
    /** Count of common stride 2. */
    POSIX_STRIDE2_COUNT(Merge.RECORD),
    /** Count of common stride 3. */
    POSIX_STRIDE3_COUNT(Merge.RECORD),
    /** Count of common stride 4. */
    POSIX_STRIDE4_COUNT(Merge.RECORD),
    /** Common access size 1. */
    POSIX_ACCESS1_ACCESS(Merge.RECORD),
    /** Common access size 2. */
    POSIX_ACCESS2_ACCESS(Merge.RECORD),
    /** Common access size 3. */
    POSIX_ACCESS3_ACCESS(Merge.RECORD),
    /** Common access size 4. */
    POSIX_ACCESS4_ACCESS(Merge.RECORD),
    /** Count of common access size 1. */
    POSIX_ACCESS1_COUNT(Merge.RECORD),
    /** Count of common access size 2. */
    POSIX_ACCESS2_COUNT(Merge.RECORD),
    /** Count of common access size 3. */
    POSIX_ACCESS3_COUNT(Merge.RECORD),
    /** Count of common access size 4. */
    POSIX_ACCESS4_COUNT(Merge.RECORD),
    /** Shared records: the rank with the least I/O time. */
    POSIX_FASTEST_RANK(Merge.RECORD),
    /** Shared records: that rank's bytes. */
    POSIX_FASTEST_RANK_BYTES(Merge.RECORD),
    /** Shared records: the rank with the most I/O time. */
    POSIX_SLOWEST_RANK(Merge.RECORD),
    /** Shared records: that rank's bytes. */
    POSIX_SLOWEST_RANK_BYTES(Merge.RECORD);

    private final Merge merge;

    PosixCounter(Merge merge) {
        this.merge = merge;
    }

    @Override
    public Merge merge() {
        return merge;
    }
}
