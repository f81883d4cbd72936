package io.pdla.darshan;

/**
 * A counter of a Darshan module: an enum constant whose name is Darshan's, whose ordinal is its index in the
 * record, and which knows its merge rule. The enums are the one definition of the POSIX and MPI-IO counters
 * (as the X-macro lists of darshan-posix-log-format.h and darshan-mpiio-log-format.h are Darshan's).
 */
public interface Counter {
    String name();

    int ordinal();

    Merge merge();

    /** The names of {@code counters}, in order. */
    static String[] names(Counter[] counters) {
        String[] out = new String[counters.length];
        for (int i = 0; i < counters.length; i++) out[i] = counters[i].name();
        return out;
    }
}
