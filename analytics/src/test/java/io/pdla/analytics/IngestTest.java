package io.pdla.analytics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pdla.darshan.CounterRecord;
import io.pdla.darshan.DarshanFormatException;
import io.pdla.darshan.DarshanLog;
import io.pdla.darshan.DarshanReader;
import io.pdla.darshan.DxtRecord;
import io.pdla.darshan.ModuleData;
import io.pdla.darshan.ModuleId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ingest of the real sample logs against what the Darshan reader returns, incremental re-ingest, damaged logs. */
class IngestTest {
    @TempDir
    Path tmp;

    /** What the reader sees in the logs it can read: jobs, (file, rank) records of POSIX/MPI-IO, DXT segments. */
    private record Expected(int jobs, long files, long segments, Set<String> ranks, long posixBytes) {}

    private static Expected expected(List<Path> logs) throws Exception {
        int jobs = 0;
        long files = 0, segments = 0, bytes = 0;
        Set<String> ranks = new HashSet<>();
        for (Path p : logs) {
            DarshanLog log;
            try {
                log = new DarshanReader().read(p);
            } catch (DarshanFormatException e) {
                continue;
            }
            jobs++;
            Set<String> keys = new HashSet<>();
            for (ModuleId m : List.of(ModuleId.POSIX, ModuleId.MPIIO)) {
                ModuleData md = log.module(m);
                if (md == null) continue;
                for (CounterRecord r : md.recordsOf(CounterRecord.class)) {
                    keys.add(r.id() + "/" + r.rank());
                    if (m == ModuleId.POSIX) {
                        ranks.add(p + "/" + (r.rank() < 0 ? -1 : r.rank()));
                        bytes += Math.max(0, r.counters()[14]) + Math.max(0, r.counters()[15]);
                    }
                }
            }
            files += keys.size();
            for (ModuleId m : List.of(ModuleId.DXT_POSIX, ModuleId.DXT_MPIIO)) {
                ModuleData md = log.module(m);
                if (md != null) for (DxtRecord d : md.recordsOf(DxtRecord.class)) segments += d.segmentCount();
            }
        }
        return new Expected(jobs, files, segments, ranks, bytes);
    }

    private static long count(Tables t, String sql) {
        try (QueryEngine e = QueryEngines.open("duckdb", t, java.util.Map.of())) {
            return ((Number) e.run(sql).rows().get(0).get(0)).longValue();
        }
    }

    @Test
    void sampleLogsBecomeRowsAsTheReaderSeesThemAndReingestAddsNothing() throws Exception {
        List<Path> logs = SampleLogs.all();
        assertEquals(10, logs.size(), "written sample logs: " + logs);
        Expected want = expected(logs);
        Tables tables = Tables.create(tmp.resolve("tables"));
        Ingest.Result r = new Ingest(tables).run(List.of(SampleLogs.dir()), Ingest.Progress.NONE);
        assertEquals(logs.size(), r.found());
        assertEquals(want.jobs(), r.ingested());
        assertEquals(logs.size() - want.jobs(), r.skippedCount(), "unreadable logs are listed: " + r.problems());
        assertEquals(want.jobs(), count(tables, "SELECT count(*) FROM job"));
        assertEquals(want.files(), count(tables, "SELECT count(*) FROM file"));
        assertEquals(want.segments(), count(tables, "SELECT count(*) FROM segment"));
        assertEquals(want.ranks().size(), count(tables, "SELECT count(*) FROM rank"));
        assertEquals(want.posixBytes(), count(tables, "SELECT sum(coalesce(POSIX_BYTES_READ,0) + coalesce(POSIX_BYTES_WRITTEN,0)) FROM job"));
        assertEquals(want.posixBytes(), count(tables, "SELECT sum(bytes_read + bytes_written) FROM rank"));
        assertTrue(want.segments() > 0, "some sample logs have DXT");

        Ingest.Result again = new Ingest(tables).run(List.of(SampleLogs.dir()), Ingest.Progress.NONE);
        assertEquals(0, again.ingested());
        assertEquals(want.jobs(), again.alreadyIngested());
        assertEquals(want.jobs(), count(tables, "SELECT count(*) FROM job"), "re-ingest added no rows");
        assertEquals(want.files(), count(tables, "SELECT count(*) FROM file"));
    }

    @Test
    void damagedLogsAreListedAndSkippedTheRestIngested() throws Exception {
        Path in = Files.createDirectories(tmp.resolve("in"));
        Path good = SampleLogs.get("pdla-written-3.41-bzip2.darshan");
        Files.copy(good, in.resolve("good.darshan"));
        byte[] bytes = Files.readAllBytes(good);
        Files.write(in.resolve("garbage.darshan"), "this is not a darshan log".getBytes());
        Files.write(in.resolve("truncated.darshan"), java.util.Arrays.copyOf(bytes, 100));
        Tables tables = Tables.create(tmp.resolve("tables"));
        Ingest.Result r = new Ingest(tables).run(List.of(in), Ingest.Progress.NONE);
        assertEquals(3, r.found());
        assertEquals(1, r.ingested());
        assertEquals(2, r.skippedCount(), r.problems().toString());
        Set<String> names = new HashSet<>();
        for (Ingest.Problem p : r.problems()) {
            names.add(p.path().getFileName().toString());
            assertFalse(p.error().isBlank());
        }
        assertEquals(Set.of("garbage.darshan", "truncated.darshan"), names);
        assertEquals(1, count(tables, "SELECT count(*) FROM job"));
        // the damaged ones are not in the manifest: a later run lists them again rather than forgetting them
        Ingest.Result again = new Ingest(tables).run(List.of(in), Ingest.Progress.NONE);
        assertEquals(0, again.ingested());
        assertEquals(2, again.skippedCount());
    }

