package io.pdla.mpiio;

import mpi.Datatype;

/** What an I/O call did: the bytes moved, and hence the count of elements (short at end-of-file). */
public final class IoStatus {
    private final long bytes;
    private final int elementBytes;

    IoStatus(long bytes, int elementBytes) {
        this.bytes = bytes;
        this.elementBytes = elementBytes;
    }

    public long getBytes() {
        return bytes;
    }

    /** Whole elements of the datatype the call used. */
    public int getCount() {
        return Math.toIntExact(bytes / elementBytes);
    }

    /** Whole elements of {@code type} (MPI_Get_count). */
    public int getCount(Datatype type) throws MPIIOException {
        long size = Datatypes.flatten(type).sizeBytes();
        return size == 0 ? 0 : Math.toIntExact(bytes / size);
    }

    @Override
    public String toString() {
        return "IoStatus[" + bytes + " bytes]";
    }
}
