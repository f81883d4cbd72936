package io.pdla.analytics;

/** A query the tables cannot answer as written: unknown column or table, bad operator or value. The message says which. */
public final class QueryException extends RuntimeException {
    public QueryException(String message) { super(message); }

    public QueryException(String message, Throwable cause) { super(message, cause); }
}
