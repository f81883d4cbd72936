package io.pdla.analytics;

/**
 * Runs SQL over the views {@code job}, {@code file}, {@code rank}, {@code segment} of a {@link Tables}
 * directory. DuckDB ({@link DuckDbEngine}) is built in; others come through {@link QueryEngineProvider}.
 */
public interface QueryEngine extends AutoCloseable {
    /** The engine's name ("duckdb", "spark"). */
    String name();

    /** Runs one SQL query; an SQL error becomes a {@link QueryException} with the engine's message. */
    QueryResult run(String sql);

    @Override
    void close();
}