    @Test
    void aNewLogAppendsABatchAndTheOldRowsStay() throws Exception {
        Path in = Files.createDirectories(tmp.resolve("in"));
        Files.copy(SampleLogs.get("pdla-written-3.41-bzip2.darshan"), in.resolve("a.darshan"));
        Tables tables = Tables.create(tmp.resolve("tables"));
        assertEquals(1, new Ingest(tables).run(List.of(in), Ingest.Progress.NONE).ingested());
        Files.copy(SampleLogs.get("pdla-written-32-ranks.darshan"), in.resolve("b.darshan"));
        Ingest.Result r = new Ingest(tables).run(List.of(in), Ingest.Progress.NONE);
        assertEquals(1, r.ingested());
        assertEquals(1, r.alreadyIngested());
        try (java.util.stream.Stream<Path> s = Files.list(tables.folder("job"))) {
            assertEquals(2, s.filter(p -> p.toString().endsWith(".parquet")).count(), "one Parquet file per batch");
        }
        assertEquals(2, count(tables, "SELECT count(DISTINCT job_key) FROM job"));
        assertEquals(count(tables, "SELECT count(*) FROM file"), count(tables, "SELECT count(*) FROM file JOIN job USING (job_key)"),
                "every file row belongs to a job row");
    }

    @Test
    void aTraceDirectorysOwnDarshanExportIsNotASecondJob() throws Exception {
        Path in = Files.createDirectories(tmp.resolve("in"));
        Path trace = Files.createDirectories(in.resolve("run"));
        Files.writeString(trace.resolve("rank-0.pdlc"), "");
        Files.copy(SampleLogs.get("pdla-written-32-ranks.darshan"), trace.resolve("pdla.darshan"));
        Files.copy(SampleLogs.get("pdla-written-32-ranks.darshan"), in.resolve("other.darshan"));
        assertEquals(List.of(in.resolve("other.darshan").toAbsolutePath(), trace.toAbsolutePath()), Ingest.discover(List.of(in)));
    }

    @Test
    void aLogCutShortInALaterRegionIsIngestedAsIncompleteAndListed() throws Exception {
        Path in = Files.createDirectories(tmp.resolve("in"));
        byte[] bytes = Files.readAllBytes(SampleLogs.get("pdla-written-32-ranks.darshan"));
        Files.write(in.resolve("cut.darshan"), java.util.Arrays.copyOf(bytes, bytes.length - 2000));
        DarshanLog direct = new DarshanReader().read(in.resolve("cut.darshan"));
        assertTrue(direct.firstError() != null, "the reader sees the cut");
        Tables tables = Tables.create(tmp.resolve("tables"));
        Ingest.Result r = new Ingest(tables).run(List.of(in), Ingest.Progress.NONE);
        assertEquals(1, r.ingested());
        assertEquals(1, r.problems().size());
        assertFalse(r.problems().get(0).skipped());
        assertTrue(r.problems().get(0).error().startsWith("read in part: "), r.problems().get(0).error());
        assertEquals(1, count(tables, "SELECT count(*) FROM job WHERE NOT complete"));
        assertEquals(expected(List.of(in.resolve("cut.darshan"))).files(), count(tables, "SELECT count(*) FROM file"),
                "the records read before the cut are there");
    }

    @Test
    void batchesSplitByLogsAndByRowsAndTogetherHoldEveryRow() throws Exception {
        List<Path> logs = SampleLogs.all();
        Expected want = expected(logs);
        Tables byLogs = Tables.create(tmp.resolve("by-logs"));
        new Ingest(byLogs, 2, 4, Long.MAX_VALUE).run(List.of(SampleLogs.dir()), Ingest.Progress.NONE);
        try (java.util.stream.Stream<Path> s = Files.list(byLogs.folder("job"))) {
            assertEquals((want.jobs() + 3) / 4, s.filter(p -> p.toString().endsWith(".parquet")).count());
        }
        Tables byRows = Tables.create(tmp.resolve("by-rows"));
        new Ingest(byRows, 2, Integer.MAX_VALUE, 1000).run(List.of(SampleLogs.dir()), Ingest.Progress.NONE);
        try (java.util.stream.Stream<Path> s = Files.list(byRows.folder("job"))) {
            assertTrue(s.filter(p -> p.toString().endsWith(".parquet")).count() > 1, "the DXT-heavy logs start new batches");
        }
        for (Tables t : List.of(byLogs, byRows)) {
            assertEquals(want.jobs(), count(t, "SELECT count(*) FROM job"));
            assertEquals(want.files(), count(t, "SELECT count(*) FROM file"));
            assertEquals(want.segments(), count(t, "SELECT count(*) FROM segment"));
        }
    }
}
