package io.pdla.patterns;

/** The trace set cannot be analyzed as one job (mixed jobs, no ranks, ...). The message says what and where. */
public final class TraceInputException extends RuntimeException {
    public TraceInputException(String message) {
        super(message);
    }
}
