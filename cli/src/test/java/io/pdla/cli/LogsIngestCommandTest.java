package io.pdla.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdla.access.TraceRecord;
import io.pdla.cli.programs.HelloShim;
import io.pdla.tracer.format.TraceDirectory;
import io.pdla.tracer.format.TraceLayer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** pdla logs ingest over a real traced MPJ run next to a real Darshan log, then pdla query; exit codes of bad input. */
class LogsIngestCommandTest {
    @TempDir
    Path dir;

    private record Run(int code, String out, String err) {}

    private static Run pdla(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = PdlaCommand.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private static Path sampleLog() throws java.io.IOException {
        return io.pdla.darshan.WrittenLogs.get("pdla-written-3.41-bzip2.darshan");
    }

    @Test
    void tracedRunAndDarshanLogBecomeTablesThatQueryReads() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        Path traces = in.resolve("run1");
        assertEquals(0, PdlaCommand.commandLine().execute("run", "-np", "3", "--trace", traces.toString(), "--timeout", "120",
                "--", HelloShim.class.getName(), dir.resolve("hello.dat").toString()));
        Files.copy(sampleLog(), in.resolve("sample.darshan"));
        long traced = 0;
        TraceDirectory td = TraceDirectory.open(traces);
        for (int r = 0; r < 3; r++) {
            try (Stream<TraceRecord> s = td.records(r, TraceLayer.APPLICATION)) {
                traced += s.filter(t -> t.op().movesData()).count();
            }
        }
        assertTrue(traced >= 3, "each rank wrote");

        Path tables = dir.resolve("tables");
        Run ing = pdla("logs", "ingest", in.toString(), "--out", tables.toString(), "--no-progress");
        assertEquals(0, ing.code(), ing.out() + ing.err());
        assertTrue(ing.out().contains("logs found: 2, already ingested: 0, ingested: 2"), ing.out());

        Run q = pdla("query", "--tables", tables.toString(), "--filter", "source = pdla-trace", "--select",
                "nprocs,bytes_written,io_mode,n_files", "--json");
        assertEquals(0, q.code(), q.err());
        JsonNode rows = new ObjectMapper().readTree(q.out());
        assertEquals(1, rows.size(), q.out());
        assertEquals(3, rows.get(0).get("nprocs").asLong());
        assertEquals(3, rows.get(0).get("bytes_written").asLong(), "three ranks wrote one byte each");
        assertEquals("N-1", rows.get(0).get("io_mode").asText());

        // as in the run's Darshan export: each traced call's extent once as DXT_MPIIO and once as DXT_POSIX
        Run seg = pdla("query", "--tables", tables.toString(), "--csv", "--sql",
                "SELECT module, count(*) AS n FROM segment JOIN job USING (job_key) WHERE source = 'pdla-trace' "
                        + "GROUP BY module ORDER BY module");
        assertEquals(0, seg.code(), seg.err());
        assertEquals("module,n\nDXT_MPIIO," + traced + "\nDXT_POSIX," + traced + "\n", seg.out(),
                "one segment per traced data call at each level");

        Run again = pdla("logs", "ingest", in.toString(), "--out", tables.toString(), "--no-progress");
        assertEquals(0, again.code());
        assertTrue(again.out().contains("already ingested: 2, ingested: 0"), again.out());

        Run an = pdla("query", "--tables", tables.toString(), "--analysis", "io-modes");
        assertEquals(0, an.code(), an.err());
        assertTrue(an.out().contains("N-1"), an.out());
    }

    @Test
    void badInputExitsTwoWithAMessage() throws Exception {
        Run missing = pdla("logs", "ingest", dir.resolve("nope").toString(), "--out", dir.resolve("t").toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("nope does not exist"), missing.err());

        Path bad = Files.createDirectories(dir.resolve("bad"));
        Files.writeString(bad.resolve("x.darshan"), "not a log");
        Run none = pdla("logs", "ingest", bad.toString(), "--out", dir.resolve("t").toString(), "--no-progress");
        assertEquals(2, none.code());
        assertTrue(none.out().contains("unreadable: ") && none.out().contains("x.darshan"), none.out());

        Path tables = dir.resolve("t2");
        Files.copy(sampleLog(), Files.createDirectories(dir.resolve("ok")).resolve("a.darshan"));
        assertEquals(0, pdla("logs", "ingest", dir.resolve("ok").toString(), "--out", tables.toString(), "--no-progress").code());
        Run col = pdla("query", "--tables", tables.toString(), "--group-by", "bandwith");
        assertEquals(2, col.code());
        assertTrue(col.err().contains("unknown column 'bandwith'") && col.err().contains("did you mean bandwidth"), col.err());
        Run notTables = pdla("query", "--tables", bad.toString(), "--sql", "SELECT 1");
        assertEquals(2, notTables.code());
        assertTrue(notTables.err().contains("is not a tables directory"), notTables.err());
        Run engine = pdla("query", "--tables", tables.toString(), "--engine", "flink", "--sql", "SELECT 1");
        assertEquals(2, engine.code());
        assertTrue(engine.err().contains("unknown engine 'flink'"), engine.err());
    }
}
