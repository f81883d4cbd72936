package io.pdla.delegate.service;

import java.io.IOException;

/**
 * How an application rank reaches the delegate ranks of its job (MPJ point-to-point on a communicator of
 * its own, in the shim's launcher). Implementations time out instead of waiting forever for a dead delegate.
 */
public interface DelegateTransport {
    int delegates();

    /**
     * Sends {@code requests[i]} to delegate {@code targets[i]} (all before waiting for any) and returns the
     * replies in the same order; throws {@link DelegateFailedException} when a delegate does not answer in time.
     */
    byte[][] exchange(int[] targets, byte[][] requests) throws IOException;

    /**
     * False only when no delegate has {@code uri} open now: then none caches a page of it, and any page a delegate
     * loads later is read from storage after this call. True when unknown (delegates in other JVMs).
     */
    default boolean mayCache(String uri) {
        return true;
    }
}
