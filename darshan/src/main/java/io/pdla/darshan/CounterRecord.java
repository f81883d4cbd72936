package io.pdla.darshan;

/**
 * A fixed-layout record (POSIX, MPI-IO, STDIO, H5F, H5D, PNETCDF_*, BG/Q, MDHIM, DFS, DAOS) up-converted to the
 * module's current version. {@code fileRecordId} is the owning file's id for H5D and PNETCDF_VAR, else 0.
 */
public record CounterRecord(long id, long rank, long fileRecordId, long[] counters, double[] fcounters) {}
