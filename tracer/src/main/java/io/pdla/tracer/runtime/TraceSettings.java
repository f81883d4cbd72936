package io.pdla.tracer.runtime;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where traces go: the hint {@value #HINT_DIR}, else the system property {@value #PROPERTY_DIR}, else the
 * environment variable {@value #ENV_DIR} (set by {@code pdla run --trace DIR}), else {@value #DEFAULT_DIR}
 * in the working directory.
 */
public final class TraceSettings {
    public static final String HINT_DIR = "pdla_trace_dir";
    public static final String PROPERTY_DIR = "pdla.trace.dir";
    public static final String ENV_DIR = "PDLA_TRACE_DIR";
    public static final String DEFAULT_DIR = "pdla-trace";
    /** Bytes of encoded trace waiting for the writer above which a call waits (once) for it; default 8 MiB. */
    public static final String PROPERTY_SOFT_BACKLOG = "pdla.trace.backlog.soft";
    /** Bytes waiting above which calls are dropped from the trace (and counted); default 64 MiB. */
    public static final String PROPERTY_HARD_BACKLOG = "pdla.trace.backlog.hard";

    private TraceSettings() {
    }

    public static Path traceDir(Map<String, String> hints) {
        String d = hints.get(HINT_DIR);
        if (d == null || d.isBlank()) d = System.getProperty(PROPERTY_DIR);
        if (d == null || d.isBlank()) d = io.pdla.intercept.Environment.get(ENV_DIR);
        if (d == null || d.isBlank()) d = DEFAULT_DIR;
        return Path.of(d).toAbsolutePath().normalize();
    }
}
