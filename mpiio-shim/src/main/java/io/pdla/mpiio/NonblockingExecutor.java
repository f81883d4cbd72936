package io.pdla.mpiio;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Runs a file's nonblocking requests (MPI_File_iread_at, ...) on one background thread, so they complete in
 * submission order as MPI requires of requests on one handle. The thread starts with the first request; it
 * is a daemon so that a program that never waits still exits.
 */
final class NonblockingExecutor {
    private final String threadName;
    private ExecutorService executor;

    NonblockingExecutor(String threadName) {
        this.threadName = threadName;
    }

    synchronized IoRequest submit(Callable<IoStatus> transfer) {
        if (executor == null) {
            executor = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, threadName);
                t.setDaemon(true);
                return t;
            });
        }
        return new IoRequest(executor.submit(transfer));
    }

    /** Lets every submitted request finish (close must not pull the file away under one). */
    void drain() {
        ExecutorService e;
        synchronized (this) {
            e = executor;
        }
        if (e == null) return;
        e.shutdown();
        try {
            e.awaitTermination(1, TimeUnit.HOURS);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }
}
