package io.pdla.simpfs.timing;

/**
 * One sub-request (the pieces of one request on one server) as the server moves it: cut into buffers
 * ({@link Chunk}s) in server-local order, with a bounded number in flight.
 */
final class Flow {
    final int rank, server, client;
    final boolean write;
    final long base;
    final long[] locals, lengths;
    final int pieces;
    final long bytes;
    // Where the next buffer starts.
    int piece;
    long pieceOffset;
    long bytesDone;
    int inFlight;
    boolean setupPaid;

    Flow(int rank, int server, int client, boolean write, long base, long[] locals, long[] lengths, int pieces, long bytes) {
        this.rank = rank;
        this.server = server;
        this.client = client;
        this.write = write;
        this.base = base;
        this.locals = locals;
        this.lengths = lengths;
        this.pieces = pieces;
        this.bytes = bytes;
    }

    boolean moreToCut() {
        return piece < pieces;
    }

    /** Cuts the next buffer of at most {@code max} bytes. */
    Chunk cut(long max) {
        Chunk c = new Chunk(this, piece, pieceOffset, base + locals[piece] + pieceOffset);
        long left = max;
        while (piece < pieces && left > 0) {
            long avail = lengths[piece] - pieceOffset;
            long take = Math.min(avail, left);
            left -= take;
            c.bytes += take;
            if (take == avail) {
                piece++;
                pieceOffset = 0;
            } else {
                pieceOffset += take;
            }
        }
        return c;
    }
}
