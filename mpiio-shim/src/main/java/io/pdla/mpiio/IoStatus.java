package io.pdla.mpiio;

import mpi.Datatype;
import mpi.MPI;

/**
 * What an I/O call did (MPI_Status of an I/O call): the bytes moved, and hence the count of elements
 * (short at end-of-file).
 */
public final class IoStatus {
    private final long bytes;
    private final int elementBytes;
    private final boolean cancelled;

    IoStatus(long bytes, int elementBytes) {
        this(bytes, elementBytes, false);
    }

    IoStatus(long bytes, int elementBytes, boolean cancelled) {
        this.bytes = bytes;
        this.elementBytes = elementBytes;
        this.cancelled = cancelled;
    }

    public long getBytes() {
        return bytes;
    }

    /** Whole basic elements (ints for an int-based datatype) the call moved. */
    public int getCount() {
        return Math.toIntExact(bytes / elementBytes);
    }

    /**
     * MPI_Get_count: whole items of {@code type}, or {@code MPI.UNDEFINED} when the bytes moved are not a
     * whole number of them (as the standard says).
     */
    public int getCount(Datatype type) throws MPIIOException {
        long size = Datatypes.flatten(type).sizeBytes();
        if (size == 0) return bytes == 0 ? 0 : MPI.UNDEFINED;
        if (bytes % size != 0) return MPI.UNDEFINED;
        return Math.toIntExact(bytes / size);
    }

    /**
     * MPI_Get_elements: basic elements of {@code type} moved, counting those of a partly transferred item;
     * {@code MPI.UNDEFINED} when the bytes end inside a basic element.
     */
    public int getElements(Datatype type) throws MPIIOException {
        long elem = Datatypes.elementBytes(type);
        if (bytes % elem != 0) return MPI.UNDEFINED;
        return Math.toIntExact(bytes / elem);
    }

    /** MPI_Get_elements_x: as {@link #getElements} for counts beyond an int. */
    public long getElementsX(Datatype type) throws MPIIOException {
        long elem = Datatypes.elementBytes(type);
        return bytes % elem != 0 ? MPI.UNDEFINED : bytes / elem;
    }

    /** MPI_Test_cancelled. */
    public boolean isCancelled() {
        return cancelled;
    }

    @Override
    public String toString() {
        return "IoStatus[" + bytes + " bytes" + (cancelled ? ", cancelled" : "") + "]";
    }
}
