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
    /**
     * Milliseconds between two rewrites of a rank's summary file at the moments it has no open file; 0 rewrites
     * it at every such moment. It is always written at shutdown.
     */
    public static final String HINT_SUMMARY_INTERVAL = "pdla_trace_summary_interval";
    public static final long DEFAULT_SUMMARY_INTERVAL_MILLIS = 1000;

    private TraceSettings() {
    }

    /**
     * The summary interval the hints ask for, in nanoseconds. A value that is not a whole number of milliseconds
     * >= 0 is reported (naming the hint and the value) and the default is used: a tracer setting never fails the
     * application's I/O.
     */
    public static long summaryIntervalNanos(Map<String, String> hints, java.util.function.Consumer<String> warn) {
        String v = hints.get(HINT_SUMMARY_INTERVAL);
        long millis = DEFAULT_SUMMARY_INTERVAL_MILLIS;
        if (v != null) {
            try {
                millis = Long.parseLong(v.trim());
                if (millis < 0) throw new NumberFormatException("negative");
            } catch (NumberFormatException e) {
                warn.accept("hint " + HINT_SUMMARY_INTERVAL + "='" + v + "' is not a number of milliseconds >= 0; using "
                        + DEFAULT_SUMMARY_INTERVAL_MILLIS);
                millis = DEFAULT_SUMMARY_INTERVAL_MILLIS;
            }
        }
        return java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(millis);
    }

    public static Path traceDir(Map<String, String> hints) {
        String d = io.pdla.intercept.Setting.lookup(hints, HINT_DIR, PROPERTY_DIR, ENV_DIR);
        if (d == null) d = DEFAULT_DIR;
        return Path.of(d).toAbsolutePath().normalize();
    }
}
