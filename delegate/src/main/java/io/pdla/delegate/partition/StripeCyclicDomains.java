package io.pdla.delegate.partition;

import io.pdla.access.ExtentList;

/**
 * Stripes dealt round-robin inside stripe-aligned parts of the region: part q belongs to a group of
 * {@code width} aggregators starting at {@code q * width}, and stripe k of part q goes to member
 * {@code k mod width}. Static-cyclic is one part with width P; group-cyclic is P/S parts of width S.
 * Members beyond {@code parts * width} (group-cyclic's leftovers) own nothing.
 */
final class StripeCyclicDomains implements DomainMap {
    private final PartitionRequest r;
    private final int width;
    /** Part q covers bytes [partBounds[q], partBounds[q+1]); interior bounds are stripe multiples. */
    private final long[] partBounds;
    private final int parts;
    private final Divisor stripe, members;
    private final double partsPerByte;

    private StripeCyclicDomains(PartitionRequest r, int width, long[] partBounds) {
        this.r = r;
        this.width = width;
        this.partBounds = partBounds;
        this.parts = partBounds.length - 1;
        this.stripe = new Divisor(r.stripeSize());
        this.members = new Divisor(width);
        long span = partBounds[parts] - partBounds[0];
        this.partsPerByte = span == 0 ? 0 : (double) parts / span;
    }

    /** Stripe k to aggregator k mod width, independent of the region (width = P for static-cyclic). */
    static StripeCyclicDomains staticCyclic(PartitionRequest r, int width) {
        return new StripeCyclicDomains(r, width, new long[]{r.regionStart(), r.regionEnd()});
    }

    /**
     * Group-cyclic for P >= S: floor(P/S) groups of S, the region's stripes cut into that many balanced
     * contiguous parts. For P < S the caller falls back to static-cyclic over the largest divisor of S not
     * above P (ROMIO's Lustre rule), so each server still sees one aggregator.
     */
    static StripeCyclicDomains groupCyclic(PartitionRequest r) {
        int s = r.servers();
        int p = r.aggregators();
        if (p < s) return staticCyclic(r, largestDivisorAtMost(s, p));
        int groups = p / s;
        long[] b = new long[groups + 1];
        long n = r.stripeCount();
        b[0] = r.regionStart();
        for (int q = 1; q < groups; q++) {
            long stripe = r.firstStripe() + Bounds.share(q, n, groups);
            b[q] = n == 0 ? r.regionEnd() : Math.max(r.regionStart(), Math.min(r.regionEnd(), stripe * r.stripeSize()));
        }
        b[groups] = r.regionEnd();
        return new StripeCyclicDomains(r, s, b);
    }

    static int largestDivisorAtMost(int n, int limit) {
        for (int d = Math.min(n, limit); d > 1; d--) {
            if (n % d == 0) return d;
        }
        return 1;
    }

    private int part(long offset) {
        if (parts == 1) return 0;
        return Bounds.lastAtOrBelow(partBounds, parts, offset, (long) ((offset - partBounds[0]) * partsPerByte));
    }

    @Override
    public int owner(long offset) {
        int q = part(offset);
        return q * width + (int) members.remainder(stripe.quotient(offset));
    }

    @Override
    public long runEnd(long offset) {
        return runEnd(offset, owner(offset));
    }

    @Override
    public long runEnd(long offset, int owner) {
        long partEnd = partBounds[owner / width + 1];
        // neighbouring stripes of a part have different owners unless the group has a single member
        return width == 1 ? partEnd : Math.min(partEnd, (stripe.quotient(offset) + 1) * r.stripeSize());
    }

    @Override
    public ExtentList domain(int aggregator) {
        int q = aggregator / width;
        if (q >= parts) return ExtentList.EMPTY;
        long from = partBounds[q], to = partBounds[q + 1];
        if (from >= to) return ExtentList.EMPTY;
        if (width == 1) return ExtentList.of(from, to - from);
        long str = r.stripeSize();
        int member = aggregator % width;
        long first = from / str;
        long k = first + Math.floorMod(member - first, (long) width);
        long last = (to - 1) / str;
        ExtentList.Builder b = ExtentList.builder((int) Math.min(1 << 16, Math.max(1, (last - k) / width + 1)));
        for (; k <= last; k += width) {
            long s = Math.max(from, k * str);
            long e = Math.min(to, (k + 1) * str);
            b.add(s, e - s);
        }
        return b.build();
    }
}
