package io.pdla.darshan;

/**
 * The fixed record layouts and how darshan-util up-converts older module versions. Records are handled as 8-byte
 * words (every field is int64 or double), and the conversions move words exactly as darshan-util's memmove calls
 * move bytes, setting the counters an older version lacked to -1.
 */
enum CounterLayout {
    POSIX(ModuleId.POSIX, 0, DarshanText.POSIX_INT, DarshanText.POSIX_FLOAT),
    MPIIO(ModuleId.MPIIO, 0, DarshanText.MPIIO_INT, DarshanText.MPIIO_FLOAT),
    STDIO(ModuleId.STDIO, 0, DarshanText.STDIO_INT, DarshanText.STDIO_FLOAT),
    H5F(ModuleId.H5F, 0, DarshanText.H5F_INT, DarshanText.H5F_FLOAT),
    H5D(ModuleId.H5D, 1, DarshanText.H5D_INT, DarshanText.H5D_FLOAT),
    PNETCDF_FILE(ModuleId.PNETCDF_FILE, 0, DarshanText.PNETCDF_FILE_INT, DarshanText.PNETCDF_FILE_FLOAT),
    PNETCDF_VAR(ModuleId.PNETCDF_VAR, 1, DarshanText.PNETCDF_VAR_INT, DarshanText.PNETCDF_VAR_FLOAT),
    BGQ(ModuleId.BGQ, 0, DarshanText.BGQ_INT, DarshanText.BGQ_FLOAT),
    MDHIM(ModuleId.MDHIM, 0, DarshanText.MDHIM_INT, DarshanText.MDHIM_FLOAT),
    DFS(ModuleId.DFS, 0, DarshanText.DFS_INT, DarshanText.DFS_FLOAT),
    DAOS(ModuleId.DAOS, 0, DarshanText.DAOS_INT, DarshanText.DAOS_FLOAT);

    static final long MINUS_ONE_DOUBLE = Double.doubleToRawLongBits(-1.0);

    final ModuleId module;
    final int extraWords;
    final String[] intNames;
    final String[] floatNames;

    CounterLayout(ModuleId module, int extraWords, String[] intNames, String[] floatNames) {
        this.module = module;
        this.extraWords = extraWords;
        this.intNames = intNames;
        this.floatNames = floatNames;
    }

    static CounterLayout of(ModuleId id) {
        for (CounterLayout l : values()) if (l.module == id) return l;
        return null;
    }

    int currentWords() { return 2 + extraWords + intNames.length + floatNames.length; }

    /** Record size in words at a module version, or -1 if this reader cannot up-convert that version. */
    int wordsAt(int version) {
        if (version == module.currentVersion()) return currentWords();
        return switch (this) {
            case POSIX -> switch (version) { case 1 -> 85; case 2 -> 81; case 3 -> 83; default -> -1; };
            case MPIIO -> version == 1 || version == 2 ? 68 : -1;
            case STDIO -> version == 1 ? 30 : -1;
            case H5D -> version == 1 ? currentWords() - 1 : -1;
            default -> -1;
        };
    }

    /**
     * Up-converts {@code w} (at least 128 words, the old record in its first {@link #wordsAt} words) in place.
     * Returns false for a POSIX v1 record carrying stdio counters, which darshan-util omits.
     */
    boolean upConvert(long[] w, int version) {
        if (version == module.currentVersion()) return true;
        int recLen = wordsAt(version);
        switch (this) {
            case POSIX -> {
                if (version == 1) {
                    if (w[8] > 0) return false;
                    System.arraycopy(w, 12, w, 8, recLen - 12);
                }
                if (version <= 2) {
                    System.arraycopy(w, 69, w, 71, 12);
                    w[69] = MINUS_ONE_DOUBLE;
                    w[70] = MINUS_ONE_DOUBLE;
                }
                System.arraycopy(w, 3, w, 5, recLen - 3);
                w[3] = -1;
                w[4] = -1;
                System.arraycopy(w, 12, w, 15, recLen - 12);
                w[12] = -1;
                w[13] = -1;
                w[14] = 0;
            }
            case MPIIO -> {
                System.arraycopy(w, 56, w, 58, 12);
                w[56] = MINUS_ONE_DOUBLE;
                w[57] = MINUS_ONE_DOUBLE;
            }
            case STDIO -> {
                System.arraycopy(w, 3, w, 4, recLen - 3);
                w[3] = -1;
            }
            case H5D -> {
                // version 1 (Darshan 3.2.x) had no H5D_FILE_REC_ID after the base record; darshan-util sets it to 0
                System.arraycopy(w, 2, w, 3, recLen - 2);
                w[2] = 0;
            }
            default -> throw new IllegalStateException("no up-conversion for " + this + " v" + version);
        }
        return true;
    }

    CounterRecord toRecord(long[] w) {
        int base = 2 + extraWords;
        long[] c = new long[intNames.length];
        System.arraycopy(w, base, c, 0, c.length);
        double[] f = new double[floatNames.length];
        for (int i = 0; i < f.length; i++) f[i] = Double.longBitsToDouble(w[base + c.length + i]);
        return new CounterRecord(w[0], w[1], extraWords > 0 ? w[2] : 0, c, f);
    }

    int intIndex(String name) {
        for (int i = 0; i < intNames.length; i++) if (intNames[i].equals(name)) return i;
        throw new IllegalArgumentException(name);
    }

    int floatIndex(String name) {
        for (int i = 0; i < floatNames.length; i++) if (floatNames[i].equals(name)) return i;
        throw new IllegalArgumentException(name);
    }
}
