package io.pdla.catalog;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Opens the catalog for one transaction and closes it again, waiting (pdla-bdb's back-off) while another process
 * holds it (JE allows a single writing process per environment). Within one JVM and class loader, JE shares an open
 * environment between handles, so this is cheap when a {@link Catalog} is already open here.
 */
public final class TransientCatalogAccess implements CatalogAccess {
    private final Path dir;
    private final long waitMillis;

    public TransientCatalogAccess(Path dir, long waitMillis) {
        this.dir = dir.toAbsolutePath().normalize();
        this.waitMillis = waitMillis;
    }

    @Override
    public <T> T transact(Work<T> work) throws IOException {
        try (Catalog c = Catalog.openWaiting(dir, waitMillis)) {
            return c.transact(work);
        }
    }

    @Override
    public String location() {
        return dir.toString();
    }

    @Override
    public Path directory() {
        return dir;
    }
}
