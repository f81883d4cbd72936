package io.pdla.tracer.counters;

/** Darshan's access-size histogram: ten bins with inclusive upper edges, the same for POSIX and MPI-IO. */
public final class SizeBins {
    private static final long[] UPPER = {100, 1024, 10240, 102400, 1048576, 4194304, 10485760, 104857600, 1073741824L};

    private SizeBins() {
    }

    /** 0 for 0..100 bytes, ..., 9 for more than 1 GiB. */
    public static int bin(long size) {
        for (int i = 0; i < UPPER.length; i++) if (size <= UPPER[i]) return i;
        return UPPER.length;
    }
}
