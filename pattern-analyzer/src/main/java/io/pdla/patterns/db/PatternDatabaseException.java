package io.pdla.patterns.db;

/** The pattern database could not be opened or used; the message names the database directory. */
public class PatternDatabaseException extends RuntimeException {
    public PatternDatabaseException(String message) {
        super(message);
    }

    public PatternDatabaseException(String message, Throwable cause) {
        super(message, cause);
    }
}
