package io.pdla.delegate.partition;

import io.pdla.access.ExtentList;

/**
 * One contiguous domain per aggregator, from boundaries {@code bounds[0] = start <= bounds[1] <= ... <=
 * bounds[P] = end}: the even and stripe-aligned methods.
 */
final class ContiguousDomains implements DomainMap {
    private final long[] bounds;
    private final int aggregators;
    /** fd_size: the even domain k starts near start + k * fd, a first guess that spares most searches. */
    private final double perGuessByte;

    private ContiguousDomains(long[] bounds, long guessSize) {
        this.bounds = bounds;
        this.aggregators = bounds.length - 1;
        this.perGuessByte = 1.0 / guessSize;
    }

    /**
     * ROMIO's ADIOI_Calc_file_domains: fd_size = ceil(region / P), raised to min_fd_size; domain k starts at
     * start + k * fd_size; trailing domains past the region's end are empty.
     */
    static ContiguousDomains even(PartitionRequest r) {
        long[] b = new long[r.aggregators() + 1];
        long fd = romioDomainSize(r);
        for (int k = 0; k <= r.aggregators(); k++) b[k] = r.regionStart() + Math.min(r.regionLength(), multiple(k, fd, r.regionLength()));
        b[r.aggregators()] = r.regionEnd();
        return new ContiguousDomains(b, fd);
    }

    /** fd_size = ceil(region / P), raised to min_fd_size. */
    static long romioDomainSize(PartitionRequest r) {
        long fd = (r.regionLength() + r.aggregators() - 1) / r.aggregators();
        return Math.max(fd, r.minDomainSize());
    }

    /** k * fd, or anything above cap when the product would exceed it (a huge min_fd_size must not overflow). */
    private static long multiple(long k, long fd, long cap) {
        return k == 0 || fd <= cap / k ? k * fd : cap + 1;
    }

    /**
     * The 6.1 rule (Liao's ROMIO code): each even domain's end start + (k+1) * fd_size moves to the nearest
     * stripe multiple (ties round up), the next domain starts there, the last one ends at the region's end.
     * Boundaries that round below the region's start or above its end are clipped, emptying those domains.
     */
    static ContiguousDomains stripeAligned(PartitionRequest r) {
        int p = r.aggregators();
        long[] b = new long[p + 1];
        long fd = romioDomainSize(r);
        long str = r.stripeSize();
        b[0] = r.regionStart();
        for (int k = 1; k < p; k++) {
            // like ROMIO, align the unclipped end and clip afterwards: an end past the region stays past it
            long evenEnd = r.regionStart() + multiple(k, fd, r.regionLength() + str);
            long front = evenEnd % str;
            long back = str - front;
            long aligned = front < back ? evenEnd - front : evenEnd + back;
            b[k] = Math.max(b[k - 1], Math.min(r.regionEnd(), Math.max(r.regionStart(), aligned)));
        }
        b[p] = r.regionEnd();
        return new ContiguousDomains(b, fd);
    }

    @Override
    public int owner(long offset) {
        long guess = (long) ((offset - bounds[0]) * perGuessByte);
        if (guess < aggregators) {
            int k = (int) guess;
            if (bounds[k] <= offset && offset < bounds[k + 1]) return k;
            // stripe alignment moves a boundary by at most half a stripe, usually into the neighbour
            if (k > 0 && bounds[k - 1] <= offset && offset < bounds[k]) return k - 1;
            if (k + 2 <= aggregators && bounds[k + 1] <= offset && offset < bounds[k + 2]) return k + 1;
        }
        return Bounds.lastAtOrBelow(bounds, aggregators, offset);
    }

    @Override
    public long runEnd(long offset) {
        return bounds[owner(offset) + 1];
    }

    @Override
    public long runEnd(long offset, int owner) {
        return bounds[owner + 1];
    }

    @Override
    public ExtentList domain(int aggregator) {
        return ExtentList.of(bounds[aggregator], bounds[aggregator + 1] - bounds[aggregator]);
    }
}
