package io.pdla.tracer.format;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Encodes one rank's requests into the trace format, compressing as Beacon+ does: consecutive requests of
 * the same kind, file and size whose offsets advance by a constant stride become one run record. Unlike
 * Beacon+ nothing is summarized: a run keeps every request's timing exactly, as one shared (start, end)
 * when all requests are extents of one call, as (duration, start step) when timing is uniform, and as
 * per-request (gap, duration) varints otherwise, or per group of requests that share their times (several
 * multi-extent calls continuing one strided pattern). Not thread-safe: the runtime serializes calls per rank.
 */
public final class TraceEncoder {
    private final CheckedSink sink;

    private boolean pending;
    private int kind;
    private int fileId;
    private long firstOffset;
    private long length;
    private long stride;
    private int count;
    private long[] starts = new long[16];
    private long[] ends = new long[16];

    /** End time of the last request written: the reference for the next entry's start. */
    private long lastEnd;
    private long requests;
    private long entries;

    public TraceEncoder(CheckedSink sink) {
        this.sink = sink;
    }

    /** Adds one request (one flattened extent, or one metadata operation with length 0). */
    public void add(int kind, int fileId, long offset, long length, long startNanos, long endNanos) {
        requests++;
        if (pending && this.kind == kind && this.fileId == fileId && this.length == length && count < TraceFormat.MAX_RUN) {
            if (count == 1) {
                stride = offset - firstOffset;
                append(startNanos, endNanos);
                return;
            }
            if (offset == firstOffset + count * stride) {
                append(startNanos, endNanos);
                return;
            }
        }
        flushRun();
        pending = true;
        this.kind = kind;
        this.fileId = fileId;
        this.firstOffset = offset;
        this.length = length;
        this.stride = 0;
        this.count = 0;
        append(startNanos, endNanos);
    }

    /**
     * {@code n} requests of one kind, file and length, request k at {@code first + k * stride} timed
     * {@code startNanos[from + k]} to {@code endNanos[from + k]}: the same entries and bytes as {@code n} calls of
     * {@link #add}, with the times of requests that extend the pending run copied in bulk.
     */
    public void addRun(int kind, int fileId, long first, long stride, long length, int n, long[] startNanos, long[] endNanos, int from) {
        int k = 0;
        while (k < n) {
            long offset = first + k * stride;
            int room = TraceFormat.MAX_RUN - count;
            if (pending && count >= 2 && room > 0 && this.kind == kind && this.fileId == fileId && this.length == length
                    && this.stride == stride && offset == firstOffset + count * stride) {
                int m = Math.min(n - k, room);
                if (count + m > starts.length) {
                    int size = Math.max(count + m, starts.length * 2);
                    starts = Arrays.copyOf(starts, size);
                    ends = Arrays.copyOf(ends, size);
                }
                System.arraycopy(startNanos, from + k, starts, count, m);
                System.arraycopy(endNanos, from + k, ends, count, m);
                count += m;
                requests += m;
                k += m;
            } else {
                add(kind, fileId, offset, length, startNanos[from + k], endNanos[from + k]);
                k++;
            }
        }
    }

    private void append(long start, long end) {
        if (count == starts.length) {
            starts = Arrays.copyOf(starts, count * 2);
            ends = Arrays.copyOf(ends, count * 2);
        }
        starts[count] = start;
        ends[count] = end;
        count++;
    }

    /** Declares the path of a file id; must come before the id's first request. */
    public void file(int id, String path) {
        flushRun();
        byte[] p = path.getBytes(StandardCharsets.UTF_8);
        sink.put(TraceFormat.TAG_FILE);
        sink.putVarLong(id);
        sink.putVarLong(p.length);
        sink.putBytes(p);
        entries++;
    }

    /**
     * Seals everything written so far: the reader accepts a trace that ends right after a checkpoint, so
     * the runtime checkpoints whenever the rank has no open file.
     */
    public void checkpoint(long droppedRequests) {
        seal(TraceFormat.TAG_CHECKPOINT, droppedRequests);
    }

    /** The last entry of a complete trace. */
    public void end(long droppedRequests) {
        seal(TraceFormat.TAG_END, droppedRequests);
    }

    private void seal(int tag, long dropped) {
        flushRun();
        sink.put(tag);
        sink.putVarLong(requests);
        sink.putVarLong(dropped);
        int crc = sink.crcSinceCheckpoint();
        sink.put(crc >>> 24);
        sink.put(crc >>> 16);
        sink.put(crc >>> 8);
        sink.put(crc);
        sink.checkpointCrcRestartsAfterThis();
        entries++;
    }

    public long requests() {
        return requests;
    }

    /** Entries written so far (runs, file declarations, checkpoints), for the compression ratio. */
    public long entries() {
        return entries;
    }

    public void flushRun() {
        if (!pending) return;
        pending = false;
        sink.put(TraceFormat.TAG_RUN);
        sink.put(kind);
        sink.putVarLong(fileId);
        sink.putVarLong(count);
        sink.putVarLong(firstOffset);
        sink.putVarLong(length);
        if (count > 1) sink.putSigned(stride);
        sink.putSigned(starts[0] - lastEnd);
        int mode = timingMode();
        sink.put(mode);
        switch (mode) {
            case TraceFormat.TIMING_SAME -> sink.putVarLong(ends[0] - starts[0]);
            case TraceFormat.TIMING_UNIFORM -> {
                sink.putVarLong(ends[0] - starts[0]);
                sink.putSigned(starts[1] - starts[0]);
            }
            case TraceFormat.TIMING_GROUPED -> {
                sink.putVarLong(ends[0] - starts[0]);
                int i = 0;
                while (i < count) {
                    int j = i + 1;
                    while (j < count && starts[j] == starts[i] && ends[j] == ends[i]) j++;
                    sink.putVarLong(j - i);
                    if (j < count) {
                        sink.putSigned(starts[j] - ends[j - 1]);
                        sink.putVarLong(ends[j] - starts[j]);
                    }
                    i = j;
                }
            }
            default -> {
                sink.putVarLong(ends[0] - starts[0]);
                for (int i = 1; i < count; i++) {
                    sink.putSigned(starts[i] - ends[i - 1]);
                    sink.putVarLong(ends[i] - starts[i]);
                }
            }
        }
        lastEnd = ends[count - 1];
        entries++;
    }

    private int timingMode() {
        boolean same = true;
        for (int i = 1; i < count && same; i++) same = starts[i] == starts[0] && ends[i] == ends[0];
        if (same) return TraceFormat.TIMING_SAME;
        long duration = ends[0] - starts[0];
        long step = starts[1] - starts[0];
        boolean uniform = true;
        int groups = 1;
        for (int i = 1; i < count; i++) {
            if (ends[i] - starts[i] != duration || starts[i] - starts[i - 1] != step) uniform = false;
            if (starts[i] != starts[i - 1] || ends[i] != ends[i - 1]) groups++;
        }
        if (uniform) return TraceFormat.TIMING_UNIFORM;
        // a group costs one size varint more than a request: worth it once groups average two requests
        return groups * 2 <= count ? TraceFormat.TIMING_GROUPED : TraceFormat.TIMING_EXPLICIT;
    }
}
