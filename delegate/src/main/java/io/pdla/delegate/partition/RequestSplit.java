package io.pdla.delegate.partition;

import io.pdla.access.ExtentList;

import java.util.Arrays;

/**
 * One rank's request split by domain owner: the exchange plan of two-phase I/O (ROMIO's Calc_my_req). Each
 * piece is one extent, or part of one, that lies in a single aggregator's domain; pieces keep the rank's buffer
 * order within each aggregator. Stored as one flat array of (fileOffset, length, bufferOffset) triples grouped
 * by aggregator, so there is no object per piece.
 */
public final class RequestSplit {
    private final long[] triples;
    /** Aggregator a's pieces are triples [first[a], first[a+1]) (in pieces, not longs). */
    private final int[] first;
    private final long[] bytes;

    private RequestSplit(long[] triples, int[] first, long[] bytes) {
        this.triples = triples;
        this.first = first;
        this.bytes = bytes;
    }

    /**
     * Splits the rank's extents (buffer order, any file order, possibly overlapping other ranks') by owner.
     * Every byte must lie inside the partitioned region.
     */
    public static RequestSplit of(ExtentList extents, FileDomains domains) {
        PartitionRequest r = domains.request();
        int p = domains.aggregators();
        Pieces pieces = new Pieces(Math.max(4, extents.size() + extents.size() / 2));
        long buffer = 0;
        // the last run found: consecutive extents of contiguous or nearby requests often fall in it
        long runStart = 0, runEnd = 0;
        int runOwner = -1;
        for (int i = 0; i < extents.size(); i++) {
            long off = extents.offset(i), end = off + extents.length(i);
            if (off < r.regionStart() || end > r.regionEnd()) {
                throw new IllegalArgumentException("extent " + i + " [" + off + ", " + end + ") lies outside the aggregate region ["
                        + r.regionStart() + ", " + r.regionEnd() + ") the domains were computed for");
            }
            while (off < end) {
                if (off < runStart || off >= runEnd) {
                    runOwner = domains.ownerInside(off);
                    runStart = off;
                    runEnd = domains.runEndAtLeastInside(off, runOwner);
                    if (end > runEnd) runEnd = domains.runEndInside(off, runOwner);
                }
                long cut = Math.min(end, runEnd);
                pieces.add(runOwner, off, cut - off, buffer);
                buffer += cut - off;
                off = cut;
            }
        }
        return pieces.groupBy(p);
    }

    public int aggregators() {
        return bytes.length;
    }

    public int pieces(int aggregator) {
        check(aggregator);
        return first[aggregator + 1] - first[aggregator];
    }

    public long fileOffset(int aggregator, int i) {
        return triples[3 * index(aggregator, i)];
    }

    public long length(int aggregator, int i) {
        return triples[3 * index(aggregator, i) + 1];
    }

    public long bufferOffset(int aggregator, int i) {
        return triples[3 * index(aggregator, i) + 2];
    }

    public long bytes(int aggregator) {
        check(aggregator);
        return bytes[aggregator];
    }

    /** (fileOffset, length, bufferOffset) of every piece for the aggregator, flattened, ready to send. */
    public long[] piecesAsTriples(int aggregator) {
        check(aggregator);
        return Arrays.copyOfRange(triples, 3 * first[aggregator], 3 * first[aggregator + 1]);
    }

    private int index(int aggregator, int i) {
        check(aggregator);
        int n = first[aggregator + 1] - first[aggregator];
        if (i < 0 || i >= n) throw new IndexOutOfBoundsException("piece " + i + " of aggregator " + aggregator + " (has " + n + ")");
        return first[aggregator] + i;
    }

    private void check(int aggregator) {
        if (aggregator < 0 || aggregator >= bytes.length) {
            throw new IllegalArgumentException("aggregator " + aggregator + " out of range 0.." + (bytes.length - 1));
        }
    }

    /** Pieces in creation (buffer) order, then a counting sort by owner, which keeps buffer order per owner. */
    private static final class Pieces {
        private int[] owner;
        private long[] data;
        private int n;

        Pieces(int capacity) {
            owner = new int[capacity];
            data = new long[3 * capacity];
        }

        void add(int aggregator, long fileOffset, long length, long bufferOffset) {
            if (n == owner.length) {
                owner = Arrays.copyOf(owner, 2 * n);
                data = Arrays.copyOf(data, 6 * n);
            }
            owner[n] = aggregator;
            data[3 * n] = fileOffset;
            data[3 * n + 1] = length;
            data[3 * n + 2] = bufferOffset;
            n++;
        }

        RequestSplit groupBy(int aggregators) {
            int[] first = new int[aggregators + 1];
            long[] bytes = new long[aggregators];
            for (int i = 0; i < n; i++) {
                first[owner[i] + 1]++;
                bytes[owner[i]] += data[3 * i + 1];
            }
            for (int a = 0; a < aggregators; a++) first[a + 1] += first[a];
            int[] next = Arrays.copyOf(first, aggregators);
            long[] sorted = new long[3 * n];
            for (int i = 0; i < n; i++) {
                int at = 3 * next[owner[i]]++;
                sorted[at] = data[3 * i];
                sorted[at + 1] = data[3 * i + 1];
                sorted[at + 2] = data[3 * i + 2];
            }
            return new RequestSplit(sorted, first, bytes);
        }
    }
}
