package io.pdla.intercept;

import java.util.Map;

/**
 * How pdla looks a setting up when it can come from several places: the open's hint, else a JVM system property,
 * else the environment (as {@link Environment} reads it, so niodev ranks see the launcher's variables too). A
 * blank value counts as unset at every step, so an empty hint or {@code -Dname=} never hides a value set further
 * down, and every setting answers the same way.
 */
public final class Setting {
    private Setting() {
    }

    /**
     * The first non-blank value of the hint {@code hint} in {@code hints}, the system property {@code property} and
     * the environment variable {@code env}, or null; a null name (or null {@code hints}) skips that step.
     */
    public static String lookup(Map<String, String> hints, String hint, String property, String env) {
        if (hints != null && hint != null) {
            String v = hints.get(hint);
            if (isSet(v)) return v;
        }
        if (property != null) {
            String v = System.getProperty(property);
            if (isSet(v)) return v;
        }
        if (env != null) {
            String v = Environment.get(env);
            if (isSet(v)) return v;
        }
        return null;
    }

    private static boolean isSet(String v) {
        return v != null && !v.isBlank();
    }
}
