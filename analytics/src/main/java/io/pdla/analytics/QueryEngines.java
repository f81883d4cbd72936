package io.pdla.analytics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/** Opens an engine by name: "duckdb" (built in) or a {@link QueryEngineProvider} on the class path. */
public final class QueryEngines {
    private QueryEngines() {}

    public static QueryEngine open(String name, Tables tables, Map<String, String> options) {
        if (name == null || name.equalsIgnoreCase("duckdb")) return new DuckDbEngine(tables);
        List<String> known = new ArrayList<>(List.of("duckdb"));
        for (QueryEngineProvider p : ServiceLoader.load(QueryEngineProvider.class)) {
            if (p.name().equalsIgnoreCase(name)) return p.open(tables, options);
            known.add(p.name());
        }
        if (name.equalsIgnoreCase("spark")) {
            throw new QueryException("engine spark is not in the pdla jar (Spark's dependencies are ~350 MB): build module "
                    + "analytics-spark (mvn -B -q -pl analytics-spark -am package -DskipTests) and run "
                    + "analytics-spark/pdla-spark query --engine spark ... (analytics/README.md, 'Spark')");
        }
        throw new QueryException("unknown engine '" + name + "' (known: " + String.join(", ", known) + ")");
    }
}
