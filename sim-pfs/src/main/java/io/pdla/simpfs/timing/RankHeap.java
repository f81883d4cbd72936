package io.pdla.simpfs.timing;

/** A min-heap of ranks keyed by (time, rank), on primitive arrays: ties go to the lower rank, always. */
final class RankHeap {
    private final double[] time;
    private final int[] rank;
    private int size;

    RankHeap(int capacity) {
        time = new double[capacity];
        rank = new int[capacity];
    }

    boolean isEmpty() {
        return size == 0;
    }

    double peekTime() {
        return time[0];
    }

    void push(double t, int r) {
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(t, r, time[parent], rank[parent])) break;
            time[i] = time[parent];
            rank[i] = rank[parent];
            i = parent;
        }
        time[i] = t;
        rank[i] = r;
    }

    int pop() {
        int top = rank[0];
        size--;
        if (size > 0) {
            double t = time[size];
            int r = rank[size];
            int i = 0;
            while (true) {
                int child = 2 * i + 1;
                if (child >= size) break;
                if (child + 1 < size && less(time[child + 1], rank[child + 1], time[child], rank[child])) child++;
                if (!less(time[child], rank[child], t, r)) break;
                time[i] = time[child];
                rank[i] = rank[child];
                i = child;
            }
            time[i] = t;
            rank[i] = r;
        }
        return top;
    }

    private static boolean less(double t1, int r1, double t2, int r2) {
        return t1 < t2 || (t1 == t2 && r1 < r2);
    }
}
