package io.pdla.simpfs.timing;

/** One rank's requests in program order. */
@FunctionalInterface
public interface RequestStream {
    /** Fills {@code into} with the next request and returns true, or returns false at the end of the stream. */
    boolean next(Request into);
}
