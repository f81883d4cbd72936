package io.pdla.bdb;

import java.nio.file.Path;
import java.util.OptionalInt;

/** A store on disk was written with another schema version than this code reads, or with none. */
public final class SchemaMismatchException extends RuntimeException {
    private final Path directory;
    private final OptionalInt found;
    private final int expected;

    SchemaMismatchException(SchemaVersion version, Path directory, OptionalInt found) {
        super(version.store() + " at " + directory + (found.isPresent()
                ? " has schema version " + found.getAsInt() + ", this pdla expects version " + version.expected()
                : " holds data but no schema version record, this pdla expects version " + version.expected()));
        this.directory = directory;
        this.found = found;
        this.expected = version.expected();
    }

    /** The record is there but damaged: not an int. */
    SchemaMismatchException(SchemaVersion version, Path directory, String damage) {
        super(version.store() + " at " + directory + " has an unreadable schema version record (" + damage
                + "), this pdla expects version " + version.expected());
        this.directory = directory;
        this.found = OptionalInt.empty();
        this.expected = version.expected();
    }

    public Path directory() {
        return directory;
    }

    /** The version on disk; empty when the store had no record. */
    public OptionalInt found() {
        return found;
    }

    public int expected() {
        return expected;
    }
}
