package io.pdla.darshan;

/** One region of the log file: where its (compressed) bytes lie. */
public record Region(long offset, long length) {
    public boolean present() { return length > 0; }
}
