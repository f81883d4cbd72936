package io.pdla.analytics;

import java.util.Map;

/**
 * SPI for query engines other than the built-in DuckDB, found by {@link java.util.ServiceLoader} (e.g. module
 * analytics-spark registers "spark"). Options are engine-specific, e.g. {@code master} for Spark.
 */
public interface QueryEngineProvider {
    String name();

    QueryEngine open(Tables tables, Map<String, String> options);
}
