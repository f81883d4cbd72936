package io.pdla.patterns.db;

import java.nio.file.Path;

/** The database was written with another schema version than this code reads. */
public final class SchemaVersionException extends PatternDatabaseException {
    public SchemaVersionException(Path dir, int found, int expected) {
        super("pattern database at " + dir + " has schema version " + found + ", this pdla expects version " + expected
                + " (migrate it or use another --db directory)");
    }
}
