package io.pdla.redirect;

import io.pdla.intercept.Setting;
import io.pdla.size.ByteSize;
import java.nio.file.Path;
import java.util.Map;

/**
 * Settings of the redirect layer, from the open's hints, else system properties, else the environment ({@link Setting}:
 * a blank value counts as unset):
 * <ul>
 * <li>catalog directory: hint {@value #HINT_CATALOG}, property {@code pdla.catalog}, env {@code PDLA_CATALOG}
 * (none: the interceptor passes every call through);</li>
 * <li>read-ahead per open file, a size ({@code 4m}, {@code 65536}; core's {@link ByteSize} grammar): hint
 * {@value #HINT_READAHEAD} (0 disables; default 4 MiB);</li>
 * <li>catalog wait in ms while another process holds it: hint {@value #HINT_WAIT} (default 10000);</li>
 * <li>how often, in ms, an online job's read-only open that no replica serves looks for one published since, so that
 * the rest of the open is served from it: hint {@value #HINT_WATCH} (0: only at the next open; default
 * {@value #DEFAULT_WATCH_MILLIS}).</li>
 * </ul>
 */
public record RedirectConfig(Path catalog, long readAheadBytes, long catalogWaitMillis, long watchMillis) {
    public static final String HINT_CATALOG = "pdla_catalog";
    public static final String HINT_READAHEAD = "pdla_readahead_bytes";
    public static final String HINT_WAIT = "pdla_catalog_wait_ms";
    public static final String HINT_WATCH = "pdla_replica_watch_ms";
    public static final long DEFAULT_READAHEAD = 4L << 20;
    public static final long DEFAULT_WATCH_MILLIS = 50;

    public RedirectConfig(Path catalog, long readAheadBytes, long catalogWaitMillis) {
        this(catalog, readAheadBytes, catalogWaitMillis, DEFAULT_WATCH_MILLIS);
    }

    public static RedirectConfig from(Map<String, String> hints) {
        String dir = Setting.lookup(hints, HINT_CATALOG, "pdla.catalog", "PDLA_CATALOG");
        String ra = Setting.lookup(hints, HINT_READAHEAD, "pdla.readahead_bytes", "PDLA_READAHEAD_BYTES");
        String wait = Setting.lookup(hints, HINT_WAIT, "pdla.catalog_wait_ms", "PDLA_CATALOG_WAIT_MS");
        String watch = Setting.lookup(hints, HINT_WATCH, "pdla.replica_watch_ms", "PDLA_REPLICA_WATCH_MS");
        return new RedirectConfig(dir == null ? null : catalogDir(dir),
                ByteSize.parse(ra, "hint " + HINT_READAHEAD, DEFAULT_READAHEAD), parse(wait, 10_000, HINT_WAIT),
                parse(watch, DEFAULT_WATCH_MILLIS, HINT_WATCH));
    }

    /** The catalog directory named by the setting; one that cannot be a directory is bad input naming the hint. */
    private static Path catalogDir(String dir) {
        Path p;
        try {
            p = Path.of(dir);
        } catch (java.nio.file.InvalidPathException e) {
            throw new IllegalArgumentException("hint " + HINT_CATALOG + " (or PDLA_CATALOG): '" + dir + "' is not a path: " + e.getReason(), e);
        }
        if (java.nio.file.Files.exists(p) && !java.nio.file.Files.isDirectory(p)) {
            throw new IllegalArgumentException("hint " + HINT_CATALOG + " (or PDLA_CATALOG): " + dir + " is not a directory");
        }
        return p;
    }

    public RedirectConfig withCatalog(Path dir) {
        return new RedirectConfig(dir, readAheadBytes, catalogWaitMillis, watchMillis);
    }

    public RedirectConfig withReadAhead(long bytes) {
        return new RedirectConfig(catalog, bytes, catalogWaitMillis, watchMillis);
    }

    private static long parse(String v, long fallback, String name) {
        if (v == null || v.isBlank()) return fallback;
        try {
            long x = Long.parseLong(v.trim());
            if (x < 0) throw new IllegalArgumentException("hint " + name + " must be >= 0, was " + v);
            return x;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("hint " + name + " must be a whole number, was '" + v + "'", e);
        }
    }
}
