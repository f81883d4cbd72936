package io.pdla.cli;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.AppIdentity;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.IoCall;
import io.pdla.report.SelfContained;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.posix.PosixDriver;
import io.pdla.tracer.runtime.TraceSettings;
import io.pdla.tracer.runtime.Tracing;
import io.pdla.tracer.runtime.TracingInterceptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.pdla.cli.AnalyzeCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code pdla report} on a traced run, on Darshan logs with and without DXT, and on bad input. */
class ReportCommandTest {
    private static final int RANKS = 3, BLOCKS = 20, SIZE = 4096;
    private static final Pattern CHART = Pattern.compile("<figure class=\"chart\" data-chart=\"([a-z-]+)\"><svg");
    private static final Pattern MISSING = Pattern.compile("<p class=\"missing\" data-chart=\"([a-z-]+)\">([^<]*)</p>");

    @TempDir
    Path tmp;

    /** A three-rank strided write then read of a shared file, traced through core's interceptor chain. */
    private Path tracedJob() throws Exception {
        Path traceDir = tmp.resolve("trace"), data = tmp.resolve("shared.dat");
        PosixDriver driver = new PosixDriver();
        for (int rank = 0; rank < RANKS; rank++) {
            FileContext ctx = new FileContext("shared.dat", data.toUri(), 9, rank, RANKS, new AppIdentity("ReportApp", RANKS),
                    Map.of(), driver, driver.open(data.toUri(), OpenOptions.createReadWrite()));
            InterceptorChain chain = new InterceptorChain(List.of(new TracingInterceptor(Map.of(TraceSettings.HINT_DIR, traceDir.toString()))));
            chain.opened(ctx);
            for (IoOp op : List.of(IoOp.WRITE, IoOp.READ)) {
                for (int i = 0; i < BLOCKS; i++) {
                    long off = ((long) i * RANKS + rank) * SIZE;
                    chain.execute(IoCall.data(ctx, op, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(off, SIZE), ByteBuffer.allocate(SIZE)));
                }
            }
            chain.closing(ctx);
            ctx.file().close();
        }
        Tracing.finishAll();
        return traceDir;
    }

    private static List<String> charts(String html) {
        List<String> out = new ArrayList<>();
        Matcher m = CHART.matcher(html);
        while (m.find()) out.add(m.group(1));
        return out;
    }

    private static List<String> missing(String html) {
        List<String> out = new ArrayList<>();
        Matcher m = MISSING.matcher(html);
        while (m.find()) out.add(m.group(1) + ": " + m.group(2));
        return out;
    }

