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
    /** An invalid argument: negative offset, unknown whence, unknown URI scheme, bad hint. */
    ERR_ARG,
    ERR_NO_SPACE,
    ERR_UNSUPPORTED_OPERATION,
    ERR_UNSUPPORTED_DATAREP,
    ERR_FILE_IN_USE,
    /** A collective argument that MPI requires equal differs across ranks. */
    ERR_NOT_SAME,
    /** Use of a closed or invalid file handle. */
    ERR_FILE,
    /** An invalid datatype: a null or unflattenable one, a buffer of the wrong element type, an etype of size 0. */
    ERR_TYPE,
    /** registerDatarep of a name already defined. */
    ERR_DUP_DATAREP,
    /** A user data-representation conversion function failed. */
    ERR_CONVERSION,
    /** An invalid or inactive request. */
    ERR_REQUEST,
    ERR_OTHER,
    /** A negative count (MPI's and ROMIO's class, "**iobadcount"). Last: agreements send a class as its ordinal. */
    ERR_COUNT,
    /** A null communicator or an intercommunicator at open (MPI's and ROMIO's class). */
    ERR_COMM;

    /** The numeric error class, with MPICH's values so that codes in C programs' logs match. */
    public int code() {
        return switch (this) {
            case ERR_TYPE -> 3;
            case ERR_ARG -> 12;
            case ERR_OTHER -> 15;
            case ERR_COUNT -> 2;
            case ERR_COMM -> 5;
            case ERR_REQUEST -> 19;
            case ERR_ACCESS -> 20;
            case ERR_AMODE -> 21;
            case ERR_CONVERSION -> 23;
            case ERR_DUP_DATAREP -> 24;
            case ERR_FILE_EXISTS -> 25;
            case ERR_FILE_IN_USE -> 26;
            case ERR_FILE -> 27;
            case ERR_IO -> 32;
            case ERR_NOT_SAME -> 35;
            case ERR_NO_SPACE -> 36;
            case ERR_NO_SUCH_FILE -> 37;
            case ERR_READ_ONLY -> 40;
            case ERR_UNSUPPORTED_DATAREP -> 43;
            case ERR_UNSUPPORTED_OPERATION -> 44;
        };
    }

    /** MPI_Error_string of the class. */
    public String errorString() {
        return switch (this) {
            case ERR_TYPE -> "Invalid datatype";
            case ERR_ARG -> "Invalid argument";
            case ERR_OTHER -> "Other error";
            case ERR_COUNT -> "Invalid count argument";
            case ERR_COMM -> "Invalid communicator";
            case ERR_REQUEST -> "Invalid MPI_Request";
            case ERR_ACCESS -> "Permission denied";
            case ERR_AMODE -> "Invalid amode value";
            case ERR_CONVERSION -> "An error occurred in a user-supplied data conversion function";
            case ERR_DUP_DATAREP -> "Conversion functions could not be registered because a data representation identifier that was already defined was passed";
            case ERR_FILE_EXISTS -> "File exists";
            case ERR_FILE_IN_USE -> "File operation could not be completed, as the file is currently open by some process";
            case ERR_FILE -> "Invalid file handle";
            case ERR_IO -> "Other I/O error";
            case ERR_NOT_SAME -> "Collective argument not identical on all processes";
            case ERR_NO_SPACE -> "Not enough space";
            case ERR_NO_SUCH_FILE -> "File does not exist";
            case ERR_READ_ONLY -> "Read-only file or file system";
            case ERR_UNSUPPORTED_DATAREP -> "Unsupported datarep passed to MPI_File_set_view";
            case ERR_UNSUPPORTED_OPERATION -> "Unsupported operation on file";
        };
    }

    /** The class of a numeric code (MPI_Error_class), or null for a code pdla does not raise. */
    public static ErrorClass ofCode(int code) {
        for (ErrorClass c : values()) if (c.code() == code) return c;
        return null;
    }
}
