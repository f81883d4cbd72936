package io.pdla.darshan;

/**
 * Counter names and the counter-description blocks darshan-parser prints, generated from darshan-util's
 * source (github darshan-hpc/darshan at 45bcba8: the X-macro counter lists in include/darshan-*-log-format.h and
 * the darshan_log_print_*_description functions in darshan-util/darshan-*-logutils.c) so that the text is the
 * same byte for byte. Regenerate rather than edit by hand. POSIX and MPI-IO, the modules pdla also writes, are
 * defined by their enums ({@link PosixCounter}, {@link PosixFCounter}, {@link MpiioCounter}, {@link MpiioFCounter},
 * which carry the merge rules too); every module's access-size histogram names come from {@link SizeBins}.
 */
@SuppressWarnings("all")
final class DarshanText {
    private DarshanText() {}

    /** One list of names from single names and runs of names (a {@link SizeBins#names} histogram). */
    private static String[] list(Object... parts) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (Object p : parts) {
            if (p instanceof String[] run) out.addAll(java.util.List.of(run));
            else out.add((String) p);
        }
        return out.toArray(new String[0]);
    }

    static final String[] POSIX_INT = Counter.names(PosixCounter.values());
    static final String[] POSIX_FLOAT = Counter.names(PosixFCounter.values());
    static final String[] MPIIO_INT = Counter.names(MpiioCounter.values());
    static final String[] MPIIO_FLOAT = Counter.names(MpiioFCounter.values());
    static final String[] STDIO_INT = {
        "STDIO_OPENS",
        "STDIO_FDOPENS",
        "STDIO_READS",
        "STDIO_WRITES",
        "STDIO_SEEKS",
        "STDIO_FLUSHES",
        "STDIO_BYTES_WRITTEN",
        "STDIO_BYTES_READ",
        "STDIO_MAX_BYTE_READ",
        "STDIO_MAX_BYTE_WRITTEN",
        "STDIO_FASTEST_RANK",
        "STDIO_FASTEST_RANK_BYTES",
        "STDIO_SLOWEST_RANK",
        "STDIO_SLOWEST_RANK_BYTES"};
    static final String[] STDIO_FLOAT = {
        "STDIO_F_META_TIME",
        "STDIO_F_WRITE_TIME",
        "STDIO_F_READ_TIME",
        "STDIO_F_OPEN_START_TIMESTAMP",
        "STDIO_F_CLOSE_START_TIMESTAMP",
        "STDIO_F_WRITE_START_TIMESTAMP",
        "STDIO_F_READ_START_TIMESTAMP",
        "STDIO_F_OPEN_END_TIMESTAMP",
        "STDIO_F_CLOSE_END_TIMESTAMP",
        "STDIO_F_WRITE_END_TIMESTAMP",
        "STDIO_F_READ_END_TIMESTAMP",
        "STDIO_F_FASTEST_RANK_TIME",
        "STDIO_F_SLOWEST_RANK_TIME",
        "STDIO_F_VARIANCE_RANK_TIME",
        "STDIO_F_VARIANCE_RANK_BYTES"};
    static final String[] H5F_INT = {
        "H5F_OPENS",
        "H5F_FLUSHES",
        "H5F_USE_MPIIO"};
    static final String[] H5F_FLOAT = {
        "H5F_F_OPEN_START_TIMESTAMP",
        "H5F_F_CLOSE_START_TIMESTAMP",
        "H5F_F_OPEN_END_TIMESTAMP",
        "H5F_F_CLOSE_END_TIMESTAMP",
        "H5F_F_META_TIME"};
    static final String[] H5D_INT = list(
        "H5D_OPENS",
        "H5D_READS",
        "H5D_WRITES",
        "H5D_FLUSHES",
        "H5D_BYTES_READ",
        "H5D_BYTES_WRITTEN",
        "H5D_RW_SWITCHES",
        "H5D_REGULAR_HYPERSLAB_SELECTS",
        "H5D_IRREGULAR_HYPERSLAB_SELECTS",
        "H5D_POINT_SELECTS",
        "H5D_MAX_READ_TIME_SIZE",
        "H5D_MAX_WRITE_TIME_SIZE",
        SizeBins.names("H5D_SIZE_READ_AGG_"),
        SizeBins.names("H5D_SIZE_WRITE_AGG_"),
        "H5D_ACCESS1_ACCESS",
        "H5D_ACCESS1_LENGTH_D1",
        "H5D_ACCESS1_LENGTH_D2",
        "H5D_ACCESS1_LENGTH_D3",
        "H5D_ACCESS1_LENGTH_D4",
        "H5D_ACCESS1_LENGTH_D5",
        "H5D_ACCESS1_STRIDE_D1",
        "H5D_ACCESS1_STRIDE_D2",
        "H5D_ACCESS1_STRIDE_D3",
        "H5D_ACCESS1_STRIDE_D4",
        "H5D_ACCESS1_STRIDE_D5",
        "H5D_ACCESS2_ACCESS",
        "H5D_ACCESS2_LENGTH_D1",
        "H5D_ACCESS2_LENGTH_D2",
        "H5D_ACCESS2_LENGTH_D3",
        "H5D_ACCESS2_LENGTH_D4",
        "H5D_ACCESS2_LENGTH_D5",
        "H5D_ACCESS2_STRIDE_D1",
        "H5D_ACCESS2_STRIDE_D2",
        "H5D_ACCESS2_STRIDE_D3",
        "H5D_ACCESS2_STRIDE_D4",
        "H5D_ACCESS2_STRIDE_D5",
        "H5D_ACCESS3_ACCESS",
        "H5D_ACCESS3_LENGTH_D1",
        "H5D_ACCESS3_LENGTH_D2",
        "H5D_ACCESS3_LENGTH_D3",
        "H5D_ACCESS3_LENGTH_D4",
        "H5D_ACCESS3_LENGTH_D5",
        "H5D_ACCESS3_STRIDE_D1",
        "H5D_ACCESS3_STRIDE_D2",
        "H5D_ACCESS3_STRIDE_D3",
        "H5D_ACCESS3_STRIDE_D4",
        "H5D_ACCESS3_STRIDE_D5",
        "H5D_ACCESS4_ACCESS",
        "H5D_ACCESS4_LENGTH_D1",
        "H5D_ACCESS4_LENGTH_D2",
        "H5D_ACCESS4_LENGTH_D3",
        "H5D_ACCESS4_LENGTH_D4",
        "H5D_ACCESS4_LENGTH_D5",
        "H5D_ACCESS4_STRIDE_D1",
        "H5D_ACCESS4_STRIDE_D2",
        "H5D_ACCESS4_STRIDE_D3",
        "H5D_ACCESS4_STRIDE_D4",
        "H5D_ACCESS4_STRIDE_D5",
        "H5D_ACCESS1_COUNT",
        "H5D_ACCESS2_COUNT",
        "H5D_ACCESS3_COUNT",
        "H5D_ACCESS4_COUNT",
        "H5D_DATASPACE_NDIMS",
        "H5D_DATASPACE_NPOINTS",
        "H5D_DATATYPE_SIZE",
        "H5D_CHUNK_SIZE_D1",
        "H5D_CHUNK_SIZE_D2",
        "H5D_CHUNK_SIZE_D3",
        "H5D_CHUNK_SIZE_D4",
        "H5D_CHUNK_SIZE_D5",
        "H5D_USE_MPIIO_COLLECTIVE",
        "H5D_USE_DEPRECATED",
        "H5D_FASTEST_RANK",
        "H5D_FASTEST_RANK_BYTES",
        "H5D_SLOWEST_RANK",
        "H5D_SLOWEST_RANK_BYTES");
    static final String[] H5D_FLOAT = {
        "H5D_F_OPEN_START_TIMESTAMP",
        "H5D_F_READ_START_TIMESTAMP",
        "H5D_F_WRITE_START_TIMESTAMP",
        "H5D_F_CLOSE_START_TIMESTAMP",
        "H5D_F_OPEN_END_TIMESTAMP",
        "H5D_F_READ_END_TIMESTAMP",
        "H5D_F_WRITE_END_TIMESTAMP",
        "H5D_F_CLOSE_END_TIMESTAMP",
        "H5D_F_READ_TIME",
        "H5D_F_WRITE_TIME",
        "H5D_F_META_TIME",
        "H5D_F_MAX_READ_TIME",
        "H5D_F_MAX_WRITE_TIME",
        "H5D_F_FASTEST_RANK_TIME",
        "H5D_F_SLOWEST_RANK_TIME",
        "H5D_F_VARIANCE_RANK_TIME",
        "H5D_F_VARIANCE_RANK_BYTES"};
    static final String[] PNETCDF_FILE_INT = {
        "PNETCDF_FILE_CREATES",
        "PNETCDF_FILE_OPENS",
        "PNETCDF_FILE_REDEFS",
        "PNETCDF_FILE_INDEP_WAITS",
        "PNETCDF_FILE_COLL_WAITS",
        "PNETCDF_FILE_SYNCS",
        "PNETCDF_FILE_BYTES_READ",
        "PNETCDF_FILE_BYTES_WRITTEN",
        "PNETCDF_FILE_WAIT_FAILURES"};
    static final String[] PNETCDF_FILE_FLOAT = {
        "PNETCDF_FILE_F_OPEN_START_TIMESTAMP",
        "PNETCDF_FILE_F_CLOSE_START_TIMESTAMP",
        "PNETCDF_FILE_F_WAIT_START_TIMESTAMP",
        "PNETCDF_FILE_F_OPEN_END_TIMESTAMP",
        "PNETCDF_FILE_F_CLOSE_END_TIMESTAMP",
        "PNETCDF_FILE_F_WAIT_END_TIMESTAMP",
        "PNETCDF_FILE_F_META_TIME",
        "PNETCDF_FILE_F_WAIT_TIME"};
    static final String[] PNETCDF_VAR_INT = list(
        "PNETCDF_VAR_OPENS",
        "PNETCDF_VAR_INDEP_READS",
        "PNETCDF_VAR_INDEP_WRITES",
        "PNETCDF_VAR_COLL_READS",
        "PNETCDF_VAR_COLL_WRITES",
        "PNETCDF_VAR_NB_READS",
        "PNETCDF_VAR_NB_WRITES",
        "PNETCDF_VAR_BYTES_READ",
        "PNETCDF_VAR_BYTES_WRITTEN",
        "PNETCDF_VAR_RW_SWITCHES",
        "PNETCDF_VAR_PUT_VAR",
        "PNETCDF_VAR_PUT_VAR1",
        "PNETCDF_VAR_PUT_VARA",
        "PNETCDF_VAR_PUT_VARS",
        "PNETCDF_VAR_PUT_VARM",
        "PNETCDF_VAR_PUT_VARN",
        "PNETCDF_VAR_PUT_VARD",
        "PNETCDF_VAR_GET_VAR",
        "PNETCDF_VAR_GET_VAR1",
        "PNETCDF_VAR_GET_VARA",
        "PNETCDF_VAR_GET_VARS",
        "PNETCDF_VAR_GET_VARM",
        "PNETCDF_VAR_GET_VARN",
        "PNETCDF_VAR_GET_VARD",
        "PNETCDF_VAR_IPUT_VAR",
        "PNETCDF_VAR_IPUT_VAR1",
        "PNETCDF_VAR_IPUT_VARA",
        "PNETCDF_VAR_IPUT_VARS",
        "PNETCDF_VAR_IPUT_VARM",
        "PNETCDF_VAR_IPUT_VARN",
        "PNETCDF_VAR_IGET_VAR",
        "PNETCDF_VAR_IGET_VAR1",
        "PNETCDF_VAR_IGET_VARA",
        "PNETCDF_VAR_IGET_VARS",
        "PNETCDF_VAR_IGET_VARM",
        "PNETCDF_VAR_IGET_VARN",
        "PNETCDF_VAR_BPUT_VAR",
        "PNETCDF_VAR_BPUT_VAR1",
        "PNETCDF_VAR_BPUT_VARA",
        "PNETCDF_VAR_BPUT_VARS",
        "PNETCDF_VAR_BPUT_VARM",
        "PNETCDF_VAR_BPUT_VARN",
        "PNETCDF_VAR_MAX_READ_TIME_SIZE",
        "PNETCDF_VAR_MAX_WRITE_TIME_SIZE",
        SizeBins.names("PNETCDF_VAR_SIZE_READ_AGG_"),
        SizeBins.names("PNETCDF_VAR_SIZE_WRITE_AGG_"),
        "PNETCDF_VAR_ACCESS1_ACCESS",
        "PNETCDF_VAR_ACCESS1_LENGTH_D1",
        "PNETCDF_VAR_ACCESS1_LENGTH_D2",
        "PNETCDF_VAR_ACCESS1_LENGTH_D3",
        "PNETCDF_VAR_ACCESS1_LENGTH_D4",
        "PNETCDF_VAR_ACCESS1_LENGTH_D5",
        "PNETCDF_VAR_ACCESS1_STRIDE_D1",
        "PNETCDF_VAR_ACCESS1_STRIDE_D2",
        "PNETCDF_VAR_ACCESS1_STRIDE_D3",
        "PNETCDF_VAR_ACCESS1_STRIDE_D4",
        "PNETCDF_VAR_ACCESS1_STRIDE_D5",
        "PNETCDF_VAR_ACCESS2_ACCESS",
        "PNETCDF_VAR_ACCESS2_LENGTH_D1",
        "PNETCDF_VAR_ACCESS2_LENGTH_D2",
        "PNETCDF_VAR_ACCESS2_LENGTH_D3",
        "PNETCDF_VAR_ACCESS2_LENGTH_D4",
        "PNETCDF_VAR_ACCESS2_LENGTH_D5",
        "PNETCDF_VAR_ACCESS2_STRIDE_D1",
        "PNETCDF_VAR_ACCESS2_STRIDE_D2",
        "PNETCDF_VAR_ACCESS2_STRIDE_D3",
        "PNETCDF_VAR_ACCESS2_STRIDE_D4",
        "PNETCDF_VAR_ACCESS2_STRIDE_D5",
        "PNETCDF_VAR_ACCESS3_ACCESS",
        "PNETCDF_VAR_ACCESS3_LENGTH_D1",
        "PNETCDF_VAR_ACCESS3_LENGTH_D2",
        "PNETCDF_VAR_ACCESS3_LENGTH_D3",
        "PNETCDF_VAR_ACCESS3_LENGTH_D4",
        "PNETCDF_VAR_ACCESS3_LENGTH_D5",
        "PNETCDF_VAR_ACCESS3_STRIDE_D1",
        "PNETCDF_VAR_ACCESS3_STRIDE_D2",
        "PNETCDF_VAR_ACCESS3_STRIDE_D3",
        "PNETCDF_VAR_ACCESS3_STRIDE_D4",
        "PNETCDF_VAR_ACCESS3_STRIDE_D5",
        "PNETCDF_VAR_ACCESS4_ACCESS",
        "PNETCDF_VAR_ACCESS4_LENGTH_D1",
        "PNETCDF_VAR_ACCESS4_LENGTH_D2",
        "PNETCDF_VAR_ACCESS4_LENGTH_D3",
        "PNETCDF_VAR_ACCESS4_LENGTH_D4",
        "PNETCDF_VAR_ACCESS4_LENGTH_D5",
        "PNETCDF_VAR_ACCESS4_STRIDE_D1",
        "PNETCDF_VAR_ACCESS4_STRIDE_D2",
        "PNETCDF_VAR_ACCESS4_STRIDE_D3",
        "PNETCDF_VAR_ACCESS4_STRIDE_D4",
        "PNETCDF_VAR_ACCESS4_STRIDE_D5",
        "PNETCDF_VAR_ACCESS1_COUNT",
        "PNETCDF_VAR_ACCESS2_COUNT",
        "PNETCDF_VAR_ACCESS3_COUNT",
        "PNETCDF_VAR_ACCESS4_COUNT",
        "PNETCDF_VAR_NDIMS",
        "PNETCDF_VAR_NPOINTS",
        "PNETCDF_VAR_DATATYPE_SIZE",
        "PNETCDF_VAR_IS_RECORD_VAR",
        "PNETCDF_VAR_FASTEST_RANK",
        "PNETCDF_VAR_FASTEST_RANK_BYTES",
        "PNETCDF_VAR_SLOWEST_RANK",
        "PNETCDF_VAR_SLOWEST_RANK_BYTES");
    static final String[] PNETCDF_VAR_FLOAT = {
        "PNETCDF_VAR_F_OPEN_START_TIMESTAMP",
        "PNETCDF_VAR_F_READ_START_TIMESTAMP",
        "PNETCDF_VAR_F_WRITE_START_TIMESTAMP",
        "PNETCDF_VAR_F_CLOSE_START_TIMESTAMP",
        "PNETCDF_VAR_F_OPEN_END_TIMESTAMP",
        "PNETCDF_VAR_F_READ_END_TIMESTAMP",
        "PNETCDF_VAR_F_WRITE_END_TIMESTAMP",
        "PNETCDF_VAR_F_CLOSE_END_TIMESTAMP",
        "PNETCDF_VAR_F_READ_TIME",
        "PNETCDF_VAR_F_WRITE_TIME",
        "PNETCDF_VAR_F_META_TIME",
        "PNETCDF_VAR_F_MAX_READ_TIME",
        "PNETCDF_VAR_F_MAX_WRITE_TIME",
        "PNETCDF_VAR_F_FASTEST_RANK_TIME",
        "PNETCDF_VAR_F_SLOWEST_RANK_TIME",
        "PNETCDF_VAR_F_VARIANCE_RANK_TIME",
        "PNETCDF_VAR_F_VARIANCE_RANK_BYTES"};
    static final String[] BGQ_INT = {
        "BGQ_CSJOBID",
        "BGQ_NNODES",
        "BGQ_RANKSPERNODE",
        "BGQ_DDRPERNODE",
        "BGQ_INODES",
        "BGQ_ANODES",
        "BGQ_BNODES",
        "BGQ_CNODES",
        "BGQ_DNODES",
        "BGQ_ENODES",
        "BGQ_TORUSENABLED"};
    static final String[] BGQ_FLOAT = {
        "BGQ_F_TIMESTAMP"};
    static final String[] MDHIM_INT = {
        "MDHIM_PUTS",
        "MDHIM_GETS",
        "MDHIM_PUT_MAX_SIZE",
        "MDHIM_GET_MAX_SIZE",
        "MDHIM_SERVERS"};
    static final String[] MDHIM_FLOAT = {
        "MDHIM_F_PUT_TIMESTAMP",
        "MDHIM_F_GET_TIMESTAMP",
        "MDHIM_F_PUT_MAX_DURATION",
        "MDHIM_F_GET_MAX_DURATION"};
    static final String[] DFS_INT = list(
        "DFS_OPENS",
        "DFS_GLOBAL_OPENS",
        "DFS_LOOKUPS",
        "DFS_DUPS",
        "DFS_READS",
        "DFS_READXS",
        "DFS_WRITES",
        "DFS_WRITEXS",
        "DFS_NB_READS",
        "DFS_NB_WRITES",
        "DFS_GET_SIZES",
        "DFS_PUNCHES",
        "DFS_REMOVES",
        "DFS_STATS",
        "DFS_BYTES_READ",
        "DFS_BYTES_WRITTEN",
        "DFS_RW_SWITCHES",
        "DFS_MAX_READ_TIME_SIZE",
        "DFS_MAX_WRITE_TIME_SIZE",
        SizeBins.names("DFS_SIZE_READ_"),
        SizeBins.names("DFS_SIZE_WRITE_"),
        "DFS_ACCESS1_ACCESS",
        "DFS_ACCESS2_ACCESS",
        "DFS_ACCESS3_ACCESS",
        "DFS_ACCESS4_ACCESS",
        "DFS_ACCESS1_COUNT",
        "DFS_ACCESS2_COUNT",
        "DFS_ACCESS3_COUNT",
        "DFS_ACCESS4_COUNT",
        "DFS_CHUNK_SIZE",
        "DFS_FASTEST_RANK",
        "DFS_FASTEST_RANK_BYTES",
        "DFS_SLOWEST_RANK",
        "DFS_SLOWEST_RANK_BYTES");
    static final String[] DFS_FLOAT = {
        "DFS_F_OPEN_START_TIMESTAMP",
        "DFS_F_READ_START_TIMESTAMP",
        "DFS_F_WRITE_START_TIMESTAMP",
        "DFS_F_CLOSE_START_TIMESTAMP",
        "DFS_F_OPEN_END_TIMESTAMP",
        "DFS_F_READ_END_TIMESTAMP",
        "DFS_F_WRITE_END_TIMESTAMP",
        "DFS_F_CLOSE_END_TIMESTAMP",
        "DFS_F_READ_TIME",
        "DFS_F_WRITE_TIME",
        "DFS_F_META_TIME",
        "DFS_F_MAX_READ_TIME",
        "DFS_F_MAX_WRITE_TIME",
        "DFS_F_FASTEST_RANK_TIME",
        "DFS_F_SLOWEST_RANK_TIME"};
    static final String[] DAOS_INT = list(
        "DAOS_OBJ_OPENS",
        "DAOS_OBJ_FETCHES",
        "DAOS_OBJ_UPDATES",
        "DAOS_OBJ_PUNCHES",
        "DAOS_OBJ_DKEY_PUNCHES",
        "DAOS_OBJ_AKEY_PUNCHES",
        "DAOS_OBJ_DKEY_LISTS",
        "DAOS_OBJ_AKEY_LISTS",
        "DAOS_OBJ_RECX_LISTS",
        "DAOS_ARRAY_OPENS",
        "DAOS_ARRAY_READS",
        "DAOS_ARRAY_WRITES",
        "DAOS_ARRAY_GET_SIZES",
        "DAOS_ARRAY_SET_SIZES",
        "DAOS_ARRAY_STATS",
        "DAOS_ARRAY_PUNCHES",
        "DAOS_ARRAY_DESTROYS",
        "DAOS_KV_OPENS",
        "DAOS_KV_GETS",
        "DAOS_KV_PUTS",
        "DAOS_KV_REMOVES",
        "DAOS_KV_LISTS",
        "DAOS_KV_DESTROYS",
        "DAOS_NB_OPS",
        "DAOS_BYTES_READ",
        "DAOS_BYTES_WRITTEN",
        "DAOS_RW_SWITCHES",
        "DAOS_MAX_READ_TIME_SIZE",
        "DAOS_MAX_WRITE_TIME_SIZE",
        SizeBins.names("DAOS_SIZE_READ_"),
        SizeBins.names("DAOS_SIZE_WRITE_"),
        "DAOS_ACCESS1_ACCESS",
        "DAOS_ACCESS2_ACCESS",
        "DAOS_ACCESS3_ACCESS",
        "DAOS_ACCESS4_ACCESS",
        "DAOS_ACCESS1_COUNT",
        "DAOS_ACCESS2_COUNT",
        "DAOS_ACCESS3_COUNT",
        "DAOS_ACCESS4_COUNT",
        "DAOS_OBJ_OTYPE",
        "DAOS_ARRAY_CELL_SIZE",
        "DAOS_ARRAY_CHUNK_SIZE",
        "DAOS_FASTEST_RANK",
        "DAOS_FASTEST_RANK_BYTES",
        "DAOS_SLOWEST_RANK",
        "DAOS_SLOWEST_RANK_BYTES");
    static final String[] DAOS_FLOAT = {
        "DAOS_F_OPEN_START_TIMESTAMP",
        "DAOS_F_READ_START_TIMESTAMP",
        "DAOS_F_WRITE_START_TIMESTAMP",
        "DAOS_F_CLOSE_START_TIMESTAMP",
        "DAOS_F_OPEN_END_TIMESTAMP",
        "DAOS_F_READ_END_TIMESTAMP",
        "DAOS_F_WRITE_END_TIMESTAMP",
        "DAOS_F_CLOSE_END_TIMESTAMP",
        "DAOS_F_READ_TIME",
        "DAOS_F_WRITE_TIME",
        "DAOS_F_META_TIME",
        "DAOS_F_MAX_READ_TIME",
        "DAOS_F_MAX_WRITE_TIME",
        "DAOS_F_FASTEST_RANK_TIME",
        "DAOS_F_SLOWEST_RANK_TIME"};
    static final String[] LUSTRE_COMP = {
        "LUSTRE_COMP_STRIPE_SIZE",
        "LUSTRE_COMP_STRIPE_COUNT",
        "LUSTRE_COMP_STRIPE_PATTERN",
        "LUSTRE_COMP_FLAGS",
        "LUSTRE_COMP_EXT_START",
        "LUSTRE_COMP_EXT_END",
        "LUSTRE_COMP_MIRROR_ID"};

    static void describePosix(StringBuilder out, int ver) {
    out.append("\n# description of POSIX counters:\n");
    out.append("#   POSIX_*: posix operation counts.\n");
    out.append("#   READS,WRITES,OPENS,SEEKS,STATS,MMAPS,SYNCS,FILENOS,DUPS are types of operations.\n");
    out.append("#   POSIX_RENAME_SOURCES/TARGETS: total count file was source or target of a rename operation\n");
    out.append("#   POSIX_RENAMED_FROM: Darshan record ID of the first rename source, if file was a rename target\n");
    out.append("#   POSIX_MODE: mode that file was opened in.\n");
    out.append("#   POSIX_BYTES_*: total bytes read and written.\n");
    out.append("#   POSIX_MAX_BYTE_*: highest offset byte read and written.\n");
    out.append("#   POSIX_CONSEC_*: number of exactly adjacent reads and writes.\n");
    out.append("#   POSIX_SEQ_*: number of reads and writes from increasing offsets.\n");
    out.append("#   POSIX_RW_SWITCHES: number of times access alternated between read and write.\n");
    out.append("#   POSIX_*_ALIGNMENT: memory and file alignment.\n");
    out.append("#   POSIX_*_NOT_ALIGNED: number of reads and writes that were not aligned.\n");
    out.append("#   POSIX_MAX_*_TIME_SIZE: size of the slowest read and write operations.\n");
    out.append("#   POSIX_SIZE_*_*: histogram of read and write access sizes.\n");
    out.append("#   POSIX_STRIDE*_STRIDE: the four most common strides detected.\n");
    out.append("#   POSIX_STRIDE*_COUNT: count of the four most common strides.\n");
    out.append("#   POSIX_ACCESS*_ACCESS: the four most common access sizes.\n");
    out.append("#   POSIX_ACCESS*_COUNT: count of the four most common access sizes.\n");
    out.append("#   POSIX_*_RANK: rank of the processes that were the fastest and slowest at I/O (for shared files).\n");
    out.append("#   POSIX_*_RANK_BYTES: bytes transferred by the fastest and slowest ranks (for shared files).\n");
    out.append("#   POSIX_F_*_START_TIMESTAMP: timestamp of first open/read/write/close.\n");
    out.append("#   POSIX_F_*_END_TIMESTAMP: timestamp of last open/read/write/close.\n");
    out.append("#   POSIX_F_READ/WRITE/META_TIME: cumulative time spent in read, write, or metadata operations.\n");
    out.append("#   POSIX_F_MAX_*_TIME: duration of the slowest read and write operations.\n");
    out.append("#   POSIX_F_*_RANK_TIME: fastest and slowest I/O time for a single rank (for shared files).\n");
    out.append("#   POSIX_F_VARIANCE_RANK_*: variance of total I/O time and bytes moved for all ranks (for shared files).\n");

    if(ver == 1)
    {
        out.append("\n# WARNING: POSIX module log format version 1 has the following limitations:\n");
        out.append("# - Darshan version 3.1.0 and earlier had only partial instrumentation of stdio stream I/O functions.\n");
        out.append("#   File records with stdio counters present will be omitted from output.\n");
        out.append("#   Use darshan-logutils < 3.1.0 to retrieve those records.\n");
    }
    if(ver <= 2)
    {
        out.append("\n# WARNING: POSIX module log format version <=2 has the following limitations:\n");
        out.append("# - No support for the following timers:\n");
        out.append("# \t- POSIX_F_CLOSE_START_TIMESTAMP\n");
        out.append("# \t- POSIX_F_OPEN_END_TIMESTAMP\n");
    }
    if(ver <=3)
    {
        out.append("\n# WARNING: POSIX module log format version <=3 has the following limitations:\n");
        out.append("# - No support for the following counters to properly instrument dup, fileno, and rename operations:\n");
        out.append("# \t- POSIX_FILENOS\n");
        out.append("# \t- POSIX_DUPS\n");
        out.append("# \t- POSIX_RENAME_SOURCES\n");
        out.append("# \t- POSIX_RENAME_TARGETS\n");
        out.append("# \t- POSIX_RENAMED_FROM\n");
    }

    if(ver >= 4)
    {
        out.append("\n# WARNING: POSIX_OPENS counter includes both POSIX_FILENOS and POSIX_DUPS counts\n");
        out.append("\n# WARNING: POSIX counters related to file offsets may be incorrect if a file is simultaneously accessed by both POSIX and STDIO (e.g., using fileno())\n");
        out.append("# \t- Affected counters include: MAX_BYTE_{READ|WRITTEN}, CONSEC_{READS|WRITES}, SEQ_{READS|WRITES}, {MEM|FILE}_NOT_ALIGNED, STRIDE*_STRIDE\n");
    }

    }

    static void describeMpiio(StringBuilder out, int ver) {
    out.append("\n# description of MPIIO counters:\n");
    out.append("#   MPIIO_INDEP_*: MPI independent operation counts.\n");
    out.append("#   MPIIO_COLL_*: MPI collective operation counts.\n");
    out.append("#   MPIIO_SPLIT_*: MPI split collective operation counts.\n");
    out.append("#   MPIIO_NB_*: MPI non blocking operation counts.\n");
    out.append("#   READS,WRITES,and OPENS are types of operations.\n");
    out.append("#   MPIIO_SYNCS: MPI file sync operation counts.\n");
    out.append("#   MPIIO_HINTS: number of times MPI hints were used.\n");
    out.append("#   MPIIO_VIEWS: number of times MPI file views were used.\n");
    out.append("#   MPIIO_MODE: MPI-IO access mode that file was opened with.\n");
    out.append("#   MPIIO_BYTES_*: total bytes read and written at MPI-IO layer.\n");
    out.append("#   MPIIO_RW_SWITCHES: number of times access alternated between read and write.\n");
    out.append("#   MPIIO_MAX_*_TIME_SIZE: size of the slowest read and write operations.\n");
    out.append("#   MPIIO_SIZE_*_AGG_*: histogram of MPI datatype total sizes for read and write operations.\n");
    out.append("#   MPIIO_ACCESS*_ACCESS: the four most common total access sizes.\n");
    out.append("#   MPIIO_ACCESS*_COUNT: count of the four most common total access sizes.\n");
    out.append("#   MPIIO_*_RANK: rank of the processes that were the fastest and slowest at I/O (for shared files).\n");
    out.append("#   MPIIO_*_RANK_BYTES: total bytes transferred at MPI-IO layer by the fastest and slowest ranks (for shared files).\n");
    out.append("#   MPIIO_F_*_START_TIMESTAMP: timestamp of first MPI-IO open/read/write/close.\n");
    out.append("#   MPIIO_F_*_END_TIMESTAMP: timestamp of last MPI-IO open/read/write/close.\n");
    out.append("#   MPIIO_F_READ/WRITE/META_TIME: cumulative time spent in MPI-IO read, write, or metadata operations.\n");
    out.append("#   MPIIO_F_MAX_*_TIME: duration of the slowest MPI-IO read and write operations.\n");
    out.append("#   MPIIO_F_*_RANK_TIME: fastest and slowest I/O time for a single rank (for shared files).\n");
    out.append("#   MPIIO_F_VARIANCE_RANK_*: variance of total I/O time and bytes moved for all ranks (for shared files).\n");

    if(ver == 1)
    {
        out.append("\n# WARNING: MPIIO module log format version 1 has the following limitations:\n");
        out.append("# - MPIIO_F_WRITE_START_TIMESTAMP may not be accurate.\n");
    }
    if(ver <= 2)
    {
        out.append("\n# WARNING: MPIIO module log format version <=2 does not support the following counters:\n");
        out.append("# - MPIIO_F_CLOSE_START_TIMESTAMP\n");
        out.append("# - MPIIO_F_OPEN_END_TIMESTAMP\n");
    }

    }

    static void describeStdio(StringBuilder out, int ver) {
    out.append("\n# description of STDIO counters:\n");
    out.append("#   STDIO_{OPENS|FDOPENS|WRITES|READS|SEEKS|FLUSHES} are types of operations.\n");
    out.append("#   STDIO_BYTES_*: total bytes read and written.\n");
    out.append("#   STDIO_MAX_BYTE_*: highest offset byte read and written.\n");
    out.append("#   STDIO_*_RANK: rank of the processes that were the fastest and slowest at I/O (for shared files).\n");
    out.append("#   STDIO_*_RANK_BYTES: bytes transferred by the fastest and slowest ranks (for shared files).\n");
    out.append("#   STDIO_F_*_START_TIMESTAMP: timestamp of the first call to that type of function.\n");
    out.append("#   STDIO_F_*_END_TIMESTAMP: timestamp of the completion of the last call to that type of function.\n");
    out.append("#   STDIO_F_*_TIME: cumulative time spent in different types of functions.\n");
    out.append("#   STDIO_F_*_RANK_TIME: fastest and slowest I/O time for a single rank (for shared files).\n");
    out.append("#   STDIO_F_VARIANCE_RANK_*: variance of total I/O time and bytes moved for all ranks (for shared files).\n");

    if(ver == 1)
    {
        out.append("\n# WARNING: STDIO module log format version 1 has the following limitations:\n");
        out.append("# - No support for properly instrumenting fdopen operations (STDIO_FDOPENS)\n");
    }

    if(ver >= 2)
    {
        out.append("\n# WARNING: STDIO_OPENS counter includes STDIO_FDOPENS count\n");
        out.append("\n# WARNING: STDIO counters related to file offsets may be incorrect if a file is simultaneously accessed by both STDIO and POSIX (e.g., using fdopen())\n");
        out.append("# \t- Affected counters include: MAX_BYTE_{READ|WRITTEN}\n");
    }

    }

    static void describeLustre(StringBuilder out, int ver) {
    out.append("\n# description of LUSTRE counters:\n");
    out.append("#   LUSTRE_NUM_COMPONENTS: number of instrumented components in the Lustre layout.\n");
    out.append("#   LUSTRE_NUM_STRIPES: number of active stripes in the Lustre layout components.\n");
    out.append("#   LUSTRE_COMP*_STRIPE_SIZE: stripe size for this file layout component in bytes.\n");
    out.append("#   LUSTRE_COMP*_STRIPE_COUNT: number of OSTs over which the file layout component is striped.\n");
    out.append("#   LUSTRE_COMP*_STRIPE_PATTERN: pattern (e.g., raid0, mdt, overstriped) for this file layout component.\n");
    out.append("#   LUSTRE_COMP*_FLAGS: captured flags (e.g. init, prefwr, stale) for this file layout component.\n");
    out.append("#   LUSTRE_COMP*_EXT_START: starting file extent for this file layout component.\n");
    out.append("#   LUSTRE_COMP*_EXT_END: ending file extent for this file layout component (-1 means EOF).\n");
    out.append("#   LUSTRE_COMP*_MIRROR_ID: mirror ID for this file layout component, if mirrors are enabled.\n");
    out.append("#   LUSTRE_COMP*_POOL_NAME: Lustre OST pool used for this file layout component.\n");
    out.append("#   LUSTRE_COMP*_OST_ID_*: indices of OSTs over which this file layout component is striped.\n");

    }

    static void describeH5f(StringBuilder out, int ver) {
    out.append("\n# description of HDF5 counters:\n");
    out.append("#   H5F_OPENS: HDF5 file open/create operation counts.\n");
    out.append("#   H5F_FLUSHES: HDF5 file flush operation counts.\n");
    out.append("#   H5F_USE_MPIIO: flag indicating whether MPI-IO was used to access this file.\n");
    out.append("#   H5F_F_*_START_TIMESTAMP: timestamp of first HDF5 file open/close.\n");
    out.append("#   H5F_F_*_END_TIMESTAMP: timestamp of last HDF5 file open/close.\n");
    out.append("#   H5F_F_META_TIME: cumulative time spent in HDF5 metadata operations.\n");

    if(ver == 1)
    {
        out.append("\n# WARNING: H5F module log format version 1 does not support the following counters:\n");
        out.append("# - H5F_F_CLOSE_START_TIMESTAMP\n");
        out.append("# - H5F_F_OPEN_END_TIMESTAMP\n");
    }
    if(ver <= 2)
    {
        out.append("\n# WARNING: H5F module log format version <=2 does not support the following counters:\n");
        out.append("# \t- H5F_FLUSHES\n");
        out.append("# \t- H5F_USE_MPIIO\n");
        out.append("# \t- H5F_F_META_TIME\n");
    }

    }

    static void describeH5d(StringBuilder out, int ver) {
    out.append("\n# description of HDF5 counters:\n");
    out.append("#   H5D_OPENS: HDF5 dataset open/create operation counts.\n");
    out.append("#   H5D_READS: HDF5 dataset read operation counts.\n");
    out.append("#   H5D_WRITES: HDF5 dataset write operation counts.\n");
    out.append("#   H5D_FLUSHES: HDF5 dataset flush operation counts.\n");
    out.append("#   H5D_BYTES_*: total bytes read and written at HDF5 dataset layer.\n");
    out.append("#   H5D_RW_SWITCHES: number of times access alternated between read and write.\n");
    out.append("#   H5D_*_SELECTS: number of different access selections (regular/irregular hyperslab or points).\n");
    out.append("#   H5D_MAX_*_TIME_SIZE: size of the slowest read and write operations.\n");
    out.append("#   H5D_SIZE_*_AGG_*: histogram of H5D total access sizes for read and write operations.\n");
    out.append("#   H5D_ACCESS*_*: the four most common total accesses, in terms of size and length/stride (in last 5 dimensions).\n");
    out.append("#   H5D_ACCESS*_COUNT: count of the four most common total access sizes.\n");
    out.append("#   H5D_DATASPACE_NDIMS: number of dimensions in dataset's dataspace.\n");
    out.append("#   H5D_DATASPACE_NPOINTS: number of points in dataset's dataspace.\n");
    out.append("#   H5D_DATATYPE_SIZE: size of each dataset element.\n");
    out.append("#   H5D_CHUNK_SIZE_D*: chunk size in last 5 dimensions of dataset.\n");
    out.append("#   H5D_USE_MPIIO_COLLECTIVE: flag indicating whether MPI-IO collectives were used to access this dataset.\n");
    out.append("#   H5D_USE_DEPRECATED: flag indicating whether deprecated H5D calls were used.\n");
    out.append("#   H5D_*_RANK: rank of the processes that were the fastest and slowest at I/O (for shared datasets).\n");
    out.append("#   H5D_*_RANK_BYTES: total bytes transferred at H5D layer by the fastest and slowest ranks (for shared datasets).\n");
    out.append("#   H5D_F_*_START_TIMESTAMP: timestamp of first HDF5 dataset open/read/write/close.\n");
    out.append("#   H5D_F_*_END_TIMESTAMP: timestamp of last HDF5 datset open/read/write/close.\n");
    out.append("#   H5D_F_READ/WRITE/META_TIME: cumulative time spent in H5D read, write, or metadata operations.\n");
    out.append("#   H5D_F_MAX_*_TIME: duration of the slowest H5D read and write operations.\n");
    out.append("#   H5D_F_*_RANK_TIME: fastest and slowest I/O time for a single rank (for shared datasets).\n");
    out.append("#   H5D_F_VARIANCE_RANK_*: variance of total I/O time and bytes moved for all ranks (for shared datasets).\n");
    out.append("#   H5D_FILE_REC_ID: Darshan file record ID of the file the dataset belongs to.\n");

    if(ver == 1)
    {
        out.append("\n# WARNING: H5D module log format version 1 does not support the following counters:\n");
        out.append("# - H5D_FILE_REC_ID\n");
    }

    }

    static void describePnetcdfFile(StringBuilder out, int ver) {
    out.append("\n# description of PnetCDF counters:\n");
    out.append("#   PNETCDF_FILE_CREATES: PnetCDF file create operation counts.\n");
    out.append("#   PNETCDF_FILE_OPENS: PnetCDF file open operation counts.\n");
    out.append("#   PNETCDF_FILE_REDEFS: PnetCDF file re-define operation counts.\n");
    out.append("#   PNETCDF_FILE_INDEP_WAITS: PnetCDF independent file wait operation counts.\n");
    out.append("#   PNETCDF_FILE_COLL_WAITS: PnetCDF collective file wait operation counts.\n");
    out.append("#   PNETCDF_FILE_SYNCS: PnetCDF file sync operation counts.\n");
    out.append("#   PNETCDF_FILE_BYTES_READ: PnetCDF total bytes read for all file variables.\n");
    out.append("#   PNETCDF_FILE_BYTES_WRITTEN: PnetCDF total bytes written for all file variables.\n");
    out.append("#   PNETCDF_FILE_WAIT_FAILURES: PnetCDF file wait operation failure counts.\n");
    out.append("#   PNETCDF_FILE_F_*_START_TIMESTAMP: timestamp of first PnetCDF file open/close/wait operation.\n");
    out.append("#   PNETCDF_FILE_F_*_END_TIMESTAMP: timestamp of last PnetCDF file open/close/wait operation.\n");
    out.append("#   PNETCDF_FILE_F_META_TIME: Cumulative time spent in file metadata operations.\n");
    out.append("#   PNETCDF_FILE_F_WAIT_TIME: Cumulative time spent in file wait operations.\n");

    if(ver == 1)
    {
        out.append("\n# WARNING: PnetCDF file module log format version 1 does not support the following counters:\n");
        out.append("# - PNETCDF_FILE_F_CLOSE_START_TIMESTAMP\n");
        out.append("# - PNETCDF_FILE_F_OPEN_END_TIMESTAMP\n");
    }
    if(ver <= 2)
    {
        out.append("\n# WARNING: PnetCDF file module log format version <=2 does not support the following counters:\n");
        out.append("# - PNETCDF_FILE_CREATES\n");
        out.append("# - PNETCDF_FILE_REDEFS\n");
        out.append("# - PNETCDF_FILE_INDEP_WAITS\n");
        out.append("# - PNETCDF_FILE_COLL_WAITS\n");
        out.append("# - PNETCDF_FILE_SYNCS\n");
        out.append("# - PNETCDF_FILE_BYTES_READ\n");
        out.append("# - PNETCDF_FILE_BYTES_WRITTEN\n");
        out.append("# - PNETCDF_FILE_WAIT_FAILURES\n");
        out.append("# - PNETCDF_FILE_F_WAIT_START_TIMESTAMP\n");
        out.append("# - PNETCDF_FILE_F_WAIT_END_TIMESTAMP\n");
        out.append("# - PNETCDF_FILE_F_META_TIME\n");
        out.append("# - PNETCDF_FILE_F_WAIT_TIME\n");
    }

    }

    static void describePnetcdfVar(StringBuilder out, int ver) {
    out.append("\n# description of PnetCDF counters:\n");
    out.append("#   PNETCDF_VAR_OPENS: PnetCDF variable define/inquire operation counts.\n");
    out.append("#   PNETCDF_VAR_INDEP_READS: PnetCDF variable independent read operation counts.\n");
    out.append("#   PNETCDF_VAR_INDEP_WRITES: PnetCDF variable independent write operation counts.\n");
    out.append("#   PNETCDF_VAR_COLL_READS: PnetCDF variable collective read operation counts.\n");
    out.append("#   PNETCDF_VAR_COLL_WRITES: PnetCDF variable collective write operation counts.\n");
    out.append("#   PNETCDF_VAR_NB_READS: PnetCDF variable nonblocking read operation counts.\n");
    out.append("#   PNETCDF_VAR_NB_WRITES: PnetCDF variable nonblocking write operation counts.\n");
    out.append("#   PNETCDF_VAR_BYTES_*: total bytes read and written at PnetCDF variable layer.\n");
    out.append("#   PNETCDF_VAR_RW_SWITCHES: number of times access alternated between read and write.\n");
    out.append("#   PNETCDF_VAR_PUT_VAR*: number of calls to ncmpi_put_var* APIs (var, var1, vara, vars, varm, varn, vard).\n");
    out.append("#   PNETCDF_VAR_GET_VAR*: number of calls to ncmpi_get_var* APIs (var, var1, vara, vars, varm, varn, vard).\n");
    out.append("#   PNETCDF_VAR_IPUT_VAR*: number of calls to ncmpi_iput_var* APIs (var, var1, vara, vars, varm, varn).\n");
    out.append("#   PNETCDF_VAR_IGET_VAR*: number of calls to ncmpi_iget_var* APIs (var, var1, vara, vars, varm, varn).\n");
    out.append("#   PNETCDF_VAR_BPUT_VAR*: number of calls to ncmpi_bput_var* APIs (var, var1, vara, vars, varm, varn).\n");
    out.append("#   PNETCDF_VAR_MAX_*_TIME_SIZE: size of the slowest read and write operations.\n");
    out.append("#   PNETCDF_VAR_SIZE_*_AGG_*: histogram of PnetCDf total access sizes for read and write operations.\n");
    out.append("#   PNETCDF_VAR_ACCESS*_*: the four most common total accesses, in terms of size and length/stride (in last 5 dimensions).\n");
    out.append("#   PNETCDF_VAR_ACCESS*_COUNT: count of the four most common total access sizes.\n");
    out.append("#   PNETCDF_VAR_NDIMS: number of dimensions in the variable.\n");
    out.append("#   PNETCDF_VAR_NPOINTS: number of points in the variable.\n");
    out.append("#   PNETCDF_VAR_DATATYPE_SIZE: size of each variable element.\n");
    out.append("#   PNETCDF_VAR_*_RANK: rank of the processes that were the fastest and slowest at I/O (for shared datasets).\n");
    out.append("#   PNETCDF_VAR_*_RANK_BYTES: total bytes transferred at PnetCDF layer by the fastest and slowest ranks (for shared datasets).\n");
    out.append("#   PNETCDF_VAR_F_*_START_TIMESTAMP: timestamp of first PnetCDF variable open/read/write/close.\n");
    out.append("#   PNETCDF_VAR_F_*_END_TIMESTAMP: timestamp of last PnetCDF variable open/read/write/close.\n");
    out.append("#   PNETCDF_VAR_F_READ/WRITE/META_TIME: cumulative time spent in PnetCDF read, write, or metadata operations.\n");
    out.append("#   PNETCDF_VAR_F_MAX_*_TIME: duration of the slowest PnetCDF read and write operations.\n");
    out.append("#   PNETCDF_VAR_F_*_RANK_TIME: fastest and slowest I/O time for a single rank (for shared datasets).\n");
    out.append("#   PNETCDF_VAR_F_VARIANCE_RANK_*: variance of total I/O time and bytes moved for all ranks (for shared datasets).\n");
    out.append("#   PNETCDF_VAR_FILE_REC_ID: Darshan file record ID of the file the variable belongs to.\n");

    }

    static void describeHeatmap(StringBuilder out, int ver) {
    out.append("\n# description of heatmap counters:\n");
    out.append("#   HEATMAP_F_BIN_WIDTH_SECONDS: time duration of each heatmap bin\n");
    out.append("#   HEATMAP_{READ|WRITE}_BIN_{*}: number of bytes read or written within specified heatmap bin\n");

    }

    static void describeBgq(StringBuilder out, int ver) {
    out.append("\n# description of BGQ counters:\n");
    out.append("#   BGQ_CSJOBID: BGQ control system job ID.\n");
    out.append("#   BGQ_NNODES: number of BGQ compute nodes for this job.\n");
    out.append("#   BGQ_RANKSPERNODE: number of MPI ranks per compute node.\n");
    out.append("#   BGQ_DDRPERNODE: size in MB of DDR3 per compute node.\n");
    out.append("#   BGQ_INODES: number of BGQ I/O nodes for this job.\n");
    out.append("#   BGQ_*NODES: dimension of A, B, C, D, & E dimensions of torus.\n");
    out.append("#   BGQ_TORUSENABLED: which dimensions of the torus are enabled.\n");
    out.append("#   BGQ_F_TIMESTAMP: timestamp when the BGQ data was collected.\n");

    }

    static void describeMdhim(StringBuilder out, int ver) {
    out.append("\n# description of MDHIM counters:\n");
    out.append("#   MDHIM_PUTS: number of 'mdhim_put' function calls.\n");
    out.append("#   MDHIM_GETS: number of 'mdhim_get' function calls.\n");
    out.append("#   MDHIM_SERVERS: how many mdhim servers \n");
    out.append("#   MDHIM_F_PUT_TIMESTAMP: timestamp of the first call to function 'mdhim_put'.\n");
    out.append("#   MDHIM_F_GET_TIMESTAMP: timestamp of the first call to function 'mdhim_get'.\n");
    out.append("#   MDHIM_SERVER_N: how many operations sent to this server\n");

    }

    static void describeDfs(StringBuilder out, int ver) {
    out.append("\n# description of DFS counters:\n");
    out.append("#   DFS_*: DFS operation counts.\n");
    out.append("#   OPENS,GLOBAL_OPENS,LOOKUPS,DUPS,READS,READXS,WRITES,WRITEXS,GET_SIZES,PUNCHES,REMOVES,STATS are types of operations.\n");
    out.append("#   DFS_BYTES_*: total bytes read and written.\n");
    out.append("#   DFS_RW_SWITCHES: number of times access alternated between read and write.\n");
    out.append("#   DFS_MAX_*_TIME_SIZE: size of the slowest read and write operations.\n");
    out.append("#   DFS_SIZE_*_*: histogram of read and write access sizes.\n");
    out.append("#   DFS_ACCESS*_ACCESS: the four most common access sizes.\n");
    out.append("#   DFS_ACCESS*_COUNT: count of the four most common access sizes.\n");
    out.append("#   DFS_CHUNK_SIZE: DFS file chunk size.\n");
    out.append("#   DFS_*_RANK: rank of the processes that were the fastest and slowest at I/O (for shared files).\n");
    out.append("#   DFS_*_RANK_BYTES: bytes transferred by the fastest and slowest ranks (for shared files).\n");
    out.append("#   DFS_F_*_START_TIMESTAMP: timestamp of first open/read/write/close.\n");
    out.append("#   DFS_F_*_END_TIMESTAMP: timestamp of last open/read/write/close.\n");
    out.append("#   DFS_F_READ/WRITE/META_TIME: cumulative time spent in read, write, or metadata operations.\n");
    out.append("#   DFS_F_MAX_*_TIME: duration of the slowest read and write operations.\n");
    out.append("#   DFS_F_*_RANK_TIME: fastest and slowest I/O time for a single rank (for shared files).\n");

    }

    static void describeDaos(StringBuilder out, int ver) {
    out.append("\n# description of DAOS counters:\n");
    out.append("#   DAOS_*: DAOS operation counts.\n");
    out.append("#   OBJ_OPENS,OBJ_FETCHES,OBJ_UPDATES,OBJ_PUNCHES,OBJ_DKEY_PUNCHES,OBJ_AKEY_PUNCHES,OBJ_DKEY_LISTS,OBJ_AKEY_LISTS,OBJ_RECX_LISTS are types of DAOS object operations.\n");
    out.append("#   ARRAY_OPENS,ARRAY_READS,ARRAY_WRITES,ARRAY_GET_SIZES,ARRAY_SET_SIZES,ARRAY_STATS,ARRAY_PUNCHES,ARRAY_DESTROYS are types of DAOS array operations\n");
    out.append("#   KV_OPENS,KV_GETS,KV_PUTS,KV_REMOVES,KV_LISTS,KV_DESTROYS are types of DAOS kv operations\n");
    out.append("#   DAOS_BYTES_*: total bytes read and written using all DAOS object APIs.\n");
    out.append("#   DAOS_RW_SWITCHES: number of times access alternated between read and write.\n");
    out.append("#   DAOS_MAX_*_TIME_SIZE: size of the slowest read and write operations.\n");
    out.append("#   DAOS_SIZE_*_*: histogram of read and write access sizes.\n");
    out.append("#   DAOS_ACCESS*_ACCESS: the four most common access sizes.\n");
    out.append("#   DAOS_ACCESS*_COUNT: count of the four most common access sizes.\n");
    out.append("#   DAOS_OBJ_OTYPE: DAOS otype value for the object.\n");
    out.append("#   DAOS_ARRAY_CELL_SIZE: the cell size for DAOS array objects\n");
    out.append("#   DAOS_ARRAY_CHUNK_SIZE: the chunk size for DAOS array objects\n");
    out.append("#   DAOS_*_RANK: rank of the processes that were the fastest and slowest at I/O (for shared objects).\n");
    out.append("#   DAOS_*_RANK_BYTES: bytes transferred by the fastest and slowest ranks (for shared objects).\n");
    out.append("#   DAOS_F_*_START_TIMESTAMP: timestamp of first open/read/write/close.\n");
    out.append("#   DAOS_F_*_END_TIMESTAMP: timestamp of last open/read/write/close.\n");
    out.append("#   DAOS_F_READ/WRITE/META_TIME: cumulative time spent in read, write, or metadata operations.\n");
    out.append("#   DAOS_F_MAX_*_TIME: duration of the slowest read and write operations.\n");
    out.append("#   DAOS_F_*_RANK_TIME: fastest and slowest I/O time for a single rank (for shared objects).\n");

    }

}
