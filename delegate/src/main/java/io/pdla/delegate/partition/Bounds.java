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
     * {@code ceil(q * total / parts)} without overflowing for any q <= parts: cutting total into parts this way
     * gives the earlier parts the extra unit, as ROMIO's domains do.
     */
    static long share(long q, long total, long parts) {
        return q * (total / parts) + (q * (total % parts) + parts - 1) / parts;
    }
}
