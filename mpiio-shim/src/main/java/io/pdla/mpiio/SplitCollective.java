package io.pdla.mpiio;

/**
 * A split collective begun on a handle (MPI_File_read_all_begin, ...): the nonblocking collective that
 * does the work, which call began it, and the buffer, which the matching end must name again.
 */
record SplitCollective(String begun, IoRequest request, Object buffer) {
    /** MPI allows one active split collective per handle; ROMIO reports a second one as MPI_ERR_IO. */
    static void begin(OpenFile file, String call) throws MPIIOException {
        file.ensureOpen(call);
        if (file.split != null) {
            throw new MPIIOException(ErrorClass.ERR_IO, file.name + ": rank " + file.coll.rank() + ": " + call
                    + ": only one split collective may be active per file handle, and " + file.split.begun() + " has not ended");
        }
    }

    /** Ends the split collective begun by {@code expectedBegin} with the same buffer; raises its error. */
    static IoStatus end(OpenFile file, String call, String expectedBegin, Object buffer) throws MPIIOException {
        file.ensureOpen(call);
        SplitCollective s = file.split;
        String where = file.name + ": rank " + file.coll.rank() + ": " + call + ": ";
        if (s == null) throw new MPIIOException(ErrorClass.ERR_IO, where + "no split collective is active on this file handle");
        if (!s.begun().equals(expectedBegin)) throw new MPIIOException(ErrorClass.ERR_IO, where + "the active split collective is " + s.begun() + ", not " + expectedBegin);
        if (s.buffer() != buffer) throw new MPIIOException(ErrorClass.ERR_ARG, where + "buffer differs from the one given to " + s.begun());
        file.split = null;
        return s.request().waitFor();
    }
}
