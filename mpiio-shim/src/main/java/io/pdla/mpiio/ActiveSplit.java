package io.pdla.mpiio;

/**
 * The split collective a handle has begun and not yet ended: MPI allows one per handle, and the matching end must
 * name the call that began it and the same buffer. ROMIO reports a second begin, or an end without its begin, as
 * MPI_ERR_IO.
 */
final class ActiveSplit {
    private SplitCollective active;

    /** Before a begin: refuses a second split collective on the handle. */
    void requireNone(String where, String call) throws MPIIOException {
        if (active != null) {
            throw new MPIIOException(ErrorClass.ERR_IO, where + call + ": only one split collective may be active per file handle, and "
                    + active.begun() + " has not ended");
        }
    }

    void begun(SplitCollective split) {
        active = split;
    }

    /** Ends the split collective begun by {@code expectedBegin} with the same buffer: its request, to wait for. */
    IoRequest end(String where, String expectedBegin, Object buffer) throws MPIIOException {
        SplitCollective s = active;
        if (s == null) throw new MPIIOException(ErrorClass.ERR_IO, where + "no split collective is active on this file handle");
        if (!s.begun().equals(expectedBegin)) throw new MPIIOException(ErrorClass.ERR_IO, where + "the active split collective is " + s.begun() + ", not " + expectedBegin);
        if (s.buffer() != buffer) throw new MPIIOException(ErrorClass.ERR_ARG, where + "buffer differs from the one given to " + s.begun());
        active = null;
        return s.request();
    }

    /** At close, after the background requests were drained: nothing is left to end. */
    void forget() {
        active = null;
    }
}
