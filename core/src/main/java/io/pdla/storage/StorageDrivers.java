package io.pdla.storage;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Iterator;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Finds the driver for a file name. An explicit scheme ({@code simpfs:/data/f}) wins; a plain path is a
 * POSIX file. Drivers are looked up through {@link PluginLoaders#forSpi}: under MPJ's multicore device every rank
 * finds them on its own class path, and each rank (each such loader) has its own set of driver instances, whether
 * pdla's core is loaded per rank or once per JVM. The POSIX driver, core's own, is always there.
 */
public final class StorageDrivers {
    private final Map<String, StorageDriver> byScheme = new TreeMap<>();
    /**
     * The plugins' drivers not made yet, in the loader's order, made only as far as a scheme asked for needs, the first
     * of a scheme winning. Local files are core's own POSIX driver's, made without looking at the plugins: so a rank's
     * first open of a local file makes no other driver (the HDFS driver's class, verified, loads Hadoop's), whatever
     * the order of the class path.
     */
    private final Iterator<StorageDriver> notYetMade;

    private StorageDrivers(ClassLoader loader) {
        this.notYetMade = ServiceLoader.load(StorageDriver.class, loader).iterator();
    }

    /** The driver of {@code scheme}, making plugins' drivers in order until one has it; null when none has. */
    private synchronized StorageDriver driver(String scheme) {
        StorageDriver d = byScheme.get(scheme);
        if (d == null && scheme.equals(LOCAL)) {
            d = new io.pdla.storage.posix.PosixDriver();
            byScheme.put(LOCAL, d);
        }
        while (d == null && notYetMade.hasNext()) {
            StorageDriver made = notYetMade.next();
            if (!made.scheme().equals(LOCAL)) byScheme.putIfAbsent(made.scheme(), made);
            d = byScheme.get(scheme);
        }
        return d;
    }

    private static final String LOCAL = "file";

    /** Warms up the local-file driver's path to the system before a rank's first open (the rank's warm-up thread calls it). */
    public static void warmUpLocalFiles() {
        io.pdla.storage.posix.PosixDriver.warmUp();
    }

    /**
     * The drivers by the calling thread's context class loader (null for threads without one): one set per rank under
     * the multicore device, one per JVM otherwise; each found once, through the loader {@link PluginLoaders} picks.
     */
    private static final Map<ClassLoader, StorageDrivers> BY_CONTEXT = new java.util.WeakHashMap<>();
    private static StorageDrivers withoutContext;

    public static StorageDrivers installed() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        synchronized (BY_CONTEXT) {
            if (context == null) {
                if (withoutContext == null) withoutContext = new StorageDrivers(StorageDriver.class.getClassLoader());
                return withoutContext;
            }
            StorageDrivers d = BY_CONTEXT.get(context);   // no computeIfAbsent lambda: spun in every rank's first open
            if (d == null) {
                d = new StorageDrivers(PluginLoaders.forSpi(StorageDriver.class));
                BY_CONTEXT.put(context, d);
            }
            return d;
        }
    }

    /** Turns a user's file name (a URI or a plain path) into an absolute URI. */
    public static URI toUri(String name) {
        if (name == null || name.isEmpty()) throw new IllegalArgumentException("file name is empty");
        int colon = name.indexOf(':');
        int slash = name.indexOf('/');
        boolean hasScheme = colon > 1 && (slash < 0 || colon < slash);
        if (!hasScheme) return Path.of(name).toAbsolutePath().normalize().toUri();
        try {
            URI uri = new URI(name);
            return io.pdla.storage.posix.PosixDriver.canonical(uri);
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a valid file name or URI: '" + name + "': " + e.getMessage(), e);
        }
    }

    /** The driver for the URI's scheme; {@code IllegalArgumentException} naming the known schemes if none. */
    public StorageDriver forUri(URI uri) {
        String scheme = uri.getScheme() == null ? "file" : uri.getScheme();
        StorageDriver d = driver(scheme);
        if (d == null) {
            throw new IllegalArgumentException("unknown URI scheme '" + scheme + "' in '" + uri
                    + "'; installed drivers: " + schemes());
        }
        return d;
    }

    /** The schemes of every installed driver (all made by now). */
    public synchronized java.util.Set<String> schemes() {
        driver(LOCAL);
        while (notYetMade.hasNext()) {
            StorageDriver made = notYetMade.next();
            if (!made.scheme().equals(LOCAL)) byScheme.putIfAbsent(made.scheme(), made);
        }
        return java.util.Collections.unmodifiableSet(new TreeMap<>(byScheme).keySet());
    }
}
