package io.pdla.delegate.partition;

/**
 * What the partitioner needs: the aggregate access region {@code [regionStart, regionEnd)} (end exclusive; an
 * empty region is allowed, every domain is then empty), the stripe size in bytes, the number of storage
 * servers S, the number of aggregators P and ROMIO's {@code min_fd_size}. Striping is round-robin from file
 * offset 0: stripe k = {@code [k*stripeSize, (k+1)*stripeSize)} lives on server {@code k mod S}.
 */
public record PartitionRequest(long regionStart, long regionEnd, long stripeSize, int servers, int aggregators,
                               long minDomainSize) {
    public PartitionRequest {
        if (regionStart < 0) throw new IllegalArgumentException("partition request: regionStart must be >= 0, was " + regionStart);
        if (regionEnd < regionStart) {
            throw new IllegalArgumentException("partition request: regionEnd " + regionEnd + " is before regionStart " + regionStart);
        }
        if (stripeSize <= 0) throw new IllegalArgumentException("partition request: stripeSize must be > 0, was " + stripeSize);
        if (regionEnd > Long.MAX_VALUE - stripeSize) {
            throw new IllegalArgumentException("partition request: regionEnd " + regionEnd + " + stripeSize " + stripeSize + " overflows a long");
        }
        if (servers < 1) throw new IllegalArgumentException("partition request: servers must be >= 1, was " + servers);
        if (aggregators < 1) throw new IllegalArgumentException("partition request: aggregators must be >= 1, was " + aggregators);
        if (minDomainSize < 1) throw new IllegalArgumentException("partition request: minDomainSize must be >= 1, was " + minDomainSize);
    }

    /** ROMIO's default min_fd_size is one page; callers without an opinion use this. */
    public static PartitionRequest of(long regionStart, long regionEnd, long stripeSize, int servers, int aggregators) {
        return new PartitionRequest(regionStart, regionEnd, stripeSize, servers, aggregators, 4096);
    }

    public long regionLength() {
        return regionEnd - regionStart;
    }

    public boolean emptyRegion() {
        return regionEnd == regionStart;
    }

    /** Index of the stripe holding the region's first byte (meaningless for an empty region). */
    long firstStripe() {
        return regionStart / stripeSize;
    }

    /** Index of the stripe holding the region's last byte (meaningless for an empty region). */
    long lastStripe() {
        return (regionEnd - 1) / stripeSize;
    }

    /** Stripes the region touches, partial ones at either end included. */
    long stripeCount() {
        return emptyRegion() ? 0 : lastStripe() - firstStripe() + 1;
    }

    /** Exclusive end of stripe k clipped to the region. */
    long stripeEndInRegion(long stripe) {
        return Math.min(regionEnd, (stripe + 1) * stripeSize);
    }

    long stripeStartInRegion(long stripe) {
        return Math.max(regionStart, stripe * stripeSize);
    }

    void checkInside(long offset) {
        if (offset < regionStart || offset >= regionEnd) {
            throw new IllegalArgumentException("offset " + offset + " is outside the aggregate region [" + regionStart + ", " + regionEnd + ")");
        }
    }

    void checkAggregator(int aggregator) {
        if (aggregator < 0 || aggregator >= aggregators) {
            throw new IllegalArgumentException("aggregator " + aggregator + " out of range 0.." + (aggregators - 1));
        }
    }
}
