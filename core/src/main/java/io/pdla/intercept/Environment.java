package io.pdla.intercept;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * pdla's environment variables ({@code PDLA_*}) as a rank sees them, whatever MPJ device started it. Under the
 * multicore device ranks inherit the launcher's environment; under niodev MPJ's daemon starts the rank JVMs
 * with its own environment, so the launcher passes each variable as a JVM system property
 * {@code pdla.env.NAME} (URL-encoded, so values with spaces survive MPJ's hand-over) and this class reads the
 * variable first and that property second.
 */
public final class Environment {
    public static final String PROPERTY_PREFIX = "pdla.env.";

    private Environment() {
    }

    /** The value of {@code name}, or null when neither the variable nor its property is set. */
    public static String get(String name) {
        String v = System.getenv(name);
        if (v != null) return v;
        String p = System.getProperty(PROPERTY_PREFIX + name);
        return p == null ? null : URLDecoder.decode(p, StandardCharsets.UTF_8);
    }

    /** The JVM argument that carries {@code name=value} to a rank started without the launcher's environment. */
    public static String asJvmArgument(String name, String value) {
        return "-D" + PROPERTY_PREFIX + name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
