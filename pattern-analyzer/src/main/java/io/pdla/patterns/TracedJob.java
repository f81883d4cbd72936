package io.pdla.patterns;

import io.pdla.intercept.AppIdentity;
import io.pdla.storage.StorageDrivers;

import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A traced job as the analyzer sees it: who ran (core's {@link AppIdentity}, the first half of every pattern key)
 * and what it touched.
 *
 * @param app     the application's execution command and number of processes
 * @param files   file id -> original path or URI
 * @param hints   MPI-IO hints in effect (kept in the runtime info)
 * @param runtime storage facts known to the tracer (file system, servers, stripes); may be unknown
 */
public record TracedJob(AppIdentity app, Map<Integer, String> files, Map<String, String> hints, RuntimeInfo runtime) {
    public TracedJob {
        Objects.requireNonNull(app, "traced job: application identity");
        files = Map.copyOf(new TreeMap<>(files));
        hints = hints == null ? Map.of() : Map.copyOf(hints);
        runtime = runtime == null ? RuntimeInfo.unknown() : runtime;
    }

    public TracedJob(String command, int processes, Map<Integer, String> files, Map<String, String> hints, RuntimeInfo runtime) {
        this(new AppIdentity(command, processes), files, hints, runtime);
    }

    public String path(int fileId) {
        String p = files.get(fileId);
        return p != null ? p : "file#" + fileId;
    }

    /** The file as the pattern key names it (a path becomes a {@code file:} URI). */
    public URI uri(int fileId) {
        return StorageDrivers.toUri(path(fileId));
    }
}
