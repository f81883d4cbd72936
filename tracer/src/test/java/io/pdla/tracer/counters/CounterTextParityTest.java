package io.pdla.tracer.counters;

import io.pdla.darshan.Compression;
import io.pdla.darshan.DarshanReader;
import io.pdla.darshan.DarshanWriter;
import io.pdla.darshan.ParserReport;
import io.pdla.tracer.testing.TracedJob;
import io.pdla.tracer.testing.Workloads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One printer: what {@code pdla counters} prints for a trace directory and what darshan-parser's text of the Darshan
 * log exported from it says are the same counter lines, totals and performance figures.
 */
class CounterTextParityTest {
    @TempDir
    Path tmp;

    @Test
    void tracerTextAndTheExportedLogsParserTextAgree() throws Exception {
        TracedJob shared = new TracedJob(Files.createDirectories(tmp.resolve("d1")), tmp.resolve("t1"), 3, "Strided");
        try (shared) {
            Workloads.iorStrided(shared, "s", 30, 3000);
        }
        assertSameCounters(shared.traceDir);
        TracedJob fpp = new TracedJob(Files.createDirectories(tmp.resolve("d2")), tmp.resolve("t2"), 2, "Fpp");
        try (fpp) {
            Workloads.filePerProcess(fpp, "f", 100_000, 10_000);
        }
        assertSameCounters(fpp.traceDir);
    }

    private static void assertSameCounters(Path traceDir) throws Exception {
        StringWriter tracer = new StringWriter();
        DarshanText.print(CounterLog.load(traceDir, true), true, true, new PrintWriter(tracer));
        byte[] log = DarshanWriter.write(DarshanLogExport.content(traceDir), Compression.ZLIB);
        StringBuilder parser = new StringBuilder();
        new ParserReport(parser, new StringBuilder(), ZoneId.of("UTC"))
                .print(new DarshanReader().read(log), new ParserReport.Options(true, true, false, true, false));
        List<String> fromTracer = counterLines(tracer.toString()), fromParser = counterLines(parser.toString());
        assertTrue(fromTracer.size() > 2 * (io.pdla.darshan.PosixCounter.values().length + io.pdla.darshan.PosixFCounter.values().length),
                "records of both modules printed: " + fromTracer.size());
        assertEquals(fromParser, fromTracer);
    }

    /** Counter lines without file name and mount (the log's mount table picks the mount), totals and performance. */
    private static List<String> counterLines(String text) {
        return Arrays.stream(text.split("\n"))
                .filter(l -> l.startsWith("POSIX\t") || l.startsWith("MPI-IO\t") || l.startsWith("total_")
                        || l.startsWith("# total_bytes") || l.startsWith("# unique files") || l.startsWith("# shared files")
                        || l.startsWith("# agg_"))
                .map(l -> l.contains("\t") ? String.join("\t", Arrays.asList(l.split("\t")).subList(0, 5)) : l)
                .toList();
    }
}
