package io.pdla.delegate.partition;

import io.pdla.access.Extent;
import io.pdla.access.ExtentList;

import java.util.ArrayList;
import java.util.List;

/**
 * Each aggregator's file domain for one collective call: the answer of one {@link PartitionMethod} to one
 * {@link PartitionRequest}. Domains are disjoint and together cover the region exactly; {@link #owner} and
 * {@link #runEnd} answer in O(log P) (O(log P + log S) for transpose) without materialising the domains, so the
 * exchange plan can cut requests without per-byte or per-stripe work.
 */
public final class FileDomains {
    private final PartitionMethod method;
    private final PartitionRequest request;
    private final DomainMap map;

    private FileDomains(PartitionMethod method, PartitionRequest request, DomainMap map) {
        this.method = method;
        this.request = request;
        this.map = map;
    }

    public static FileDomains partition(PartitionMethod method, PartitionRequest request) {
        if (method == null) throw new IllegalArgumentException("partition method is null; allowed: " + PartitionMethod.allowedValues());
        if (request == null) throw new IllegalArgumentException("partition request is null");
        DomainMap map = switch (method) {
            case EVEN -> ContiguousDomains.even(request);
            case STRIPE_ALIGNED -> ContiguousDomains.stripeAligned(request);
            case STATIC_CYCLIC -> StripeCyclicDomains.staticCyclic(request, request.aggregators());
            case GROUP_CYCLIC -> StripeCyclicDomains.groupCyclic(request);
            case TRANSPOSE -> new TransposeDomains(request);
        };
        return new FileDomains(method, request, map);
    }

    public PartitionMethod method() {
        return method;
    }

    public PartitionRequest request() {
        return request;
    }

    public int aggregators() {
        return request.aggregators();
    }

    /** The aggregator's domain: ascending, coalesced, clipped to the region, possibly empty. */
    public ExtentList domain(int aggregator) {
        request.checkAggregator(aggregator);
        if (request.emptyRegion()) return ExtentList.EMPTY;
        return map.domain(aggregator);
    }

    /** The aggregator owning the byte at offset, which must lie inside the region. */
    public int owner(long offset) {
        request.checkInside(offset);
        return map.owner(offset);
    }

    /** Exclusive end of the longest range from offset that owner(offset) owns, clipped to the region. */
    public long runEnd(long offset) {
        request.checkInside(offset);
        return map.runEnd(offset);
    }

    /** The plan's inner loop: owner and run end of an offset already known to lie in the region. */
    int ownerInside(long offset) {
        return map.owner(offset);
    }

    long runEndInside(long offset, int owner) {
        return map.runEnd(offset, owner);
    }

    long runEndAtLeastInside(long offset, int owner) {
        return map.runEndAtLeast(offset, owner);
    }

    /**
     * Stripe-size I/O (seed 004): the extents cut at every stripe boundary, in list order, so that an
     * aggregator can issue one request per stripe and start on a stripe as soon as its lock is granted. The
     * result is a list rather than an {@link ExtentList} because an ExtentList always re-merges adjacent
     * extents, which would undo the cut.
     */
    public static List<Extent> splitAtStripes(ExtentList extents, long stripeSize) {
        if (stripeSize <= 0) throw new IllegalArgumentException("stripe-size I/O: stripeSize must be > 0, was " + stripeSize);
        List<Extent> out = new ArrayList<>(extents.size());
        for (int i = 0; i < extents.size(); i++) {
            long off = extents.offset(i), end = off + extents.length(i);
            while (off < end) {
                long cut = Math.min(end, (off / stripeSize + 1) * stripeSize);
                out.add(new Extent(off, cut - off));
                off = cut;
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return "FileDomains[" + method.hintValue() + ", " + request + "]";
    }
}
