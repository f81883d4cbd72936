package io.pdla.darshan;

import java.nio.ByteOrder;

/**
 * The uncompressed header, with module slots already remapped to format 3.41 numbering (darshan-util inserts an
 * empty H5D slot for formats before 3.20 and an empty PNETCDF_VAR slot before 3.41, shifting the partial bits).
 */
public record DarshanHeader(String version, int major, int minor, ByteOrder order, Compression compression,
                            long partialFlag, Region job, Region names, Region[] modules, int[] moduleVersions,
                            int headerBytes) {
    public boolean partial(int module) { return (partialFlag & (1L << module)) != 0; }

    public boolean atLeast(int maj, int min) { return major > maj || (major == maj && minor >= min); }
}
