package io.pdla.patterns.online;

import io.pdla.hints.HintFlag;
import io.pdla.intercept.Environment;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Settings of online PDLA, each from the open's hint, else a system property, else the environment (as redirect
 * finds its catalog):
 * <ul>
 * <li>on/off: hint {@value #HINT_ONLINE}, property {@code pdla.online}, env {@code PDLA_ONLINE} (default off);</li>
 * <li>pattern database: hint {@value #HINT_PATTERNS}, property {@code pdla.patterns}, env {@code PDLA_PATTERNS}
 * (the directory of {@code pdla analyze --db}; required when online PDLA is on);</li>
 * <li>window: hint {@value #HINT_WINDOW}, the most requests of one pass over a file (one open) a rank matches
 * (default {@value #DEFAULT_WINDOW}); a longer pass is not matched further and is no candidate.</li>
 * </ul>
 */
public record OnlineSettings(boolean enabled, Path patternDb, int window) {
    public static final String HINT_ONLINE = "pdla_online";
    public static final String HINT_PATTERNS = "pdla_patterns";
    public static final String HINT_WINDOW = "pdla_online_window";
    public static final int DEFAULT_WINDOW = 16384;
    /** Upper bound of the window: with it, a rank's matcher memory stays below a few MiB whatever the hint says. */
    public static final int MAX_WINDOW = 1 << 20;

    public OnlineSettings {
        if (window < 16 || window > MAX_WINDOW) {
            throw new IllegalArgumentException("hint " + HINT_WINDOW + " must be between 16 and " + MAX_WINDOW + " requests, was " + window);
        }
    }

    /** Whether the hints (or the process's settings) turn online PDLA on; bad values are errors naming the setting. */
    public static boolean requested(Map<String, String> hints) {
        String v = hints.get(HINT_ONLINE);
        String what = "hint " + HINT_ONLINE;
        if (v == null) {
            v = System.getProperty("pdla.online");
            what = "system property pdla.online";
        }
        if (v == null) {
            v = Environment.get("PDLA_ONLINE");
            what = "environment variable PDLA_ONLINE";
        }
        return v != null && !v.isBlank() && HintFlag.parse(what, v);
    }

    public static OnlineSettings from(Map<String, String> hints) {
        boolean on = requested(hints);
        String db = pick(hints, HINT_PATTERNS, "pdla.patterns", "PDLA_PATTERNS");
        String w = pick(hints, HINT_WINDOW, "pdla.online_window", "PDLA_ONLINE_WINDOW");
        int window = DEFAULT_WINDOW;
        if (w != null && !w.isBlank()) {
            try {
                window = Integer.parseInt(w.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("hint " + HINT_WINDOW + " must be a whole number of requests, was '" + w + "'", e);
            }
        }
        Path dir = null;
        if (db != null && !db.isBlank()) {
            try {
                dir = Path.of(db.trim());
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("hint " + HINT_PATTERNS + " (or PDLA_PATTERNS): '" + db + "' is not a path: " + e.getReason(), e);
            }
        }
        if (on && dir == null) {
            throw new IllegalArgumentException("online PDLA (" + HINT_ONLINE + ") needs the pattern database: hint " + HINT_PATTERNS
                    + " or PDLA_PATTERNS (the directory of `pdla analyze --db`)");
        }
        return new OnlineSettings(on, dir, window);
    }

    private static String pick(Map<String, String> hints, String hint, String prop, String env) {
        String v = hints.get(hint);
        if (v == null) v = System.getProperty(prop);
        if (v == null) v = Environment.get(env);
        return v;
    }
}
