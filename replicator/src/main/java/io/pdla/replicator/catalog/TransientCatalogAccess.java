package io.pdla.replicator.catalog;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Opens the catalog for one transaction and closes it again, waiting while another process holds it (JE
 * allows a single writing process per environment). Within one JVM and class loader, JE shares an open
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
        long deadline = System.nanoTime() + waitMillis * 1_000_000L;
        long sleep = 5;
        while (true) {
            Catalog c;
            try {
                c = Catalog.open(dir);
            } catch (CatalogLockedException e) {
                if (System.nanoTime() > deadline) {
                    throw new CatalogException("replica catalog " + dir + " stayed locked by another process for " + waitMillis + " ms", e);
                }
                try {
                    Thread.sleep(sleep);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new CatalogException("interrupted while waiting for replica catalog " + dir, ie);
                }
                sleep = Math.min(200, sleep * 2);
                continue;
            }
            try (c) {
                return c.transact(work);
            }
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
