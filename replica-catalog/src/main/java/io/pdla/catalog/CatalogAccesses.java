package io.pdla.catalog;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the catalog access for a directory: one registered by this process (a daemon or test that keeps the
 * environment open), otherwise a {@link TransientCatalogAccess}. The registry is per class loader, as every
 * static in pdla is (one per MPJ rank under the multicore device).
 */
public final class CatalogAccesses {
    private static final Map<Path, CatalogAccess> REGISTERED = new ConcurrentHashMap<>();

    private CatalogAccesses() {
    }

    public static CatalogAccess forDir(Path dir, long waitMillis) {
        Path key = dir.toAbsolutePath().normalize();
        CatalogAccess held = REGISTERED.get(key);
        return held != null ? held : new TransientCatalogAccess(key, waitMillis);
    }

    public static void register(Path dir, CatalogAccess access) {
        REGISTERED.put(dir.toAbsolutePath().normalize(), access);
    }

    public static void unregister(Path dir) {
        REGISTERED.remove(dir.toAbsolutePath().normalize());
    }
}
