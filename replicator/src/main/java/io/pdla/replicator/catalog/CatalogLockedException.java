package io.pdla.replicator.catalog;

/** Another process holds the catalog's environment open for writing; {@link TransientCatalogAccess} waits and retries. */
public final class CatalogLockedException extends CatalogException {
    public CatalogLockedException(String message, Throwable cause) {
        super(message, cause);
    }
}
