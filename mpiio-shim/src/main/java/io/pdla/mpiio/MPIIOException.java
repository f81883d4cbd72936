package io.pdla.mpiio;

import mpi.MPIException;

/**
 * An MPI-IO error: the MPI error class plus a message naming the file, the rank and the argument at
 * fault. Extends MPJ's {@link MPIException} so existing {@code catch (MPIException e)} blocks see it.
 */
public class MPIIOException extends MPIException {
    private final ErrorClass errorClass;

    public MPIIOException(ErrorClass errorClass, String message) {
        super(errorClass + ": " + message);
        this.errorClass = errorClass;
    }

    public MPIIOException(ErrorClass errorClass, String message, Throwable cause) {
        this(errorClass, message);
        initCause(cause);
    }

    public ErrorClass errorClass() {
        return errorClass;
    }

    /** The numeric error class (MPI_Error_class of the code). */
    public int getErrorCode() {
        return errorClass.code();
    }

    /** MPI-style accessor name. */
    public ErrorClass getErrorClass() {
        return errorClass;
    }
}
