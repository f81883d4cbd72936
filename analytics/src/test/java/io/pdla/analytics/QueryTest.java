package io.pdla.analytics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each operator against {@link SmallTables}, whose answers can be checked by hand; and the errors. */
class QueryTest {
    @TempDir
    static Path tmp;
    static QueryEngine engine;

    @BeforeAll
    static void open() throws Exception {
        engine = QueryEngines.open("duckdb", SmallTables.write(tmp.resolve("t")), Map.of());
    }

    @AfterAll
    static void close() { engine.close(); }

    private static QueryResult run(Query q) { return engine.run(q.toSql()); }

    private static List<Object> column(QueryResult r, String c) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < r.rows().size(); i++) out.add(r.get(i, c));
        return out;
    }

    @Test
    void filter() {
        assertEquals(List.of(1L, 3L, 5L), column(run(new Query().filter("nprocs = 4").sort("job_key")), "job_key"));
        assertEquals(List.of(3L, 5L), column(run(new Query().filter("bandwidth > 25").filter("nprocs < 10").sort("job_key")), "job_key"));
        assertEquals(List.of(1L, 2L), column(run(new Query().filter("app ~ a%").sort("job_key")), "job_key"));
        assertEquals(List.of(2L, 4L), column(run(new Query().filter("io_mode in (N-N, N-M)").sort("job_key")), "job_key"));
        assertEquals(List.of(6L), column(run(new Query().filter("bandwidth is null")), "job_key"));
        assertEquals(List.of(4L, 5L), column(run(new Query().filter("bytes_written >= 400").sort("job_key")), "job_key"));
    }

    @Test
    void groupByWithAggregates() {
        QueryResult r = run(new Query().groupBy("app").agg("sum(bytes_written)").agg("count(*)").agg("max(nprocs)").sort("app"));
        assertEquals(List.of("app", "sum_bytes_written", "count", "max_nprocs"), r.columns());
        assertEquals(List.of("a", "b", "c"), column(r, "app"));
        assertEquals(List.of(300L, 700L, 500L), column(r, "sum_bytes_written").stream().map(v -> ((Number) v).longValue()).toList());
        assertEquals(List.of(2L, 2L, 2L), column(r, "count"));
        assertEquals(List.of(8L, 16L, 8L), column(r, "max_nprocs"));
    }

    @Test
    void percentile() {
        QueryResult r = run(new Query().percentile("bandwidth:50").percentile("bandwidth:25"));
        assertEquals(30.0, (Double) r.get(0, "p50_bandwidth"), 1e-9);
        assertEquals(20.0, (Double) r.get(0, "p25_bandwidth"), 1e-9);
        QueryResult g = run(new Query().groupBy("app").percentile("bandwidth:50").sort("app"));
        assertEquals(15.0, (Double) g.get(0, "p50_bandwidth"), 1e-9);
        assertEquals(35.0, (Double) g.get(1, "p50_bandwidth"), 1e-9);
    }

    @Test
    void binIsAHistogram() {
        QueryResult r = run(new Query().bin("nprocs:8"));
        assertEquals(List.of("nprocs_bin", "count"), r.columns());
        assertEquals(List.of(0.0, 8.0, 16.0), column(r, "nprocs_bin").stream().map(v -> ((Number) v).doubleValue()).toList());
        assertEquals(List.of(3L, 2L, 1L), column(r, "count"));
        QueryResult s = run(new Query().bin("bytes_written:250").agg("sum(bytes_written)"));
        assertEquals(List.of(300L, 700L, 500L), column(s, "sum_bytes_written").stream().map(v -> ((Number) v).longValue()).toList());
    }

    @Test
    void joinJobFileRank() {
        QueryResult r = run(new Query().join("file").groupBy("app").agg("sum(file.POSIX_BYTES_WRITTEN)").agg("count(*)").sort("app"));
        assertEquals(List.of("a", "b"), column(r, "app"));
        assertEquals(List.of(300L, 300L), column(r, "sum_POSIX_BYTES_WRITTEN").stream().map(v -> ((Number) v).longValue()).toList());
        assertEquals(List.of(3L, 1L), column(r, "count"));
        // file <-> rank meet on (job_key, rank): job 1's two files each meet one rank row, job 3's shared file none
        QueryResult fr = run(new Query().from("file").join("rank").select("file_id").select("rank.bytes_written").sort("file_id"));
        assertEquals(List.of(11L, 12L, 21L), column(fr, "file_id"));
        assertEquals(List.of(60L, 40L, 200L), column(fr, "bytes_written"));
        // a qualified name settles a column both tables have
        QueryResult q = run(new Query().join("file").filter("file.mount = /a").groupBy("job.mount").agg("count(*)"));
        assertEquals(3L, q.get(0, "count"));
    }

    @Test
    void sortAndTopK() {
        assertEquals(List.of(5L, 4L), column(run(new Query().sort("bandwidth desc").top(2)), "job_key"));
        QueryResult r = run(new Query().groupBy("app").agg("sum(bytes_written)").sort("sum_bytes_written desc").top(1));
        assertEquals(List.of("b"), column(r, "app"));
        // without --sort, top-k of an aggregated query is the k largest of its first aggregate
        assertEquals(List.of("b"), column(run(new Query().groupBy("app").agg("sum(bytes_written)").top(1)), "app"));
        assertEquals(List.of("b"), column(run(new Query().groupBy("app").agg("sum(bytes_written)").agg("count(*)").top(1)), "app"));
    }

    @Test
    void plainSqlOverTheViews() {
        QueryResult r = engine.run("SELECT count(*) AS n FROM job j JOIN file f USING (job_key) WHERE f.\"POSIX_BYTES_WRITTEN\" > 50");
        assertEquals(3L, r.get(0, "n"));
        assertEquals(0L, engine.run("SELECT count(*) FROM segment").rows().get(0).get(0), "a table without files is an empty view");
    }

    @Test
    void badColumnsOperatorsAndValuesAreClearErrors() {
        QueryException e = assertThrows(QueryException.class, () -> new Query().filter("bandwdth > 3").toSql());
        assertTrue(e.getMessage().contains("unknown column 'bandwdth'") && e.getMessage().contains("bandwidth"), e.getMessage());
        e = assertThrows(QueryException.class, () -> new Query().filter("nprocs >> 3").toSql());
        assertTrue(e.getMessage().contains("nprocs >> 3"), e.getMessage());
        e = assertThrows(QueryException.class, () -> new Query().filter("nprocs = lots").toSql());
        assertTrue(e.getMessage().contains("'lots' is not a number"), e.getMessage());
        e = assertThrows(QueryException.class, () -> new Query().join("file").groupBy("mount").toSql());
        assertTrue(e.getMessage().contains("'mount' is in tables job and file"), e.getMessage());
        e = assertThrows(QueryException.class, () -> new Query().from("jobs").toSql());
        assertTrue(e.getMessage().contains("unknown table 'jobs'"), e.getMessage());
        e = assertThrows(QueryException.class, () -> new Query().agg("total(nprocs)").toSql());
        assertTrue(e.getMessage().contains("unknown function 'total'"), e.getMessage());
        e = assertThrows(QueryException.class, () -> new Query().agg("sum(app)").toSql());
        assertTrue(e.getMessage().contains("app is not numeric"), e.getMessage());
        e = assertThrows(QueryException.class, () -> new Query().percentile("bandwidth:150").toSql());
        assertTrue(e.getMessage().contains("between 0 and 100"), e.getMessage());
        e = assertThrows(QueryException.class, () -> new Query().groupBy("app").sort("nprocs").toSql());
        assertTrue(e.getMessage().contains("'nprocs' is not an output column"), e.getMessage());
        e = assertThrows(QueryException.class, () -> engine.run("SELECT nope FROM job"));
        assertTrue(e.getMessage().contains("nope"), e.getMessage());
    }

    @Test
    void outputFormats() {
        QueryResult r = run(new Query().groupBy("app").agg("count(*)").sort("app"));
        String text = r.toText();
        assertTrue(text.startsWith("app  count\n---  -----\na        2\n"), text);
        assertEquals("app,count\na,2\nb,2\nc,2\n", r.toCsv());
        assertTrue(r.toJson().contains("\"app\" : \"a\""), r.toJson());
    }

    @Test
    void percentilePerGroupBinnedByJobSize() {
        // the "95th percentile of bandwidth per file system, binned by job size", here the median per mount
        QueryResult r = run(new Query().groupBy("mount").bin("nprocs:8").percentile("bandwidth:50").sort("nprocs_bin").sort("mount"));
        assertEquals(List.of("nprocs_bin", "mount", "p50_bandwidth"), r.columns());
        List<String> got = new ArrayList<>();
        for (List<Object> row : r.rows()) got.add(((Number) row.get(0)).longValue() + " " + row.get(1) + " " + row.get(2));
        assertEquals(List.of("0 /a 10.0", "0 /b 30.0", "0 /c 50.0", "8 /a 20.0", "8 /c null", "16 /b 40.0"), got);
    }
}