    @Test
    void aTracedRunGetsEveryChartButReplicasAndTheCounters() throws Exception {
        Path out = tmp.resolve("out/report.html");
        AnalyzeCommandTest.Run r = run(new ReportCommand(), tracedJob().toString(), "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals("wrote " + out, r.out().strip());
        String html = Files.readString(out);
        assertEquals(List.of("timeline", "critical", "sizes", "bandwidth", "offsets", "patterns"), charts(html));
        assertEquals(1, missing(html).size(), missing(html).toString());
        assertTrue(missing(html).get(0).startsWith("replicas: No chart: no replica catalog was given (--catalog)"), missing(html).toString());
        assertTrue(html.contains("<h1>pdla report: ReportApp, 3 processes</h1>"), "the application is named");
        // the counters come from the trace directory, folded by module
        assertTrue(html.contains("<summary>POSIX: "), html);
        Matcher written = Pattern.compile("POSIX_BYTES_WRITTEN</td><td class=\"num\">(\\d+)<").matcher(html);
        assertTrue(written.find());
        assertEquals(RANKS * BLOCKS * SIZE, Long.parseLong(written.group(1)));
        assertTrue(html.contains(">" + RANKS * BLOCKS + "<"), "the 1K-10K bins carry " + RANKS * BLOCKS + " reads and as many writes");
        assertEquals(List.of(), SelfContained.violations(html));
    }

    @Test
    void aDarshanLogWithDxtGetsTheSegmentCharts() throws Exception {
        Path log = DarshanCommandsTest.logs().stream().filter(p -> p.getFileName().toString().equals("pdla-written-32-ranks.darshan"))
                .findFirst().orElseThrow();
        Path out = tmp.resolve("dxt.html");
        AnalyzeCommandTest.Run r = run(new ReportCommand(), log.toString(), "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        String html = Files.readString(out);
        assertTrue(charts(html).containsAll(List.of("timeline", "critical", "sizes", "bandwidth", "offsets", "patterns")), charts(html).toString());
        assertTrue(html.contains("DXT from DXT_"), "says which DXT module gave the segments");
        assertEquals(List.of(), SelfContained.violations(html));
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.MethodSource("io.pdla.cli.DarshanCommandsTest#logs")
    void everySampleLogGetsASelfContainedPage(Path log) throws Exception {
        Path out = tmp.resolve(log.getFileName() + ".html");
        AnalyzeCommandTest.Run r = run(new ReportCommand(), log.toString(), "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        String html = Files.readString(out);
        java.util.Set<String> sections = new java.util.TreeSet<>(charts(html));
        missing(html).stream().filter(m -> !m.startsWith("counters:")).forEach(m -> sections.add(m.substring(0, m.indexOf(':'))));
        assertEquals(java.util.Set.of("timeline", "critical", "sizes", "bandwidth", "offsets", "patterns", "replicas"), sections,
                "each chart is there or says why not: " + charts(html) + " " + missing(html));
        assertTrue(html.contains("<details class=\"module\">") || html.contains("data-chart=\"counters\">No chart: "), "the counters or why not");
        assertEquals(List.of(), SelfContained.violations(html));
    }

    @Test
    void aDarshanLogWithoutDxtSaysWhichChartsNeedSegments() throws Exception {
        Path log = DarshanCommandsTest.logs().stream().filter(p -> p.getFileName().toString().equals("pdla-written-counters-only.darshan"))
                .findFirst().orElseThrow();
        Path out = tmp.resolve("counters.html");
        AnalyzeCommandTest.Run r = run(new ReportCommand(), log.toString(), "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        String html = Files.readString(out);
        assertEquals(List.of("critical", "sizes"), charts(html), "counters give the critical path and the size histogram");
        for (String needs : List.of("timeline", "bandwidth", "offsets", "patterns")) {
            assertTrue(missing(html).stream().anyMatch(m -> m.startsWith(needs + ": No chart: ") && m.contains("has no DXT segments")),
                    needs + " in " + missing(html));
        }
        assertTrue(html.contains("<td class=\"mono\">POSIX_BYTES_WRITTEN</td>"), "the counters table");
        assertEquals(List.of(), SelfContained.violations(html));
    }

    @Test
    void theTitleNamesTheProgramAndItsProcesses() {
        assertEquals("StridedApp, 4 processes", ReportCommand.title(new AppIdentity("io.pdla.cli.demo.StridedApp simpfs:///x 16384 64 read", 4)));
        assertEquals("ior, 1 process", ReportCommand.title(new AppIdentity("/usr/bin/ior -a MPIIO", 1)));
        assertEquals("python3.11, 2 processes", ReportCommand.title(new AppIdentity("python3.11 x.py", 2)));
    }

    @Test
    void badInputExitsTwoNamingIt() throws Exception {
        AnalyzeCommandTest.Run r = run(new ReportCommand(), tmp.resolve("nope").toString(), "-o", tmp.resolve("a.html").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("nope") && r.err().contains("does not exist"), r.err());
        Path damaged = Files.write(tmp.resolve("cut.darshan"), new byte[] {1, 2, 3, 4});
        r = run(new ReportCommand(), damaged.toString(), "-o", tmp.resolve("b.html").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("cut.darshan") && r.err().contains("not a readable Darshan log"), r.err());
        Path empty = Files.createDirectories(tmp.resolve("empty-trace"));
        r = run(new ReportCommand(), empty.toString(), "-o", tmp.resolve("c.html").toString());
        assertEquals(2, r.code(), r.out());
        assertTrue(r.err().startsWith("pdla report: ") && !r.err().contains("Exception"), r.err());
        r = run(new ReportCommand(), tracedJob().toString(), "-o", tmp.resolve("d.html").toString(), "--catalog", tmp.resolve("no-catalog").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("no-catalog"), r.err());
        Path notACatalog = Files.createDirectories(tmp.resolve("not-a-catalog"));
        r = run(new ReportCommand(), tracedJob().toString(), "-o", tmp.resolve("e.html").toString(), "--catalog", notACatalog.toString());
        assertEquals(2, r.code(), r.out());
        assertTrue(r.err().contains("not-a-catalog") && !r.err().contains("Exception"), r.err());
        assertFalse(Files.exists(tmp.resolve("e.html")));
    }

    @Test
    void manyJobsGetTheCrossJobChartsFromTheQueryEngine() throws Exception {
        Path tables = tmp.resolve("tables");
        io.pdla.analytics.Synthetic.generate(tables, 400, 2);
        Path out = tmp.resolve("jobs.html");
        AnalyzeCommandTest.Run r = run(new ReportCommand(), "--query", tables.toString(), "-o", out.toString(), "--top", "3");
        assertEquals(0, r.code(), r.err());
        String html = Files.readString(out);
        assertEquals(List.of("slow-factors", "io-modes", "top-apps"), charts(html));
        assertEquals(List.of(), missing(html));
        assertTrue(html.contains("<tr><th>jobs</th><td>400</td></tr>"), "the job count from the engine");
        assertTrue(html.contains("<h1>pdla report: 400 jobs in tables</h1>"), "the title");
        // the io-modes chart's bars carry the job counts that the engine returns for the same SQL
        io.pdla.analytics.QueryResult modes;
        try (io.pdla.analytics.QueryEngine e = io.pdla.analytics.QueryEngines.open("duckdb", io.pdla.analytics.Tables.open(tables), Map.of())) {
            modes = e.run(io.pdla.analytics.Analyses.ioModesSql());
        }
        String svg = html.substring(html.indexOf("data-chart=\"io-modes\""), html.indexOf("</svg>", html.indexOf("data-chart=\"io-modes\"")));
        for (int i = 0; i < modes.rows().size(); i++) {
            assertTrue(svg.contains(">" + modes.get(i, "jobs") + "</text>"), modes.get(i, "io_mode") + ": " + modes.get(i, "jobs"));
        }
        assertEquals(List.of(), SelfContained.violations(html));
    }

    @Test
    void queryInputIsCheckedLikeAnyOther() throws Exception {
        AnalyzeCommandTest.Run r = run(new ReportCommand(), "--query", tmp.resolve("no-tables").toString(), "-o", tmp.resolve("a.html").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("no-tables") && r.err().contains("does not exist"), r.err());
        r = run(new ReportCommand(), "--query", Files.createDirectories(tmp.resolve("plain")).toString(), "-o", tmp.resolve("b.html").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("is not a tables directory"), r.err());
        r = run(new ReportCommand(), "-o", tmp.resolve("c.html").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("give one job (TRACE_DIR or LOG.darshan) or --query TABLES, not neither"), r.err());
    }
}
