package io.pdla.simpfs.timing;

/**
 * The engine's future events, a min-heap on primitive arrays keyed by (time, insertion number): events at
 * the same virtual instant come out in the order they were scheduled, so every run is deterministic.
 */
final class EventQueue {
    static final int RANK_READY = 0, DEVICE_DONE = 1, NET_DONE = 2, DEVICE_FREE = 3, FLOW_START = 4;

    private double[] time = new double[256];
    private long[] order = new long[256];
    private int[] kind = new int[256], id = new int[256];
    private Object[] payload = new Object[256];
    private int size;
    private long next;

    // The last popped event.
    double t;
    int k, i;
    Object p;

    boolean isEmpty() {
        return size == 0;
    }

    void push(double when, int eventKind, int eventId, Object eventPayload) {
        if (size == time.length) grow();
        long o = next++;
        int at = size++;
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (!less(when, o, time[parent], order[parent])) break;
            move(parent, at);
            at = parent;
        }
        time[at] = when;
        order[at] = o;
        kind[at] = eventKind;
        id[at] = eventId;
        payload[at] = eventPayload;
    }

    /** Removes the earliest event into {@link #t}, {@link #k}, {@link #i}, {@link #p}. */
    void pop() {
        t = time[0];
        k = kind[0];
        i = id[0];
        p = payload[0];
        size--;
        if (size > 0) {
            double lt = time[size];
            long lo = order[size];
            int lk = kind[size], li = id[size];
            Object lp = payload[size];
            int at = 0;
            while (true) {
                int child = 2 * at + 1;
                if (child >= size) break;
                if (child + 1 < size && less(time[child + 1], order[child + 1], time[child], order[child])) child++;
                if (!less(time[child], order[child], lt, lo)) break;
                move(child, at);
                at = child;
            }
            time[at] = lt;
            order[at] = lo;
            kind[at] = lk;
            id[at] = li;
            payload[at] = lp;
        }
        payload[size] = null;
    }

    private void move(int from, int to) {
        time[to] = time[from];
        order[to] = order[from];
        kind[to] = kind[from];
        id[to] = id[from];
        payload[to] = payload[from];
    }

    private void grow() {
        int n = time.length * 2;
        time = java.util.Arrays.copyOf(time, n);
        order = java.util.Arrays.copyOf(order, n);
        kind = java.util.Arrays.copyOf(kind, n);
        id = java.util.Arrays.copyOf(id, n);
        payload = java.util.Arrays.copyOf(payload, n);
    }

    private static boolean less(double t1, long o1, double t2, long o2) {
        return t1 < t2 || (t1 == t2 && o1 < o2);
    }
}
