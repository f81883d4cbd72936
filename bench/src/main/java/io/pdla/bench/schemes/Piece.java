package io.pdla.bench.schemes;

/** A piece of a request after redirection: {@code length} bytes at {@code offset} of workload file {@code fileIndex}. */
public record Piece(int fileIndex, long offset, long length) {
}
