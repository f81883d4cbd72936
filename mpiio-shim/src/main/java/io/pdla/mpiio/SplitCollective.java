package io.pdla.mpiio;

/**
 * A split collective begun on a handle (MPI_File_read_all_begin, ...): the nonblocking collective that
 * does the work, which call began it, and the buffer, which the matching end must name again.
 */
record SplitCollective(String begun, IoRequest request, Object buffer) {
    /** MPI allows one active split collective per handle; ROMIO reports a second one as MPI_ERR_IO. */
    static void begin(OpenFile file, String call) throws MPIIOException {
        file.ensureOpen(call);
        file.split().requireNone(file.name() + ": rank " + file.coll().rank() + ": ", call);
    }

    /** Ends the split collective begun by {@code expectedBegin} with the same buffer; raises its error. */
    static IoStatus end(OpenFile file, String call, String expectedBegin, Object buffer) throws MPIIOException {
        file.ensureOpen(call);
        return file.split().end(file.name() + ": rank " + file.coll().rank() + ": " + call + ": ", expectedBegin, buffer).waitFor();
    }
}
