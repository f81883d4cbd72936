package io.pdla.simpfs.timing;

/**
 * An HDD's segmented read cache: {@code n} segments, each holding one contiguous range of disk addresses,
 * replaced least recently used. Writes invalidate what they overlap (the drive writes through).
 */
final class SegmentCache {
    private final long[] start, end, used;
    private final double[] ready;
    private long clock;
    /** Segments stored since the queue was last scanned for them (usually one). */
    private final int[] fresh;
    private int freshCount;

    SegmentCache(int segments) {
        start = new long[segments];
        end = new long[segments];
        used = new long[segments];
        ready = new double[segments];
        fresh = new int[segments];
        java.util.Arrays.fill(start, -1);
        java.util.Arrays.fill(end, -1);
    }

    /** True when [a, a+len) lies inside one segment (which becomes the most recently used). */
    boolean hit(long a, long len) {
        for (int s = 0; s < start.length; s++) {
            if (start[s] >= 0 && a >= start[s] && a + len <= end[s]) {
                used[s] = ++clock;
                return true;
            }
        }
        return false;
    }

    /** True when [a, a+len) lies inside one segment whose read-ahead has ended by {@code t}; no change to the replacement order. */
    boolean holds(long a, long len, double t) {
        for (int s = 0; s < start.length; s++) if (start[s] >= 0 && a >= start[s] && a + len <= end[s] && ready[s] <= t) return true;
        return false;
    }

    /** The segment a read starting at {@code a} would continue (a stream whose cached range ends at a), or -1. */
    int continuing(long a) {
        for (int s = 0; s < start.length; s++) if (start[s] >= 0 && end[s] == a) return s;
        return -1;
    }

    /** Stores [a, b), filled by {@code readyAt}, in segment {@code s} (or the least recently used one when s < 0). */
    void store(int s, long a, long b, double readyAt) {
        if (s < 0) {
            s = 0;
            for (int i = 1; i < start.length; i++) if (used[i] < used[s]) s = i;
        }
        start[s] = a;
        end[s] = b;
        ready[s] = readyAt;
        used[s] = ++clock;
        for (int i = 0; i < freshCount; i++) if (fresh[i] == s) return;
        fresh[freshCount++] = s;
    }

    /** Whether a segment stored since the last scan has been filled by {@code t}. */
    boolean worthScanning(double t) {
        for (int i = 0; i < freshCount; i++) if (ready[fresh[i]] <= t) return true;
        return false;
    }

    /** True when [a, a+len) lies in a fresh segment filled by {@code t} (the queue's scan after a fill). */
    boolean holdsFresh(long a, long len, double t) {
        for (int i = 0; i < freshCount; i++) {
            int s = fresh[i];
            if (start[s] >= 0 && a >= start[s] && a + len <= end[s] && ready[s] <= t) return true;
        }
        return false;
    }

    /** The queue has been scanned at {@code t}: segments filled by then are no longer fresh. */
    void scanned(double t) {
        int n = 0;
        for (int i = 0; i < freshCount; i++) if (ready[fresh[i]] > t) fresh[n++] = fresh[i];
        freshCount = n;
    }

    void invalidate(long a, long b) {
        for (int s = 0; s < start.length; s++) {
            if (start[s] >= 0 && start[s] < b && a < end[s]) {
                start[s] = -1;
                end[s] = -1;
            }
        }
    }
}
