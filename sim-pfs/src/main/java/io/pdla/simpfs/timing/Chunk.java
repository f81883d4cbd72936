package io.pdla.simpfs.timing;

/** One flow buffer: {@code bytes} of its flow's pieces from (piece, offset) on, first disk address {@code address}. */
final class Chunk {
    final Flow flow;
    final int piece;
    final long offset, address;
    long bytes;
    /** Served from the drive's cache, not the media. */
    boolean hit;

    Chunk(Flow flow, int piece, long offset, long address) {
        this.flow = flow;
        this.piece = piece;
        this.offset = offset;
        this.address = address;
    }
}
