package io.pdla.analytics.spark;

import io.pdla.analytics.QueryEngine;
import io.pdla.analytics.QueryEngineProvider;
import io.pdla.analytics.Tables;
import java.util.Map;

/** {@code --engine spark [--master URL]} (default master {@code local[*]}). */
public final class SparkEngineProvider implements QueryEngineProvider {
    @Override
    public String name() { return "spark"; }

    @Override
    public QueryEngine open(Tables tables, Map<String, String> options) {
        return new SparkEngine(tables, options.getOrDefault("master", "local[*]"));
    }
}
