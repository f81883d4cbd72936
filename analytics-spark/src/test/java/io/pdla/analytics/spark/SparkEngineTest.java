package io.pdla.analytics.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pdla.analytics.Analyses;
import io.pdla.analytics.Ingest;
import io.pdla.analytics.Query;
import io.pdla.analytics.QueryEngine;
import io.pdla.analytics.QueryEngines;
import io.pdla.analytics.QueryException;
import io.pdla.analytics.QueryResult;
import io.pdla.analytics.Synthetic;
import io.pdla.analytics.Tables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark in local mode (local[1]) over the same Parquet tables gives the same rows as DuckDB: the operators, plain
 * SQL and the named analyses, on the sample logs ingested and on synthetic jobs. Spark's start-up makes it heavy.
 */
@Tag("heavy")
class SparkEngineTest {
    @TempDir
    Path tmp;

    /** darshan's written sample logs (pdla's writer, in this module's target/written-logs). */
    private static Path sampleLogs() throws java.io.IOException {
        io.pdla.darshan.WrittenLogs.all();
        return io.pdla.darshan.WrittenLogs.dir();
    }

    /** Rows as sorted strings, numbers to 9 significant digits (engines differ in integer vs double and decimals). */
    private static List<String> canonical(QueryResult r) {
        List<String> out = new ArrayList<>();
        for (List<Object> row : r.rows()) {
            StringBuilder sb = new StringBuilder();
            for (Object v : row) {
                sb.append('|');
                if (v instanceof Number n) {
                    double d = n.doubleValue();
                    sb.append(d == 0 ? "0" : String.format(Locale.ROOT, "%.9g", d));
                } else sb.append(v);
            }
            out.add(sb.toString());
        }
        out.sort(null);
        return out;
    }

    @Test
    void sameRowsAsDuckDb() throws Exception {
        Path synth = tmp.resolve("synth");
        Synthetic.generate(synth, 400, 3);
        Path logs = tmp.resolve("logs");
        Tables logTables = Tables.create(logs);
        assertTrue(new Ingest(logTables).run(List.of(sampleLogs()), Ingest.Progress.NONE).ingested() > 0);

        List<String> synthQueries = new ArrayList<>(List.of(
                new Query().groupBy("app").agg("sum(bytes_written)").agg("count(*)").percentile("bandwidth:95").sort("app").toSql(),
                new Query().filter("nprocs >= 64").filter("io_mode in (N-1, N-M)").bin("bandwidth:500").agg("avg(io_time)").toSql(),
                new Query().join("file").filter("file.LUSTRE_STRIPE_WIDTH = 1").groupBy("io_mode").agg("sum(file.POSIX_BYTES_WRITTEN)").toSql(),
                new Query().select("job_key,app,bandwidth").filter("app ~ app1%").sort("bandwidth desc").sort("job_key").top(7).toSql()));
        for (String a : Analyses.NAMES) synthQueries.add(Analyses.sql(a, 25, 5));
        List<String> logQueries = List.of(
                new Query().groupBy("io_mode,fs_type").agg("count(*)").agg("sum(bytes_read)").toSql(),
                new Query().from("file").join("job").groupBy("app").agg("count_distinct(file_id)").agg("max(file.POSIX_F_WRITE_TIME)").toSql(),
                new Query().from("segment").groupBy("module,op").agg("count(*)").agg("sum(length)").percentile("length:50").toSql(),
                "SELECT r.\"rank\", count(*) AS n FROM \"rank\" r GROUP BY r.\"rank\" ORDER BY n DESC, r.\"rank\" LIMIT 5");

        try (QueryEngine spark = QueryEngines.open("spark", Tables.open(synth), Map.of("master", "local[1]"));
             QueryEngine duck = QueryEngines.open("duckdb", Tables.open(synth), Map.of())) {
            assertEquals("spark", spark.name());
            for (String q : synthQueries) {
                QueryResult d = duck.run(q), s = spark.run(q);
                assertFalse(d.rows().isEmpty(), q);
                assertEquals(d.columns().stream().map(c -> c.toLowerCase(Locale.ROOT)).toList(),
                        s.columns().stream().map(c -> c.toLowerCase(Locale.ROOT)).toList(), q);
                assertEquals(canonical(d), canonical(s), q);
            }
            QueryException e = assertThrows(QueryException.class, () -> spark.run("SELECT nope FROM job"));
            assertTrue(e.getMessage().contains("nope"), e.getMessage());
        }
        try (QueryEngine spark = QueryEngines.open("spark", logTables, Map.of("master", "local[1]"));
             QueryEngine duck = QueryEngines.open("duckdb", logTables, Map.of())) {
            for (String q : logQueries) {
                QueryResult d = duck.run(q), s = spark.run(q);
                assertFalse(d.rows().isEmpty(), q);
                assertEquals(canonical(d), canonical(s), q);
            }
        }
    }
}
