package io.pdla.delegate.service;

import io.pdla.access.ExtentList;
import io.pdla.storage.Layout;

import java.util.Map;

/**
 * Which delegate owns which bytes of a file: the static-cyclic file domains of the partitioner made
 * persistent (the same for every call), at page granularity. On a striped file a page is one stripe and the
 * number of delegates used is the largest divisor of the server count not above the delegates available, so
 * stripe k (on server k mod S) goes to delegate k mod d and each server is served by one and the same
 * delegate (one-to-one when d = S, one-to-many when d < S). An unstriped file has no servers to respect:
 * its pages go round-robin over all delegates, and the page size is the hint {@value #HINT_PAGE} (default
 * {@link #DEFAULT_UNSTRIPED_PAGE}), rounded up to the store's block size.
 */
public final class DelegateDomains {
    public static final String HINT_PAGE = "pdla_delegate_page_size";
    public static final long DEFAULT_UNSTRIPED_PAGE = 64 * 1024;

    private final long pageSize;
    private final int delegates;

    public DelegateDomains(long pageSize, int delegates) {
        if (pageSize <= 0) throw new IllegalArgumentException("delegate page size must be > 0, was " + pageSize);
        if (delegates <= 0) throw new IllegalArgumentException("delegates must be > 0, was " + delegates);
        this.pageSize = pageSize;
        this.delegates = delegates;
    }

    public static DelegateDomains of(Layout layout, int available, Map<String, String> hints) {
        int servers = layout.serverCount();
        long stripe = Math.max(1, layout.stripeSize());
        if (servers > 1) return new DelegateDomains(stripe, largestDivisorAtMost(servers, available));
        long wanted = DEFAULT_UNSTRIPED_PAGE;
        String h = hints.get(HINT_PAGE);
        if (h != null) {
            wanted = io.pdla.size.ByteSize.parse(h, "hint " + HINT_PAGE);
            if (wanted <= 0) throw new IllegalArgumentException("hint " + HINT_PAGE + "='" + h + "' must be > 0");
        }
        long page = (wanted + stripe - 1) / stripe * stripe;
        return new DelegateDomains(page, available);
    }

    /**
     * The step, in pages, from a page a delegate owns to the next it owns on the same server, as a delegate can
     * tell from the file's layout and its page size: S on a striped file (page = stripe; the d delegates used
     * divide S, so pages S apart are on one server and have one owner), the job's {@code delegates} on an
     * unstriped one (pages round-robin over all of them). 0 when it cannot be told: an unstriped file when the
     * delegate count is not known (0), or pages that are not the layout's stripes.
     */
    public static long ownedStride(Layout layout, long pageSize, int delegates) {
        int servers = layout.serverCount();
        if (servers > 1) return Math.max(1, layout.stripeSize()) == pageSize ? servers : 0;
        return Math.max(0, delegates);
    }

    static int largestDivisorAtMost(int n, int atMost) {
        for (int d = Math.min(n, atMost); d > 1; d--) if (n % d == 0) return d;
        return 1;
    }

    public long pageSize() {
        return pageSize;
    }

    /** How many delegates serve this file (others stay idle for it). */
    public int delegatesUsed() {
        return delegates;
    }

    public int owner(long offset) {
        return (int) ((offset / pageSize) % delegates);
    }

    /**
     * Whether {@code delegate} owns any byte of {@code extents}: O(1) per extent, where cutting the extents by
     * owner costs a step per page. The large calls that bypass the delegates ask this instead of splitting.
     */
    public boolean touches(ExtentList extents, int delegate) {
        for (int i = 0; i < extents.size(); i++) {
            if (extents.length(i) > 0 && touches(extents.offset(i), extents.length(i), delegate)) return true;
        }
        return false;
    }

    private boolean touches(long offset, long length, int delegate) {
        long first = offset / pageSize;
        long pages = (offset + length - 1) / pageSize - first + 1;
        if (pages >= delegates) return true;
        // the pages' owners run cyclically from first's owner: delegate is among the next `pages` of them
        return Math.floorMod(delegate - first % delegates, (long) delegates) < pages;
    }

    /** The end of the run of bytes from {@code offset} that one delegate owns. */
    public long runEnd(long offset) {
        if (delegates == 1) return Long.MAX_VALUE;
        return (offset / pageSize + 1) * pageSize;
    }
}
