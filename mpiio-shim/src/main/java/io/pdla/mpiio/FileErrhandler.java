package io.pdla.mpiio;

/**
 * A file error handler (MPI_File_set_errhandler): what happens when a call on a file fails.
 * {@link #ERRORS_RETURN}, MPI's default for files, lets the {@link MPIIOException} reach the caller (the
 * error code a C call returns); {@link #ERRORS_ARE_FATAL} prints the error and aborts the job; a user
 * handler ({@link #of}) is called first, then the exception reaches the caller as with ERRORS_RETURN.
 */
@FunctionalInterface
public interface FileErrhandler {
    /** Called with the failed call's exception; {@code file} is null for an open that failed. */
    void handle(File file, MPIIOException error);

    FileErrhandler ERRORS_RETURN = (file, error) -> { };

    FileErrhandler ERRORS_ARE_FATAL = (file, error) -> {
        System.err.println("pdla: MPI_ERRORS_ARE_FATAL: " + (file == null ? "" : file + ": ") + error.getMessage()
                + " (error class " + error.errorClass().code() + ": " + error.errorClass().errorString() + ")");
        System.err.flush();
        try {
            mpi.MPI.COMM_WORLD.Abort(error.errorClass().code());
        } catch (mpi.MPIException e) {
            // Abort failing leaves the exit below
        }
        // MPJ Express's Abort is empty: ending this process is what ends the job (niodev's other JVMs see it go)
        Runtime.getRuntime().halt(error.errorClass().code());
    };

    /** A user handler (MPI_File_create_errhandler). */
    static FileErrhandler of(FileErrhandler handler) {
        return handler;
    }

    /**
     * The handler files get at open (MPI_File_set_errhandler on MPI_FILE_NULL); per rank, as a static is
     * under both MPJ devices. ERRORS_RETURN until changed, as the standard says.
     */
    static FileErrhandler defaultHandler() {
        return Default.handler;
    }

    static void setDefault(FileErrhandler handler) {
        if (handler == null) throw new IllegalArgumentException("error handler is null");
        Default.handler = handler;
    }

    /** Holder of the per-rank default. */
    final class Default {
        private static volatile FileErrhandler handler = ERRORS_RETURN;

        private Default() {
        }
    }
}
