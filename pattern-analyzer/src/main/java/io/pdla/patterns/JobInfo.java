package io.pdla.patterns;

import java.util.Map;
import java.util.TreeMap;

/**
 * The identity of a traced job and what it touched.
 *
 * @param appCommand the application's execution command (the pattern database key's first part)
 * @param nprocs     number of processes of the run
 * @param files      file id -> original path
 * @param hints      MPI-IO hints in effect (kept in the runtime info)
 * @param runtime    storage facts known to the tracer (file system, servers, stripes); may be unknown
 */
public record JobInfo(String appCommand, int nprocs, Map<Integer, String> files, Map<String, String> hints,
                      RuntimeInfo runtime) {
    public JobInfo {
        if (appCommand == null || appCommand.isBlank()) throw new IllegalArgumentException("job has no application command");
        if (nprocs < 1) throw new IllegalArgumentException("job nprocs must be >= 1, was " + nprocs);
        files = Map.copyOf(new TreeMap<>(files));
        hints = hints == null ? Map.of() : Map.copyOf(hints);
        runtime = runtime == null ? RuntimeInfo.unknown() : runtime;
    }

    public String path(int fileId) {
        String p = files.get(fileId);
        return p != null ? p : "file#" + fileId;
    }
}
