package io.pdla.tracer.counters;

import java.util.HashMap;
import java.util.Map;

/**
 * Darshan's "four most common values" (access sizes or strides). At run time at most
 * {@value #MAX_DISTINCT} distinct values are counted per file and kind, later new values are ignored; 0 takes
 * a slot but never enters the table; the table is kept sorted by count, then value, descending, and
 * updated after every observation exactly as darshan-common does.
 */
public final class CommonValues {
    public static final int MAX_DISTINCT = 32;

    private final Map<Long, long[]> frequencies = new HashMap<>();
    private final long[] values = new long[4];
    private final long[] counts = new long[4];

    public void observe(long value) {
        long[] f = frequencies.get(value);
        if (f == null) {
            if (frequencies.size() >= MAX_DISTINCT) return;
            f = new long[1];
            frequencies.put(value, f);
        }
        f[0]++;
        update(values, counts, value, f[0], true);
    }

    public long value(int i) {
        return values[i];
    }

    public long count(int i) {
        return counts[i];
    }

    /** Writes the table into four value counters followed by four count counters. */
    public void writeTo(CounterRecord r, Counter[] valueCounters, Counter[] countCounters) {
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
        long[] tv = new long[4];
        long[] tc = new long[4];
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
    static void merge(CounterRecord into, CounterRecord from, Counter[] valueCounters, Counter[] countCounters) {
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
