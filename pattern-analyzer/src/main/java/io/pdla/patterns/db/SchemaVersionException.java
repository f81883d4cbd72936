package io.pdla.patterns.db;

import io.pdla.bdb.SchemaMismatchException;

/** The database was written with another schema version than this code reads. */
public final class SchemaVersionException extends PatternDatabaseException {
    public SchemaVersionException(SchemaMismatchException mismatch) {
        super(mismatch.getMessage() + " (migrate it or use another --db directory)", mismatch);
    }
}
