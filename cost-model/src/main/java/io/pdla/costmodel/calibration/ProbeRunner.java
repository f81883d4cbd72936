package io.pdla.costmodel.calibration;

import java.io.IOException;

/**
 * The hook by which any storage driver (or the network) is timed: run {@code concurrency} simultaneous requests
 * of {@code size} bytes and return the elapsed seconds until the last one completes. Implementations decide how
 * to issue the requests (threads, MPI ranks, a simulator's virtual clock); calibration only needs the number.
 */
@FunctionalInterface
public interface ProbeRunner {

    double measureSeconds(long size, int concurrency) throws IOException;
}
