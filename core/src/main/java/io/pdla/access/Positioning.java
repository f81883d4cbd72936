package io.pdla.access;

/**
 * How an MPI-IO call names its position in the file, and whether the whole communicator takes part.
 * Together with {@link IoOp} this is the classification IOSIG and Darshan's MPIIO module record.
 */
public enum Positioning {
    /** {@code readAt/writeAt}: the caller gives the offset. */
    EXPLICIT_OFFSET,
    /** {@code read/write}: the rank's individual file pointer. */
    INDIVIDUAL_POINTER,
    /** {@code readShared/writeShared/readOrdered/writeOrdered}: the communicator's shared pointer. */
    SHARED_POINTER,
    /** Not a data access (open, close, sync, ...). */
    NONE
}
