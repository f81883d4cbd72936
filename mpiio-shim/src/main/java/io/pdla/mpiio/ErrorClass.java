package io.pdla.mpiio;

/** MPI error classes of the I/O chapter that pdla raises; {@link MPIIOException#errorClass()} carries one. */
public enum ErrorClass {
    /** Invalid amode combination. */
    ERR_AMODE,
    ERR_NO_SUCH_FILE,
    ERR_FILE_EXISTS,
    /** Permission denied, or an access the amode forbids (reading a WRONLY file). */
    ERR_ACCESS,
    ERR_READ_ONLY,
    ERR_IO,
    /** An invalid argument: negative offset or count, unknown whence, unknown URI scheme, bad hint. */
    ERR_ARG,
    ERR_NO_SPACE,
    ERR_UNSUPPORTED_OPERATION,
    ERR_UNSUPPORTED_DATAREP,
    ERR_FILE_IN_USE,
    /** A collective argument that MPI requires equal differs across ranks. */
    ERR_NOT_SAME,
    /** Use of a closed or invalid file handle. */
    ERR_FILE,
    /** An invalid datatype: non-monotone filetype, etype/filetype mismatch, buffer of the wrong element type. */
    ERR_TYPE
}
