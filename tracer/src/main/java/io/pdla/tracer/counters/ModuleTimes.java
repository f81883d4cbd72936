package io.pdla.tracer.counters;

/**
 * Run-time state behind one module's float counters, in nanoseconds since the rank's origin: the
 * timestamps, overlap-free cumulative timers (Darshan's TIMER_INC_NO_OVERLAP) and the slowest calls.
 * Persisted only as seconds through {@link #writeTo}.
 */
final class ModuleTimes {
    enum Kind { OPEN, READ, WRITE, CLOSE }

    private final long[] start = new long[4];
    private final long[] end = new long[4];
    private long readTime;
    private long writeTime;
    private long metaTime;
    private long lastReadEnd;
    private long lastWriteEnd;
    private long lastMetaEnd;
    long maxReadTime;
    long maxReadSize;
    long maxWriteTime;
    long maxWriteSize;

    /** START is the smallest non-zero start, END the end of the most recent call of that kind. */
    void stamp(Kind k, long t1, long t2) {
        int i = k.ordinal();
        if (start[i] == 0 || t1 < start[i]) start[i] = t1;
        end[i] = t2;
    }

    void read(long t1, long t2, long size) {
        readTime += noOverlap(t1, t2, lastReadEnd);
        lastReadEnd = Math.max(lastReadEnd, t2);
        if (t2 - t1 > maxReadTime) {
            maxReadTime = t2 - t1;
            maxReadSize = size;
        }
    }

    void write(long t1, long t2, long size) {
        writeTime += noOverlap(t1, t2, lastWriteEnd);
        lastWriteEnd = Math.max(lastWriteEnd, t2);
        if (t2 - t1 > maxWriteTime) {
            maxWriteTime = t2 - t1;
            maxWriteSize = size;
        }
    }

    /** Calls {@code from .. from + n - 1} of {@code t1}/{@code t2}, all of {@code size} bytes: as {@link #read} and {@link #stamp} each. */
    void reads(long[] t1, long[] t2, int from, int n, long size) {
        long time = readTime, lastEnd = lastReadEnd, max = maxReadTime, maxSize = maxReadSize;
        for (int k = from; k < from + n; k++) {
            time += noOverlap(t1[k], t2[k], lastEnd);
            lastEnd = Math.max(lastEnd, t2[k]);
            if (t2[k] - t1[k] > max) {
                max = t2[k] - t1[k];
                maxSize = size;
            }
        }
        readTime = time;
        lastReadEnd = lastEnd;
        maxReadTime = max;
        maxReadSize = maxSize;
        stamps(Kind.READ, t1, t2, from, n);
    }

    /** As {@link #reads}, for writes. */
    void writes(long[] t1, long[] t2, int from, int n, long size) {
        long time = writeTime, lastEnd = lastWriteEnd, max = maxWriteTime, maxSize = maxWriteSize;
        for (int k = from; k < from + n; k++) {
            time += noOverlap(t1[k], t2[k], lastEnd);
            lastEnd = Math.max(lastEnd, t2[k]);
            if (t2[k] - t1[k] > max) {
                max = t2[k] - t1[k];
                maxSize = size;
            }
        }
        writeTime = time;
        lastWriteEnd = lastEnd;
        maxWriteTime = max;
        maxWriteSize = maxSize;
        stamps(Kind.WRITE, t1, t2, from, n);
    }

    private void stamps(Kind k, long[] t1, long[] t2, int from, int n) {
        int i = k.ordinal();
        long s = start[i];
        for (int j = from; j < from + n; j++) if (s == 0 || t1[j] < s) s = t1[j];
        start[i] = s;
        end[i] = t2[from + n - 1];
    }

    /** Sync: write time, but not a candidate for the slowest write (which has a size). */
    void sync(long t1, long t2) {
        writeTime += noOverlap(t1, t2, lastWriteEnd);
        lastWriteEnd = Math.max(lastWriteEnd, t2);
    }

    void meta(long t1, long t2) {
        metaTime += noOverlap(t1, t2, lastMetaEnd);
        lastMetaEnd = Math.max(lastMetaEnd, t2);
    }

    private static long noOverlap(long t1, long t2, long lastEnd) {
        return t1 > lastEnd ? t2 - t1 : t2 - lastEnd;
    }

    /** Float counters in the shared POSIX/MPIIO order: 4 starts, 4 ends, read, write, meta, max read, max write. */
    void writeTo(CounterRecord r, Counter[] f, Counter maxReadSizeCounter, Counter maxWriteSizeCounter) {
        for (int i = 0; i < 4; i++) {
            r.setF(f[i], seconds(start[i]));
            r.setF(f[4 + i], seconds(end[i]));
        }
        r.setF(f[8], seconds(readTime));
        r.setF(f[9], seconds(writeTime));
        r.setF(f[10], seconds(metaTime));
        r.setF(f[11], seconds(maxReadTime));
        r.setF(f[12], seconds(maxWriteTime));
        r.set(maxReadSizeCounter, maxReadSize);
        r.set(maxWriteSizeCounter, maxWriteSize);
    }

    static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
