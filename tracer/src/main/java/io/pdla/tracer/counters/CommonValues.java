package io.pdla.tracer.counters;

import io.pdla.darshan.Counter;

/**
 * Darshan's "four most common values" (access sizes or strides). At run time at most
 * {@value #MAX_DISTINCT} distinct values are counted per file and kind, later new values are ignored; 0 takes
 * a slot but never enters the table; the table is kept sorted by count, then value, descending, and
 * updated after every observation exactly as darshan-common does.
 */
public final class CommonValues {
    public static final int MAX_DISTINCT = 32;

    /** The distinct values seen so far and their frequencies: at most 32, so a scan beats a map (no boxing). */
    private final long[] seen = new long[MAX_DISTINCT];
    private final long[] frequency = new long[MAX_DISTINCT];
    private int distinct;
    /** Index of the last value observed: requests of one pattern repeat their size and stride. */
    private int last = -1;
    private final long[] values = new long[4];
    private final long[] counts = new long[4];
    private final long[] tmpValues = new long[4];
    private final long[] tmpCounts = new long[4];

    public void observe(long value) {
        observe(value, 1);
    }

    /**
     * {@code times} observations of one value in a row. The table ends as after {@code times} calls of
     * {@link #observe(long)}: only this value's count grows meanwhile, so its place follows from its final
     * count, and the entry it pushes out of the four (if any) is the same whichever step it happens at.
     */
    public void observe(long value, long times) {
        if (times <= 0) return;
        int i = last >= 0 && seen[last] == value ? last : find(value);
        if (i < 0) {
            if (distinct == MAX_DISTINCT) return;
            i = distinct++;
            seen[i] = value;
        }
        last = i;
        long f = frequency[i] += times;
        if (value == 0) return;
        // fast path: the value already heads the table and stays there
        if (values[0] == value) {
            counts[0] = f;
            return;
        }
        update(values, counts, value, f, true, tmpValues, tmpCounts);
    }

    private int find(long value) {
        for (int i = 0; i < distinct; i++) if (seen[i] == value) return i;
        return -1;
    }

    public long value(int i) {
        return values[i];
    }

    public long count(int i) {
        return counts[i];
    }

    /** Writes the table into four value counters followed by four count counters. */
    public void writeTo(TracedRecord r, Counter[] valueCounters, Counter[] countCounters) {
        for (int i = 0; i < 4; i++) {
            r.set(valueCounters[i], values[i]);
            r.set(countCounters[i], counts[i]);
        }
    }

    /**
     * Inserts {@code (value, count)} into a sorted 4-slot table. Online: {@code count} is the value's full
     * frequency. Offline (merging two tables): an equal value already in the table has its count added.
     */
    static void update(long[] vals, long[] cnts, long value, long count, boolean online) {
        update(vals, cnts, value, count, online, new long[4], new long[4]);
    }

    private static void update(long[] vals, long[] cnts, long value, long count, boolean online, long[] tv, long[] tc) {
        if (value == 0) return;
        long total = count;
        if (!online) {
            for (int i = 0; i < 4; i++) {
                if (vals[i] == value) {
                    total += cnts[i];
                    break;
                }
            }
        }
        java.util.Arrays.fill(tv, 0);
        java.util.Arrays.fill(tc, 0);
        int n = 0;
        int i = 0;
        for (; i < 4; i++) {
            if (cnts[i] > total || (cnts[i] == total && vals[i] > value)) {
                tv[n] = vals[i];
                tc[n] = cnts[i];
                n++;
            } else {
                break;
            }
        }
        if (n == 4) return;
        tv[n] = value;
        tc[n] = total;
        n++;
        while (n != 4 && i < 4) {
            if (vals[i] != value) {
                tv[n] = vals[i];
                tc[n] = cnts[i];
                n++;
            }
            i++;
        }
        System.arraycopy(tv, 0, vals, 0, 4);
        System.arraycopy(tc, 0, cnts, 0, 4);
    }

    /** Merges table b into table a (both given as counters of their records), as the shared reduction does. */
    static void merge(TracedRecord into, TracedRecord from, Counter[] valueCounters, Counter[] countCounters) {
        long[] vals = new long[4];
        long[] cnts = new long[4];
        for (int i = 0; i < 4; i++) {
            vals[i] = into.get(valueCounters[i]);
            cnts[i] = into.get(countCounters[i]);
        }
        for (int i = 0; i < 4; i++) update(vals, cnts, from.get(valueCounters[i]), from.get(countCounters[i]), false);
        for (int i = 0; i < 4; i++) {
            into.set(valueCounters[i], vals[i]);
            into.set(countCounters[i], cnts[i]);
        }
    }
}
