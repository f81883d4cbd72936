package io.pdla.patterns;

/** A rank's trace ends in the middle of a record: everything before is usable, the rest is lost. */
public final class TruncatedTraceException extends RuntimeException {
    public TruncatedTraceException(String message) {
        super(message);
    }
}
