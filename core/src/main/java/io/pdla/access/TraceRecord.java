package io.pdla.access;

/**
 * One traced operation, IOSIG-style: who did what to which file, where, and when. Times are nanoseconds
 * since the job's start. A data operation with several flattened extents produces one record per extent,
 * all with the same times, so that every consumer (pattern analyzer, replay, counters) sees plain
 * {@code (offset, length)} requests.
 */
public record TraceRecord(int rank, int fileId, IoOp op, Positioning positioning, boolean collective,
                          long offset, long length, long startNanos, long endNanos) {
    public TraceRecord {
        if (rank < 0) throw new IllegalArgumentException("rank must be >= 0, was " + rank);
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("offset and length must be >= 0, were " + offset + ", " + length);
        }
        if (endNanos < startNanos) {
            throw new IllegalArgumentException("end " + endNanos + " before start " + startNanos);
        }
    }

    public long end() {
        return offset + length;
    }
}
