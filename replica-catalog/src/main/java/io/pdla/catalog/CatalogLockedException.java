package io.pdla.catalog;

/** Another process held the catalog's environment open for writing longer than the caller waited (maybe not at all). */
public final class CatalogLockedException extends CatalogException {
    public CatalogLockedException(String message, Throwable cause) {
        super(message, cause);
    }
}
