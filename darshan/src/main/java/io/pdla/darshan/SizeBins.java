package io.pdla.darshan;

import java.util.List;

/**
 * Darshan's access-size histogram: ten bins with inclusive upper edges, the same for every module that has one
 * (POSIX_SIZE_READ_*, MPIIO_SIZE_WRITE_AGG_*, H5D_, PNETCDF_VAR_, DFS_, DAOS_). The one definition of the bins'
 * edges and of their names.
 */
public final class SizeBins {
    private static final long[] UPPER = {100, 1024, 10240, 102400, 1048576, 4194304, 10485760, 104857600, 1073741824L};
    /** The bins' name suffixes, as Darshan spells them in counter names. */
    public static final List<String> SUFFIXES = List.of("0_100", "100_1K", "1K_10K", "10K_100K", "100K_1M", "1M_4M",
            "4M_10M", "10M_100M", "100M_1G", "1G_PLUS");
    /** The bins as a person reads them (chart labels). */
    public static final List<String> LABELS = List.of("0-100", "100-1K", "1K-10K", "10K-100K", "100K-1M", "1M-4M",
            "4M-10M", "10M-100M", "100M-1G", "1G+");
    /** Number of bins. */
    public static final int COUNT = UPPER.length + 1;

    private SizeBins() {
    }

    /** 0 for 0..100 bytes, ..., 9 for more than 1 GiB. */
    public static int bin(long size) {
        for (int i = 0; i < UPPER.length; i++) if (size <= UPPER[i]) return i;
        return UPPER.length;
    }

    /** The ten counter names of a histogram: {@code prefix} + each suffix ("POSIX_SIZE_READ_" -> POSIX_SIZE_READ_0_100, ...). */
    public static String[] names(String prefix) {
        String[] out = new String[SUFFIXES.size()];
        for (int i = 0; i < out.length; i++) out[i] = prefix + SUFFIXES.get(i);
        return out;
    }

    /**
     * The names of a histogram's counters, from its first bin's counter (e.g. {@code POSIX_SIZE_READ_0_100}): the
     * {@link #COUNT} counters that follow it in its module's order.
     */
    public static List<String> names(Counter firstBin) {
        Counter[] all = (Counter[]) ((Enum<?>) firstBin).getDeclaringClass().getEnumConstants();
        String[] out = new String[COUNT];
        for (int i = 0; i < COUNT; i++) out[i] = all[firstBin.ordinal() + i].name();
        return List.of(out);
    }

    /** The bins whose upper edge is at most {@code bytes} (with 1 MiB: the five bins up to 100K_1M). */
    public static int binsUpTo(long bytes) {
        int n = 0;
        while (n < UPPER.length && UPPER[n] <= bytes) n++;
        return n;
    }
}
