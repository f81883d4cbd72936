package io.pdla.tracer.counters;

import io.pdla.darshan.Counter;

/**
 * Run-time state behind one module's float counters, in nanoseconds since the rank's origin: the
 * timestamps, overlap-free cumulative timers (Darshan's TIMER_INC_NO_OVERLAP) and the slowest calls.
 * Persisted only as seconds through {@link #writeTo}.
 */
final class ModuleTimes {
    enum Kind { OPEN, READ, WRITE, CLOSE }

    private final long[] start = new long[4];
    private final long[] end = new long[4];
    private final Timer reads = new Timer();
    private final Timer writes = new Timer();
    private final Timer meta = new Timer();

    /**
     * One kind of call's overlap-free cumulative time and its slowest call (with that call's size): reads and
     * writes each have one, metadata calls one without a slowest call.
     */
    private static final class Timer {
        long time;
        long lastEnd;
        long maxTime;
        long maxSize;

        void add(long t1, long t2) {
            time += noOverlap(t1, t2, lastEnd);
            lastEnd = Math.max(lastEnd, t2);
        }

        void call(long t1, long t2, long size) {
            add(t1, t2);
            if (t2 - t1 > maxTime) {
                maxTime = t2 - t1;
                maxSize = size;
            }
        }

        /**
         * A run of calls (all of {@code size} bytes) in one step, as {@link #calls} would count them, when they follow
         * each other and start at or after this timer's last end: then none overlaps what came before it, and the
         * overlap-free time is the sum of the durations. False (nothing changed) otherwise.
         */
        boolean sequentialCalls(RunTimes run, long firstStart, long size) {
            if (!run.sequential || firstStart < lastEnd) return false;
            time += run.durations;
            lastEnd = Math.max(lastEnd, run.latestEnd);
            if (run.longest > maxTime) {
                maxTime = run.longest;
                maxSize = size;
            }
            return true;
        }

        /** Calls {@code from .. from + n - 1}, all of {@code size} bytes, as {@link #call} each, in one loop on locals. */
        void calls(long[] t1, long[] t2, int from, int n, long size) {
            long t = time, last = lastEnd, max = maxTime, maxBytes = maxSize;
            for (int k = from; k < from + n; k++) {
                t += noOverlap(t1[k], t2[k], last);
                last = Math.max(last, t2[k]);
                if (t2[k] - t1[k] > max) {
                    max = t2[k] - t1[k];
                    maxBytes = size;
                }
            }
            time = t;
            lastEnd = last;
            maxTime = max;
            maxSize = maxBytes;
        }
    }

    /**
     * One pass over a run of calls' times ({@link #measure}), which both modules' timers and stamps then take in one
     * step each ({@link #reads}, {@link #writes}): the POSIX and MPI-IO records time the same calls, and the batch
     * otherwise loops over every call's times four times.
     */
    static final class RunTimes {
        long durations;
        long longest;
        long earliestStart;
        long latestEnd;
        /** Each call starts at or after every earlier call of the run ended, and none ends before it starts. */
        boolean sequential;

        void measure(long[] t1, long[] t2, int from, int n) {
            long sum = 0, max = Long.MIN_VALUE, earliest = Long.MAX_VALUE, latest = Long.MIN_VALUE;
            boolean seq = true;
            for (int k = from; k < from + n; k++) {
                long s = t1[k], e = t2[k], d = e - s;
                if (s < latest || d < 0) seq = false;
                sum += d;
                if (d > max) max = d;
                if (s < earliest) earliest = s;
                if (e > latest) latest = e;
            }
            durations = sum;
            longest = max;
            earliestStart = earliest;
            latestEnd = latest;
            sequential = seq;
        }
    }

    /**
     * START is the smallest non-zero start, END the latest end of a call of that kind: the most recent call's, as calls
     * come in order, except a collective aggregator's background read, told when the aggregator takes it.
     */
    void stamp(Kind k, long t1, long t2) {
        int i = k.ordinal();
        if (start[i] == 0 || t1 < start[i]) start[i] = t1;
        if (t2 > end[i]) end[i] = t2;
    }

    void read(long t1, long t2, long size) {
        reads.call(t1, t2, size);
    }

    void write(long t1, long t2, long size) {
        writes.call(t1, t2, size);
    }

    /**
     * Calls {@code from .. from + n - 1} of {@code t1}/{@code t2}, all of {@code size} bytes, as {@link #read} and
     * {@link #stamp} each; {@code run} is {@link RunTimes#measure measured} over the same calls.
     */
    void reads(RunTimes run, long[] t1, long[] t2, int from, int n, long size) {
        if (!reads.sequentialCalls(run, t1[from], size)) reads.calls(t1, t2, from, n, size);
        stamps(Kind.READ, run, t1, t2, from, n);
    }

    /** As {@link #reads}, for writes. */
    void writes(RunTimes run, long[] t1, long[] t2, int from, int n, long size) {
        if (!writes.sequentialCalls(run, t1[from], size)) writes.calls(t1, t2, from, n, size);
        stamps(Kind.WRITE, run, t1, t2, from, n);
    }

    /**
     * {@link #stamps(Kind, long[], long[], int, int)} in one step: with no start of 0 in the run (0 means "no start
     * yet"), the start becomes the smallest of the run's starts and the one before.
     */
    private void stamps(Kind k, RunTimes run, long[] t1, long[] t2, int from, int n) {
        if (run.earliestStart <= 0) {
            stamps(k, t1, t2, from, n);
            return;
        }
        int i = k.ordinal();
        long s = start[i];
        start[i] = s == 0 ? run.earliestStart : Math.min(s, run.earliestStart);
        end[i] = Math.max(end[i], run.latestEnd);
    }

    private void stamps(Kind k, long[] t1, long[] t2, int from, int n) {
        int i = k.ordinal();
        long s = start[i];
        long e = end[i];
        for (int j = from; j < from + n; j++) {
            if (s == 0 || t1[j] < s) s = t1[j];
            if (t2[j] > e) e = t2[j];
        }
        start[i] = s;
        end[i] = e;
    }

    /** Sync: write time, but not a candidate for the slowest write (which has a size). */
    void sync(long t1, long t2) {
        writes.add(t1, t2);
    }

    void meta(long t1, long t2) {
        meta.add(t1, t2);
    }

    /** The part of {@code [t1, t2]} after {@code lastEnd}: none for a call told late that ended before it. */
    private static long noOverlap(long t1, long t2, long lastEnd) {
        return t1 > lastEnd ? t2 - t1 : Math.max(0, t2 - lastEnd);
    }

    /** Float counters in the shared POSIX/MPIIO order: 4 starts, 4 ends, read, write, meta, max read, max write. */
    void writeTo(TracedRecord r, Counter[] f, Counter maxReadSizeCounter, Counter maxWriteSizeCounter) {
        for (int i = 0; i < 4; i++) {
            r.setF(f[i], seconds(start[i]));
            r.setF(f[4 + i], seconds(end[i]));
        }
        r.setF(f[8], seconds(reads.time));
        r.setF(f[9], seconds(writes.time));
        r.setF(f[10], seconds(meta.time));
        r.setF(f[11], seconds(reads.maxTime));
        r.setF(f[12], seconds(writes.maxTime));
        r.set(maxReadSizeCounter, reads.maxSize);
        r.set(maxWriteSizeCounter, writes.maxSize);
    }

    static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
