package io.pdla.mpiio;

import io.pdla.storage.StorageException;

/**
 * The one place where failures become MPI error classes: a driver's {@link StorageException.Reason} maps to
 * its class, anything else is {@code ERR_IO}, and an {@link MPIIOException} passes through unchanged so that
 * a class chosen closer to the cause is never overwritten. Messages name the file, the rank and the call.
 */
final class ErrorMapping {
    private ErrorMapping() {
    }

    /** {@code rank} < 0 for calls that belong to no rank (MPI_File_delete). */
    static MPIIOException translate(Exception e, String what, String file, int rank) {
        if (e instanceof MPIIOException m) return m;
        ErrorClass ec = e instanceof StorageException se ? errorClass(se.reason()) : ErrorClass.ERR_IO;
        String who = rank >= 0 ? "rank " + rank + ": " : "";
        return new MPIIOException(ec, file + ": " + who + what + ": " + e.getMessage(), e);
    }

    static ErrorClass errorClass(StorageException.Reason reason) {
        return switch (reason) {
            case NO_SUCH_FILE -> ErrorClass.ERR_NO_SUCH_FILE;
            case FILE_EXISTS -> ErrorClass.ERR_FILE_EXISTS;
            case ACCESS_DENIED -> ErrorClass.ERR_ACCESS;
            case NO_SPACE -> ErrorClass.ERR_NO_SPACE;
            case READ_ONLY -> ErrorClass.ERR_READ_ONLY;
            case UNSUPPORTED -> ErrorClass.ERR_UNSUPPORTED_OPERATION;
            case BAD_ARGUMENT -> ErrorClass.ERR_ARG;
            case IO -> ErrorClass.ERR_IO;
        };
    }

    /**
     * A hint, URI or datatype our own code refused with IllegalArgumentException: the caller's mistake, so
     * ERR_ARG (translate would call it ERR_IO). {@code where} ends with ": ".
     */
    static MPIIOException badArgument(String where, IllegalArgumentException e) {
        return new MPIIOException(ErrorClass.ERR_ARG, where + e.getMessage(), e);
    }
}
