package io.pdla.darshan;

/** Darshan module ids as format 3.41 numbers them (older formats are remapped on reading). */
public enum ModuleId {
    NULL("NULL", 1), POSIX("POSIX", 4), MPIIO("MPI-IO", 3), H5F("H5F", 3), H5D("H5D", 2),
    PNETCDF_FILE("PNETCDF_FILE", 3), PNETCDF_VAR("PNETCDF_VAR", 1), BGQ("BG/Q", 2), LUSTRE("LUSTRE", 2),
    STDIO("STDIO", 2), DXT_POSIX("DXT_POSIX", 2), DXT_MPIIO("DXT_MPIIO", 3), MDHIM("MDHIM", 1),
    APXC("APXC", 0), APMPI("APMPI", 0), HEATMAP("HEATMAP", 1), DFS("DFS", 1), DAOS("DAOS", 1);

    /** Slots in the 3.41 header's module map. */
    public static final int MAX_MODS = 64;

    private final String label;
    private final int currentVersion;

    ModuleId(String label, int currentVersion) {
        this.label = label;
        this.currentVersion = currentVersion;
    }

    /** The name darshan-parser prints. */
    public String label() { return label; }

    /** The newest module format version this reader knows; 0 for modules it has no decoder for. */
    public int currentVersion() { return currentVersion; }

    public static ModuleId byIndex(int i) {
        return i >= 0 && i < values().length ? values()[i] : null;
    }
}
