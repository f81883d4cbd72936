package io.pdla.darshan;

/**
 * A fixed-layout record (POSIX, MPI-IO, STDIO, H5F, H5D, PNETCDF_*, BG/Q, MDHIM, DFS, DAOS) in the module's current
 * version (a log's records are up-converted to it), counters in the order the module's definition gives
 * ({@link CounterNames}). {@code fileRecordId} is the owning file's id for H5D and PNETCDF_VAR, else 0. The one
 * counter record of pdla: the reader and writer use it, and the tracer counts into it (its {@code TracedRecord} adds
 * the file's name and mount).
 */
public record CounterRecord(long id, long rank, long fileRecordId, long[] counters, double[] fcounters) {}
