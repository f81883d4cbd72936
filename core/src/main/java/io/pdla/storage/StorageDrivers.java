package io.pdla.storage;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Finds the driver for a file name. An explicit scheme ({@code simpfs:/data/f}) wins; a plain path is a
 * POSIX file. Drivers are looked up with the class loader that loaded this class, because under MPJ's
 * multicore device every rank has its own class loader and the thread context loader is not ours.
 */
public final class StorageDrivers {
    private final Map<String, StorageDriver> byScheme = new TreeMap<>();

    private StorageDrivers() {
        for (StorageDriver d : ServiceLoader.load(StorageDriver.class, StorageDriver.class.getClassLoader())) {
            byScheme.putIfAbsent(d.scheme(), d);
        }
    }

    private static final class Holder {
        static final StorageDrivers INSTANCE = new StorageDrivers();
    }

    public static StorageDrivers installed() {
        return Holder.INSTANCE;
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
        StorageDriver d = byScheme.get(scheme);
        if (d == null) {
            throw new IllegalArgumentException("unknown URI scheme '" + scheme + "' in '" + uri
                    + "'; installed drivers: " + byScheme.keySet());
        }
        return d;
    }

    public java.util.Set<String> schemes() {
        return java.util.Collections.unmodifiableSet(byScheme.keySet());
    }
}
