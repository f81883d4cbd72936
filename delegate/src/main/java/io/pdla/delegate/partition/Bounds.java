package io.pdla.delegate.partition;

/** Search in non-decreasing boundary arrays, where equal neighbours mean an empty slot. */
final class Bounds {
    private Bounds() {
    }

    /** The largest index i in [0, n) with {@code bounds[i] <= value}, or -1; bounds is non-decreasing. */
    static int lastAtOrBelow(long[] bounds, int n, long value) {
        int lo = 0, hi = n - 1, found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (bounds[mid] <= value) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /**
     * lastAtOrBelow starting from a guess for balanced bounds: the guess or a neighbour is right almost always,
     * which spares the unpredictable branches of a binary search on random offsets.
     */
    static int lastAtOrBelow(long[] bounds, int n, long value, long guess) {
        int g = (int) Math.max(0, Math.min(n - 1, guess));
        for (int k = Math.max(0, g - 1); k <= Math.min(n - 1, g + 1); k++) {
            if (bounds[k] <= value && value < bounds[k + 1]) return k;
        }
        return lastAtOrBelow(bounds, n, value);
    }

    /**
     * {@code ceil(q * total / parts)} without overflowing for any q <= parts: cutting total into parts this way
     * gives the earlier parts the extra unit, as ROMIO's domains do.
     */
    static long share(long q, long total, long parts) {
        return q * (total / parts) + (q * (total % parts) + parts - 1) / parts;
    }
}
