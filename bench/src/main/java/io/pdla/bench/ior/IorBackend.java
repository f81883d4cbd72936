package io.pdla.bench.ior;

import java.io.IOException;

/**
 * What the benchmark loop needs from an I/O API, as IOR's aiori table: open, transfer, fsync, close,
 * delete. The loop ({@link IorEngine}) sees only this, so every backend runs exactly the same pattern.
 * Implementations report errors as {@link IOException}s.
 */
public interface IorBackend {
    /** A short name used in the output and JSON (mpiio, posix-baseline). */
    String name();

    /** What the backend is, for the header. */
    String description();

    /**
     * Opens {@code file} for a phase. Collective over the ranks sharing the file when the API is
     * (MPI-IO); {@code shared} says whether all ranks open the same file; {@code dataRank} is the rank
     * whose blocks this rank moves (itself, or its successor when reading back with -C), which a file
     * view (-V) is built for.
     */
    Handle open(String file, boolean forWrite, boolean shared, int dataRank) throws IOException;

    /** Deletes a file; called by one rank per file. Missing files are not an error. */
    void delete(String file) throws IOException;

    interface Handle {
        /** Moves {@code length} bytes between {@code buf[0..length)} and the file at {@code offset}; returns bytes moved. */
        long transfer(boolean write, long offset, byte[] buf, int length) throws IOException;

        void fsync() throws IOException;

        void close() throws IOException;
    }
}
