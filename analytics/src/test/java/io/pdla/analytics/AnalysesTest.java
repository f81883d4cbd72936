package io.pdla.analytics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The named analyses on {@link Synthetic} jobs: the expected counts come from the generator's documented rules,
 * evaluated here job by job in Java, not from the engine.
 */
class AnalysesTest {
    static final int N = 200;
    @TempDir
    static Path tmp;
    static QueryEngine engine;

    @BeforeAll
    static void make() throws Exception {
        Path dir = tmp.resolve("synth");
        Synthetic.generate(dir, N, 2);
        engine = QueryEngines.open("duckdb", Tables.open(dir), Map.of());
    }

    @AfterAll
    static void close() { engine.close(); }

    @Test
    void slowFactorsShareOfSlowJobsByConstruction() {
        QueryResult r = Analyses.run(engine, "slow-factors", 25, 10);
        IntPredicate slow = i -> i % 4 == 0;
        List<IntPredicate> factors = List.of(
                i -> i % 8 < 2,                               // small: all writes 1K-10K
                i -> i % 3 == 0,                              // 90 % of writes not consecutive
                i -> i % 5 == 0,                              // one OST
                i -> (4 << (i % 7)) / (i % 5 == 0 ? 1 : 8) > 3, // processes per OST
                i -> i % 2 == 0);                             // metadata half of the I/O time
        assertEquals(5, r.rows().size());
        for (int f = 0; f < factors.size(); f++) {
            int slowJobs = 0, slowWith = 0, all = 0;
            for (int i = 0; i < N; i++) {
                boolean has = factors.get(f).test(i);
                if (slow.test(i)) { slowJobs++; if (has) slowWith++; }
                if (has) all++;
            }
            String what = r.get(f, "factor").toString();
            assertEquals((long) slowJobs, r.get(f, "slow_jobs"), what);
            assertEquals((long) slowWith, r.get(f, "slow_with_factor"), what);
            assertEquals((long) N, r.get(f, "known"), what);
            assertEquals(Math.round(1000.0 * slowWith / slowJobs) / 10.0, ((Number) r.get(f, "slow_pct")).doubleValue(), 1e-9, what);
            assertEquals(Math.round(1000.0 * all / N) / 10.0, ((Number) r.get(f, "all_pct")).doubleValue(), 1e-9, what);
        }
        assertEquals("small I/O", r.get(0, "factor"));
        assertEquals(50.0, ((Number) r.get(0, "slow_pct")).doubleValue(), 1e-9, "half the slow jobs have small I/O");
        assertEquals(100.0, ((Number) r.get(4, "slow_pct")).doubleValue(), 1e-9, "every slow job is metadata-heavy");
        // a wider slow set takes in fast jobs: the cut moves with the percentile
        QueryResult wide = Analyses.run(engine, "slow-factors", 60, 10);
        assertEquals((long) Math.round(0.6 * N), ((Number) wide.get(0, "slow_jobs")).longValue(), 1.0);
    }

    @Test
    void ioModeCensus() {
        QueryResult r = Analyses.run(engine, "io-modes", 25, 10);
        Map<String, Long> want = Map.of("N-N", 2L * N / 5, "N-1", (long) N / 5, "N-M", (long) N / 5, "1-1", (long) N / 5);
        assertEquals(4, r.rows().size());
        assertEquals("N-N", r.get(0, "io_mode"), "the most common mode first");
        for (int i = 0; i < r.rows().size(); i++) {
            assertEquals(want.get((String) r.get(i, "io_mode")), r.get(i, "jobs"));
            assertEquals(100.0 * want.get((String) r.get(i, "io_mode")) / N, ((Number) r.get(i, "pct_jobs")).doubleValue(), 1e-9);
        }
    }

    @Test
    void topApplicationsByIoTime() {
        QueryResult r = Analyses.run(engine, "top-apps", 25, 3);
        assertEquals(3, r.rows().size());
        for (int k = 0; k < 3; k++) {
            int app = 19 - k;
            assertEquals("app" + app, r.get(k, "app"));
            assertEquals((long) N / 20, r.get(k, "jobs"));
            assertEquals((N / 20.0) * (10 + app), ((Number) r.get(k, "io_time")).doubleValue(), 1e-6);
        }
    }

    @Test
    void badAnalysisOrPercentileIsAClearError() {
        assertEquals("unknown analysis 'fast-factors' (slow-factors, io-modes, top-apps)",
                assertThrows(QueryException.class, () -> Analyses.sql("fast-factors", 25, 10)).getMessage());
        assertThrows(QueryException.class, () -> Analyses.sql("slow-factors", 100, 10));
    }
}
