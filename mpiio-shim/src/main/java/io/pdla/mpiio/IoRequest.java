package io.pdla.mpiio;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** A nonblocking I/O operation (MPI_Request of MPI_File_iread_at / iwrite_at). */
public final class IoRequest {
    private final Future<IoStatus> future;

    IoRequest(Future<IoStatus> future) {
        this.future = future;
    }

    /** Blocks until the operation is done (MPI_Wait); rethrows its error. */
    public IoStatus waitFor() throws MPIIOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MPIIOException(ErrorClass.ERR_IO, "interrupted while waiting for a nonblocking I/O request", e);
        } catch (CancellationException e) {
            throw new MPIIOException(ErrorClass.ERR_IO, "nonblocking I/O request was cancelled", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof MPIIOException m) throw m;
            throw new MPIIOException(ErrorClass.ERR_IO, "nonblocking I/O failed: " + e.getCause(), e.getCause());
        }
    }

    /** Whether the operation has finished (MPI_Test); {@link #waitFor} then returns at once. */
    public boolean test() {
        return future.isDone();
    }

    /** Waits for all requests, in order (MPI_Waitall). */
    public static IoStatus[] waitAll(IoRequest... requests) throws MPIIOException {
        IoStatus[] out = new IoStatus[requests.length];
        for (int i = 0; i < requests.length; i++) out[i] = requests[i].waitFor();
        return out;
    }
}
