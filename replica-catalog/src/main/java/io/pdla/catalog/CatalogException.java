package io.pdla.catalog;

/** The replica catalog cannot be used: missing, locked too long, corrupt. The message names the directory. */
public class CatalogException extends RuntimeException {
    public CatalogException(String message, Throwable cause) {
        super(message, cause);
    }

    public CatalogException(String message) {
        super(message);
    }
}
