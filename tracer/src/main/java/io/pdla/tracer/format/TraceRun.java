package io.pdla.tracer.format;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.access.TraceRecord;

/**
 * One compressed run as stored: {@code count} requests of {@code length} bytes at
 * {@code firstOffset + i * stride}, with every request's exact times (aligned like the records). The
 * pattern analyzer can take a run as a closed-form strided pattern without expanding it.
 */
public record TraceRun(int rank, int fileId, IoOp op, Positioning positioning, boolean collective,
                       long firstOffset, long length, long stride, int count, long[] startNanos, long[] endNanos) {
    public long offset(int i) {
        return firstOffset + i * stride;
    }

    public TraceRecord record(int i) {
        return new TraceRecord(rank, fileId, op, positioning, collective, offset(i), length, startNanos[i], endNanos[i]);
    }
}
