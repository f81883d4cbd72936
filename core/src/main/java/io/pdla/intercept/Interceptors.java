package io.pdla.intercept;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;

/**
 * Decides which interceptors a file gets. The names come from, in order of precedence: the hint
 * {@value #HINT}, the system property {@value #PROPERTY}, the environment variable {@value #ENV}, and the
 * key {@code interceptors} of the properties file named by {@value #ENV_CONFIG}. Names are
 * comma-separated; "none" turns optional interception off. Providers that declare themselves
 * {@linkplain IoInterceptorProvider#requiredFor required} for an open join the chain whatever the names say.
 */
public final class Interceptors {
    public static final String HINT = "pdla_interceptors";
    public static final String PROPERTY = "pdla.interceptors";
    public static final String ENV = "PDLA_INTERCEPTORS";
    public static final String ENV_CONFIG = "PDLA_CONFIG";

    private final Map<String, IoInterceptorProvider> providers = new TreeMap<>();
    /** Made at class initialisation (a rank's warm-up), not linked at the rank's first open. */
    private static final Comparator<IoInterceptorProvider> BY_ORDER = Comparator.comparingInt(IoInterceptorProvider::order);

    public Interceptors() {
        for (IoInterceptorProvider p : ServiceLoader.load(IoInterceptorProvider.class, io.pdla.storage.PluginLoaders.forSpi(IoInterceptorProvider.class))) {
            providers.putIfAbsent(p.name(), p);
        }
    }

    /**
     * Each provider's {@link IoInterceptorProvider#warmUp} in turn; one that fails is passed over (the interceptor's
     * own use at an open reports the problem). Returns how many warmed up without failing.
     */
    public int warmUp() {
        int done = 0;
        for (IoInterceptorProvider p : providers.values()) {
            try {
                p.warmUp();
                done++;
            } catch (RuntimeException | LinkageError e) {
                // a warm-up only saves time: the open that uses this interceptor reports what is wrong with it
            }
        }
        return done;
    }

    public Set<String> known() {
        return providers.keySet();
    }

    /** The configured names, in chain order; unknown names are an {@link IllegalArgumentException}. */
    public List<IoInterceptorProvider> configured(Map<String, String> hints) {
        return configured(hints, false);
    }

    /** For an open with or without write access: the configured names plus the providers that are required for it. */
    public List<IoInterceptorProvider> configured(Map<String, String> hints, boolean writable) {
        List<IoInterceptorProvider> out = named(hints);
        for (IoInterceptorProvider p : providers.values()) {
            if (!out.contains(p) && p.requiredFor(hints, writable)) out.add(p);
        }
        out.sort(BY_ORDER);
        return out;
    }

    private List<IoInterceptorProvider> named(Map<String, String> hints) {
        String spec = hints.get(HINT);
        String source = "hint " + HINT;
        if (spec == null) {
            spec = System.getProperty(PROPERTY);
            source = "system property " + PROPERTY;
        }
        if (spec == null) {
            spec = Environment.get(ENV);
            source = "environment variable " + ENV;
        }
        if (spec == null) {
            spec = fromConfigFile();
            source = "config file " + Environment.get(ENV_CONFIG);
        }
        if (spec == null || spec.isBlank() || spec.trim().equals("none")) return new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (String n : spec.split(",")) if (!n.isBlank()) names.add(n.trim());
        List<IoInterceptorProvider> out = new ArrayList<>();
        for (String n : names) {
            IoInterceptorProvider p = providers.get(n);
            if (p == null) {
                throw new IllegalArgumentException("unknown interceptor '" + n + "' in " + source + "; known: " + providers.keySet());
            }
            out.add(p);
        }
        return out;
    }

    private static String fromConfigFile() {
        String file = Environment.get(ENV_CONFIG);
        if (file == null || file.isBlank()) return null;
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(Path.of(file))) {
            props.load(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + ENV_CONFIG + " file " + file + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            // a malformed unicode escape (Properties.load) or a path the file system cannot name
            throw new IllegalArgumentException(ENV_CONFIG + " file " + file + ": " + e.getMessage(), e);
        }
        return props.getProperty("interceptors");
    }
}
