package io.pdla.tracer.format;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.access.TraceRecord;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Streams one rank's trace as {@link TraceRecord}s, expanding runs lazily: memory use does not grow with
 * the trace. Records come out in the order the rank issued them. Problems surface from {@link #hasNext()}
 * and {@link #next()} as {@link UncheckedIOException} wrapping a {@link TraceFormatException} that names the
 * file and byte position; a checkpoint's CRC is checked when the reader reaches it, so records handed out
 * before a corrupt segment's checkpoint may already have been consumed (use {@link #verify(Path)} first
 * when that matters).
 */
public final class TraceFileReader implements Iterator<TraceRecord>, Closeable {
    private final TraceInput in;
    private final TraceHeader header;
    private final long timeShift;
    private final Map<Integer, String> files = new HashMap<>();

    private int runKind;
    private int runFile;
    private int runCount;
    private int runIndex;
    private long runFirst;
    private long runLength;
    private long runStride;
    private int runMode;
    private long runDuration;
    private long runStep;
    private long curStart;
    private long curEnd;
    private long lastEnd;

    private TraceRecord next;
    private long entriesRead;
    private long requestsRead;
    private long droppedRequests;
    private boolean sealed;
    private boolean ended;
    private boolean eof;

    private TraceFileReader(TraceInput in, TraceHeader header, long timeShift) {
        this.in = in;
        this.header = header;
        this.timeShift = timeShift;
    }

    /** Opens a trace; record times are relative to this rank's origin. */
    public static TraceFileReader open(Path file) throws IOException {
        return open(file, 0);
    }

    /** Opens a trace; {@code timeShiftNanos} is added to every time (aligns the rank to the job's start). */
    public static TraceFileReader open(Path file, long timeShiftNanos) throws IOException {
        TraceInput in = new TraceInput(file);
        try {
            return new TraceFileReader(in, readHeader(in), timeShiftNanos);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** Reads just the header. */
    public static TraceHeader readHeader(Path file) throws IOException {
        try (TraceInput in = new TraceInput(file)) {
            return readHeader(in);
        }
    }

    /** Reads a whole trace, checking every checkpoint, without keeping records; returns the request count. */
    public static long verify(Path file) throws IOException {
        try (TraceFileReader r = open(file)) {
            long n = 0;
            while (r.hasNext()) {
                r.next();
                n++;
            }
            return n;
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static TraceHeader readHeader(TraceInput in) throws IOException {
        byte[] magic = in.readBytes(TraceFormat.MAGIC.length, "the header");
        if (!Arrays.equals(magic, TraceFormat.MAGIC)) throw in.error(0, "not a pdla trace (bad magic)");
        int version = in.readByte("the header") << 8 | in.readByte("the header");
        if (version != TraceFormat.VERSION) {
            throw in.error(8, "unsupported trace format version " + version + " (this reader knows " + TraceFormat.VERSION + ")");
        }
        if ((in.readByte("the header") | in.readByte("the header")) != 0) throw in.error(10, "corrupt header: unknown flags");
        int rank = in.readInt("the header");
        int nprocs = in.readInt("the header");
        if (nprocs <= 0 || rank < 0 || rank >= nprocs) throw in.error(12, "corrupt header: rank " + rank + " of " + nprocs);
        long pid = in.readLong("the header");
        long epoch = in.readLong("the header");
        long nano = in.readLong("the header");
        long domain = in.readLong("the header");
        // the first checkpoint's CRC covers the header too
        return new TraceHeader(version, rank, nprocs, pid, epoch, nano, domain);
    }

    public TraceHeader header() {
        return header;
    }

    /** File ids declared so far, with their paths. */
    public Map<Integer, String> files() {
        return Map.copyOf(files);
    }

    /** Requests the writer had to drop (as of the last checkpoint read). */
    public long droppedRequests() {
        return droppedRequests;
    }

    /** True once the end record was read (the rank shut down cleanly), false if the trace ended at a checkpoint. */
    public boolean ended() {
        return ended;
    }

    /** Entries (runs, file declarations, checkpoints) read so far: the compressed record count. */
    public long entriesRead() {
        return entriesRead;
    }

    public Stream<TraceRecord> stream() {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(this, Spliterator.ORDERED | Spliterator.NONNULL), false)
                .onClose(() -> {
                    try {
                        close();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
    }

    /**
     * The next run as stored, with its timings (at most {@link TraceFormat#MAX_RUN} requests), or null at
     * the end. Use either this or the record iterator on one reader, not both.
     */
    public TraceRun nextRun() throws IOException {
        if (next != null || (runIndex > 0 && runIndex < runCount)) {
            throw new IllegalStateException("nextRun() inside a run that the record iterator started");
        }
        try {
            if (!hasNext()) return null;
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        int count = runCount;
        long[] starts = new long[count], ends = new long[count];
        TraceRecord first = next;
        next = null;
        starts[0] = first.startNanos();
        ends[0] = first.endNanos();
        for (int i = 1; i < count; i++) {
            TraceRecord r = advance();
            starts[i] = r.startNanos();
            ends[i] = r.endNanos();
        }
        return new TraceRun(first.rank(), first.fileId(), first.op(), first.positioning(), first.collective(), first.offset(),
                first.length(), runStride, count, starts, ends);
    }

    @Override
    public boolean hasNext() {
        if (next != null) return true;
        if (eof) return false;
        try {
            next = advance();
        } catch (IOException e) {
            eof = true;
            throw new UncheckedIOException(e);
        }
        return next != null;
    }

    @Override
    public TraceRecord next() {
        if (!hasNext()) throw new NoSuchElementException();
        TraceRecord r = next;
        next = null;
        return r;
    }

    private TraceRecord advance() throws IOException {
        while (runIndex >= runCount) {
            if (in.atEof()) {
                eof = true;
                if (!sealed) {
                    throw in.error(in.position(), "truncated: trace ends without a checkpoint after the last records"
                            + " (" + requestsRead + " requests read)");
                }
                return null;
            }
            long at = in.position();
            int tag = in.readByte("an entry tag");
            entriesRead++;
            if (ended) throw in.error(at, "corrupt: data after the end record");
            switch (tag) {
                case TraceFormat.TAG_FILE -> readFile();
                case TraceFormat.TAG_RUN -> readRun(at);
                case TraceFormat.TAG_CHECKPOINT, TraceFormat.TAG_END -> readSeal(at, tag == TraceFormat.TAG_END);
                default -> throw in.error(at, "corrupt: unknown entry tag " + tag);
            }
        }
        long at = in.position();
        if (runIndex == 0) {
            curStart = lastEnd + runStartDelta;
            curEnd = curStart + runDuration;
        } else {
            switch (runMode) {
                case TraceFormat.TIMING_SAME -> {
                }
                case TraceFormat.TIMING_UNIFORM -> {
                    curStart += runStep;
                    curEnd = curStart + runDuration;
                }
                case TraceFormat.TIMING_GROUPED -> {
                    if (groupLeft > 0) {
                        groupLeft--;
                    } else {
                        long gap = in.readSigned("a group's start gap");
                        long duration = in.readVarLong("a group's duration");
                        if (duration < 0) throw in.error(at, "corrupt: negative duration");
                        curStart = curEnd + gap;
                        curEnd = curStart + duration;
                        groupLeft = readGroupSize(runCount - runIndex) - 1;
                    }
                }
                default -> {
                    long gap = in.readSigned("a request's start gap");
                    long duration = in.readVarLong("a request's duration");
                    if (duration < 0) throw in.error(at, "corrupt: negative duration");
                    curStart = curEnd + gap;
                    curEnd = curStart + duration;
                }
            }
        }
        long offset = runFirst + runIndex * runStride;
        if (offset < 0) throw in.error(at, "corrupt: run yields negative offset " + offset);
        runIndex++;
        requestsRead++;
        if (runIndex == runCount) lastEnd = curEnd;
        IoOp op = TraceFormat.op(runKind);
        Positioning pos = TraceFormat.positioning(runKind);
        try {
            return new TraceRecord(header.rank(), runFile, op, pos, TraceFormat.collective(runKind), offset, runLength,
                    curStart + timeShift, curEnd + timeShift);
        } catch (IllegalArgumentException e) {
            throw in.error(at, "corrupt: " + e.getMessage());
        }
    }

    private long runStartDelta;
    /** Requests left in the current timing group that share its times. */
    private int groupLeft;

    private int readGroupSize(int remaining) throws IOException {
        long at = in.position();
        int size = in.readVarInt("a timing group's size");
        if (size < 1 || size > remaining) throw in.error(at, "corrupt: timing group of " + size + " with " + remaining + " requests left");
        return size;
    }

    private void readFile() throws IOException {
        sealed = false;
        int id = in.readVarInt("a file id");
        long at = in.position();
        int len = in.readVarInt("a file name length");
        if (len > 1 << 16) throw in.error(at, "corrupt: file name length " + len);
        String path = new String(in.readBytes(len, "a file name"), StandardCharsets.UTF_8);
        files.put(id, path);
    }

    private void readRun(long at) throws IOException {
        sealed = false;
        int kind = in.readByte("a run");
        if (!TraceFormat.validKind(kind)) throw in.error(at + 1, "corrupt: unknown request kind 0x" + Integer.toHexString(kind));
        long fileAt = in.position();
        int file = in.readVarInt("a run's file id");
        if (!files.containsKey(file)) throw in.error(fileAt, "corrupt: file id " + file + " used before it was declared");
        long countAt = in.position();
        int count = in.readVarInt("a run's count");
        if (count < 1 || count > TraceFormat.MAX_RUN) throw in.error(countAt, "corrupt: run count " + count);
        long first = in.readVarLong("a run's offset");
        long length = in.readVarLong("a run's length");
        if (first < 0 || length < 0) throw in.error(countAt, "corrupt: negative offset or length");
        long stride = count > 1 ? in.readSigned("a run's stride") : 0;
        long startDelta = in.readSigned("a run's start");
        long modeAt = in.position();
        int mode = in.readByte("a run's timing mode");
        if (mode > TraceFormat.TIMING_GROUPED || (mode == TraceFormat.TIMING_UNIFORM && count < 2)) {
            throw in.error(modeAt, "corrupt: timing mode " + mode);
        }
        long duration = in.readVarLong("a run's duration");
        if (duration < 0) throw in.error(modeAt + 1, "corrupt: negative duration");
        runStep = mode == TraceFormat.TIMING_UNIFORM ? in.readSigned("a run's start step") : 0;
        groupLeft = mode == TraceFormat.TIMING_GROUPED ? readGroupSize(count) - 1 : 0;
        runKind = kind;
        runFile = file;
        runCount = count;
        runIndex = 0;
        runFirst = first;
        runLength = length;
        runStride = stride;
        runMode = mode;
        runDuration = duration;
        runStartDelta = startDelta;
    }

    private void readSeal(long at, boolean end) throws IOException {
        long requests = in.readVarLong("a checkpoint");
        long dropped = in.readVarLong("a checkpoint");
        int expected = in.crc();
        int stored = in.readInt("a checkpoint's CRC");
        if (stored != expected) {
            throw in.error(at, "corrupt: CRC mismatch in the segment sealed by the checkpoint at this byte");
        }
        if (requests != requestsRead) {
            throw in.error(at, "corrupt: checkpoint counts " + requests + " requests, the trace holds " + requestsRead);
        }
        in.restartCrc();
        droppedRequests = dropped;
        sealed = true;
        ended = end;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
