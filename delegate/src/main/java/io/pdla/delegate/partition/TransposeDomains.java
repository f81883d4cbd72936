package io.pdla.delegate.partition;

import io.pdla.access.ExtentList;

/**
 * Seed 004's transpose method. The region's stripes form a matrix with one column per server and one row per
 * round of striping (stripe k sits at row k / S, column k mod S: the file system fills it row-major). The
 * stripes are numbered column-major (server 0's stripes in file order, then server 1's, ...) and that
 * sequence is cut into P balanced contiguous chunks, chunk q to aggregator q. A server's column therefore
 * meets each aggregator in one contiguous run, and ownership changes along it only where a chunk ends.
 */
final class TransposeDomains implements DomainMap {
    private final PartitionRequest r;
    private final int s;
    private final long first, last;
    /** Column-major position of the first region stripe of each server; colStart[S] = stripe count. */
    private final long[] colStart;
    /** Matrix row of each server's first region stripe. */
    private final long[] firstRow;
    /** Aggregator q owns positions [chunk[q], chunk[q+1]). */
    private final long[] chunk;
    private final Chunk[] chunks;
    private final Divisor stripe, server;
    /** P / N: the guess of a position's chunk, right or one off when chunks are balanced. */
    private final double chunksPerPosition;

    TransposeDomains(PartitionRequest r) {
        this.r = r;
        this.s = r.servers();
        this.stripe = new Divisor(r.stripeSize());
        this.server = new Divisor(s);
        this.first = r.firstStripe();
        this.last = r.lastStripe();
        long n = r.stripeCount();
        colStart = new long[s + 1];
        firstRow = new long[s];
        for (int c = 0; c < s; c++) {
            long firstInCol = first + Math.floorMod(c - first, (long) s);
            firstRow[c] = firstInCol / s;
            long count = n == 0 || firstInCol > last ? 0 : (last - firstInCol) / s + 1;
            colStart[c + 1] = colStart[c] + count;
        }
        int p = r.aggregators();
        chunk = new long[p + 1];
        for (int q = 0; q <= p; q++) chunk[q] = Bounds.share(q, n, p);
        chunksPerPosition = n == 0 ? 0 : (double) p / n;
        chunks = new Chunk[p];
        for (int q = 0; q < p; q++) chunks[q] = chunk[q] == chunk[q + 1] ? null : new Chunk(q);
    }

    private long position(long row, int column) {
        return colStart[column] + row - firstRow[column];
    }

    private int ownerOfStripe(long k) {
        long row = server.quotient(k);
        long pos = position(row, (int) (k - row * s));
        return Bounds.lastAtOrBelow(chunk, chunks.length, pos, (long) (pos * chunksPerPosition));
    }

    /** Column holding column-major position pos (skipping servers with no stripe in the region). */
    private int columnOf(long pos) {
        return Bounds.lastAtOrBelow(colStart, s, pos);
    }

    /**
     * Aggregator q's stripes in row R: a contiguous column range, because positions grow along a row. Only its
     * first column ja can miss the top rows and only its last column jb the bottom rows.
     */
    private final class Chunk {
        final int ja, jb;
        final long rowLoA, rowHiB;

        Chunk(int q) {
            long lo = chunk[q], hi = chunk[q + 1];
            ja = columnOf(lo);
            jb = columnOf(hi - 1);
            rowLoA = firstRow[ja] + (lo - colStart[ja]);
            rowHiB = firstRow[jb] + (hi - 1 - colStart[jb]);
        }

        /** First owned column in the row, or S if none. */
        int firstColumn(long row) {
            int c = row >= rowLoA ? ja : ja + 1;
            if (ja == jb && row > rowHiB) return s;
            c = (int) Math.max(c, first - row * s);
            return c <= lastColumn(row) ? c : s;
        }

        /** Last owned column in the row, or -1 if none. */
        int lastColumn(long row) {
            int c = row <= rowHiB ? jb : jb - 1;
            if (ja == jb && row < rowLoA) return -1;
            long cap = Math.min(c, last - row * s);
            long lowest = Math.max(row >= rowLoA ? ja : ja + 1, first - row * s);
            return cap >= lowest ? (int) cap : -1;
        }
    }

    @Override
    public int owner(long offset) {
        return ownerOfStripe(stripe.quotient(offset));
    }

    @Override
    public long runEnd(long offset) {
        return runEnd(offset, owner(offset));
    }

    /** Owners hold whole stripes, so the run reaches at least to the stripe's end. */
    @Override
    public long runEndAtLeast(long offset, int owner) {
        return r.stripeEndInRegion(stripe.quotient(offset));
    }

    @Override
    public long runEnd(long offset, int owner) {
        long row = server.quotient(stripe.quotient(offset));
        return r.stripeEndInRegion(lastStripeOfRun(chunks[owner], row));
    }

    /** The run continues across a row end only into full rows, which exist only when ja = 0 and jb = S-1. */
    private long lastStripeOfRun(Chunk c, long row) {
        int end = c.lastColumn(row);
        if (end < s - 1) return row * s + end;
        long next = row + 1;
        if (next * s > last || c.firstColumn(next) != 0) return row * s + s - 1;
        long lastFullRow = Math.min(c.rowHiB, (last - (s - 1)) / s);
        if (last < s - 1) lastFullRow = -1;
        if (lastFullRow >= next) {
            next = lastFullRow + 1;
            if (next * s > last || c.firstColumn(next) != 0) return lastFullRow * s + s - 1;
        }
        return next * s + c.lastColumn(next);
    }

    @Override
    public ExtentList domain(int aggregator) {
        Chunk c = chunks[aggregator];
        if (c == null) return ExtentList.EMPTY;
        ExtentList.Builder b = ExtentList.builder();
        long topRow = first / s, bottomRow = last / s;
        if (c.ja == c.jb) {
            addRows(b, c, c.rowLoA, c.rowHiB);
        } else if (c.jb == c.ja + 1) {
            long aFrom = c.rowLoA, aTo = firstRow[c.ja] + (colStart[c.ja + 1] - colStart[c.ja]) - 1;
            long bFrom = firstRow[c.jb], bTo = c.rowHiB;
            if (bTo + 1 < aFrom) {
                addRows(b, c, bFrom, bTo);
                addRows(b, c, aFrom, aTo);
            } else {
                addRows(b, c, Math.min(aFrom, bFrom), Math.max(aTo, bTo));
            }
        } else {
            addRows(b, c, topRow, bottomRow);
        }
        return b.build();
    }

    private void addRows(ExtentList.Builder b, Chunk c, long fromRow, long toRow) {
        long str = r.stripeSize();
        for (long row = fromRow; row <= toRow; row++) {
            int c1 = c.firstColumn(row), c2 = c.lastColumn(row);
            if (c1 > c2) continue;
            long from = r.stripeStartInRegion(row * s + c1);
            long to = r.stripeEndInRegion(row * s + c2);
            b.add(from, to - from);
        }
    }
}
