package io.pdla.mpiio;

/**
 * The constants of MPI's I/O chapter, with ROMIO's values so that numbers seen in C codes and logs match.
 */
public final class MPIIO {
    private MPIIO() {
    }

    public static final int MODE_CREATE = 1;
    public static final int MODE_RDONLY = io.pdla.intercept.FileContext.MODE_RDONLY;
    public static final int MODE_WRONLY = 4;
    public static final int MODE_RDWR = 8;
    public static final int MODE_DELETE_ON_CLOSE = 16;
    public static final int MODE_UNIQUE_OPEN = 32;
    public static final int MODE_EXCL = 64;
    public static final int MODE_APPEND = 128;
    public static final int MODE_SEQUENTIAL = 256;

    public static final int SEEK_SET = 600;
    public static final int SEEK_CUR = 602;
    public static final int SEEK_END = 604;

    /**
     * MPI_DISPLACEMENT_CURRENT (MPICH's value): the {@code disp} of {@link File#setView} on a file opened with
     * {@link #MODE_SEQUENTIAL}, which must pass it: the view starts where the shared file pointer is.
     */
    public static final long DISPLACEMENT_CURRENT = -54278278;

    /** The only data representation pdla implements. */
    public static final String DATAREP_NATIVE = "native";

    static final int KNOWN_MODES = MODE_CREATE | MODE_RDONLY | MODE_WRONLY | MODE_RDWR | MODE_DELETE_ON_CLOSE
            | MODE_UNIQUE_OPEN | MODE_EXCL | MODE_APPEND | MODE_SEQUENTIAL;
}
