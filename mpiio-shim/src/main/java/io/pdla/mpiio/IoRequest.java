package io.pdla.mpiio;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;

/**
 * A nonblocking I/O operation (the MPI_Request of MPI_File_iread_at, iwrite_all, ...). Its error is
 * raised by {@link #waitFor}; one nobody waited for is raised by the file's close instead.
 */
public final class IoRequest {
    private final Future<IoStatus> future;
    private volatile boolean waited;
    /** The error handler of the file the request belongs to; MPI calls it when a wait raises the request's error. */
    private volatile java.util.function.Consumer<MPIIOException> onError = e -> { };

    IoRequest(Future<IoStatus> future) {
        this.future = future;
    }

    /** An already completed request (a zero-byte operation, or a request whose status is known). */
    static IoRequest completed(IoStatus status) {
        return new IoRequest(java.util.concurrent.CompletableFuture.completedFuture(status));
    }

    IoRequest reportingTo(java.util.function.Consumer<MPIIOException> handler) {
        this.onError = handler;
        return this;
    }

    /** Blocks until the operation is done (MPI_Wait); raises its error after the file's error handler saw it. */
    public IoStatus waitFor() throws MPIIOException {
        try {
            return outcome();
        } catch (MPIIOException e) {
            onError.accept(e);
            throw e;
        }
    }

    private IoStatus outcome() throws MPIIOException {
        waited = true;
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MPIIOException(ErrorClass.ERR_IO, "interrupted while waiting for a nonblocking I/O request", e);
        } catch (CancellationException e) {
            return new IoStatus(0, 1, true);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof MPIIOException m) throw m;
            throw new MPIIOException(ErrorClass.ERR_IO, "nonblocking I/O failed: " + e.getCause(), e.getCause());
        }
    }

    /** Whether the operation has finished (MPI_Test); {@link #waitFor} then returns at once. */
    public boolean test() {
        return future.isDone();
    }

    /**
     * MPI_Cancel: succeeds only for a request that has not started yet (I/O under way cannot be taken
     * back); {@link #waitFor} of a cancelled request returns a status whose {@link IoStatus#isCancelled} is true.
     */
    public boolean cancel() {
        return future.cancel(false);
    }

    public boolean isCancelled() {
        return future.isCancelled();
    }

    /** Waits for all requests (MPI_Waitall); raises the first error after all have finished. */
    public static IoStatus[] waitAll(IoRequest... requests) throws MPIIOException {
        IoStatus[] out = new IoStatus[requests.length];
        MPIIOException first = null;
        for (int i = 0; i < requests.length; i++) {
            try {
                out[i] = requests[i].waitFor();
            } catch (MPIIOException e) {
                if (first == null) first = e;
            }
        }
        if (first != null) throw first;
        return out;
    }

    /** MPI_Waitany: waits until one of the requests is done and returns its index (-1 for none given). */
    public static int waitAny(IoRequest... requests) {
        if (requests.length == 0) return -1;
        long pause = 1_000;
        while (true) {
            for (int i = 0; i < requests.length; i++) if (requests[i].test()) return i;
            LockSupport.parkNanos(pause);
            pause = Math.min(1_000_000, pause * 2);
        }
    }

    /** MPI_Testall: whether every request is done. */
    public static boolean testAll(IoRequest... requests) {
        for (IoRequest r : requests) if (!r.test()) return false;
        return true;
    }

    boolean settled() {
        return waited && future.isDone();
    }

    /** The failure of a finished request that nobody waited for, or null. */
    MPIIOException unreportedFailure() {
        if (waited || !future.isDone() || future.isCancelled()) return null;
        try {
            future.get();
            return null;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof MPIIOException m) return m;
            return new MPIIOException(ErrorClass.ERR_IO, "nonblocking I/O failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException | CancellationException e) {
            return null;
        }
    }
}
