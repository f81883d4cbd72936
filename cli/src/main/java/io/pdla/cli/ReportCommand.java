package io.pdla.cli;

import io.pdla.analytics.Analyses;
import io.pdla.analytics.QueryEngine;
import io.pdla.analytics.QueryEngines;
import io.pdla.analytics.QueryException;
import io.pdla.analytics.QueryResult;
import io.pdla.analytics.Tables;
import io.pdla.catalog.CatalogException;
import io.pdla.darshan.DarshanLog;
import io.pdla.patterns.TraceSource;
import io.pdla.patterns.rootcause.TraceFileStats;
import io.pdla.report.CounterTable;
import io.pdla.report.CrossJobReport;
import io.pdla.report.JobReport;
import io.pdla.report.ReplicaView;
import io.pdla.size.ByteSizeConverter;
import io.pdla.tracer.counters.CounterLog;
import io.pdla.tracer.counters.TracedRecord;
import io.pdla.tracer.format.TraceDirectoryException;
import io.pdla.tracer.format.TraceFormatException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * {@code pdla report TRACE_DIR|LOG.darshan -o report.html [--catalog DIR]}: one job's I/O as a self-contained HTML
 * page (issue 16): per-rank timeline, critical path, request sizes, bandwidth over time, offsets over time per file,
 * patterns and coverage, replica layouts and the redirected share, the counters folded by module. The page is built by
 * the report module; this command reads the input the way {@code pdla why} and {@code pdla analyze} read it.
 * {@code pdla report --query TABLES -o jobs.html}: many jobs (tables made by {@code pdla logs ingest}) as the charts of
 * the analytics module's cross-job analyses, run by its query engine.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Write one job's I/O as a self-contained HTML report (charts as inline SVG, no network needed to view it).",
            "Exit 0 written, 2 bad input (missing or damaged trace directory, log or catalog), 1 other failure."})
public final class ReportCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "TRACE_DIR|LOG.darshan", description = "directory written by the tracer, or a Darshan log")
    private Path input;

    @Option(names = "--query", paramLabel = "TABLES",
            description = "instead of one job, the jobs in TABLES (pdla logs ingest --out): charts of the cross-job analyses "
                    + "(slow-job factors, I/O mode census, top applications by I/O time)")
    private Path query;

    @Option(names = "--slow-percentile", defaultValue = "25", paramLabel = "P",
            description = "--query: slow jobs are those at or below the P-th percentile of bandwidth (default: ${DEFAULT-VALUE})")
    private double slowPercentile;

    @Option(names = "--top", defaultValue = "10", paramLabel = "K", description = "--query: applications to show (default: ${DEFAULT-VALUE})")
    private int top;

    @Option(names = "--engine", defaultValue = "duckdb", paramLabel = "duckdb|spark", description = "--query: query engine (default: ${DEFAULT-VALUE})")
    private String engine;

    @Option(names = "--master", paramLabel = "URL", description = "--query with --engine spark: the Spark master (default local[*])")
    private String master;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "report.html", description = "the HTML file to write")
    private Path output;

    @Option(names = "--catalog", paramLabel = "DIR",
            description = "replica catalog: show its replicas' layouts and the share of this job's reads they cover")
    private Path catalog;

    @Option(names = "--small-bytes", paramLabel = "SIZE", defaultValue = "1m", converter = ByteSizeConverter.class,
            description = "requests below SIZE are small, for the critical path's factors (default: ${DEFAULT-VALUE})")
    private long smallBytes;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        if (catalog != null && !Files.isDirectory(catalog)) {
            err.println("pdla report: --catalog " + catalog + " does not exist or is not a directory");
            return 2;
        }
        if (Files.isDirectory(output)) {
            err.println("pdla report: -o " + output + " is a directory; name the HTML file to write");
            return 2;
        }
        if ((input == null) == (query == null)) {
            err.println("pdla report: give one job (TRACE_DIR or LOG.darshan) or --query TABLES, not " + (input == null ? "neither" : "both"));
            return 2;
        }
        if (query != null) return crossJob(out, err);
        JobReport report;
        try {
            if (Files.isRegularFile(input)) {
                report = fromDarshan(input, err);
            } else if (Files.isDirectory(input)) {
                report = fromTraceDir(input, err);
            } else {
                err.println("pdla report: " + input + " does not exist (give a trace directory or a .darshan log)");
                return 2;
            }
        } catch (BadInput e) {
            err.println("pdla report: " + e.getMessage());
            return 2;
        }
        if (report == null) return 2;
        try {
            report.write(output);
        } catch (IOException e) {
            err.println("pdla report: cannot write " + output + ": " + e.getMessage());
            return 1;
        }
        out.println("wrote " + output);
        out.flush();
        return 0;
    }

    /** {@code --query TABLES}: the analytics module's named analyses, each a chart of the cross-job page. */
    private int crossJob(PrintWriter out, PrintWriter err) {
        if (!Files.isDirectory(query)) {
            err.println("pdla report: --query " + query + " does not exist or is not a directory (make one with pdla logs ingest --out)");
            return 2;
        }
        CrossJobReport report;
        Map<String, String> options = new java.util.HashMap<>();
        if (master != null) options.put("master", master);
        try (QueryEngine e = QueryEngines.open(engine, Tables.open(query), options)) {
            Object jobs = e.run("SELECT count(*) AS jobs FROM job").get(0, "jobs");
            report = new CrossJobReport(jobs + " jobs in " + query.getFileName())
                    .fact("tables", query.toAbsolutePath().normalize().toString())
                    .fact("engine", engine)
                    .fact("jobs", String.valueOf(jobs))
                    .fact("slow jobs", "bandwidth at or below the " + slowPercentile + "th percentile");
            for (String name : Analyses.NAMES) {
                try {
                    QueryResult r = Analyses.run(e, name, slowPercentile, top);
                    CrossJobReport.Table t = new CrossJobReport.Table(r.columns(), r.rows());
                    switch (name) {
                        case "slow-factors" -> report.slowFactors(t);
                        case "io-modes" -> report.ioModes(t);
                        case "top-apps" -> report.topApps(t);
                        default -> { }
                    }
                } catch (QueryException ex) {
                    report.missing(name, "the analysis failed: " + ex.getMessage());
                }
            }
        } catch (QueryException ex) {
            err.println("pdla report: --query " + query + ": " + ex.getMessage());
            return 2;
        }
        try {
            report.write(output);
        } catch (IOException ex) {
            err.println("pdla report: cannot write " + output + ": " + ex.getMessage());
            return 1;
        }
        out.println("wrote " + output);
        out.flush();
        return 0;
    }

    private static final class BadInput extends RuntimeException {
        BadInput(String message) {
            super(message);
        }
    }

    private JobReport fromTraceDir(Path dir, PrintWriter err) {
        TraceSource source;
        try {
            source = new TracerTraceSources().open(dir);
        } catch (TraceFormatException | TraceDirectoryException e) {
            throw new BadInput(e.getMessage());
        } catch (IOException e) {
            throw new BadInput("cannot read the trace directory " + dir + ": " + e.getMessage());
        }
        JobReport r = new JobReport(title(source.job().app()))
                .fact("trace directory", dir.toAbsolutePath().normalize().toString())
                .fact("application", source.job().app().command())
                .fact("processes", Integer.toString(source.job().app().processes()));
        source.warnings().forEach(r::warning);
        r.segments(source);
        TraceFileStats.Result stats = TraceFileStats.collect(source, smallBytes);
        stats.warnings().forEach(r::warning);
        r.fileStats(stats.files(), stats.bytesByRank());
        try {
            CounterTable.Builder table = CounterTable.builder();
            for (TracedRecord c : CounterLog.load(dir, true).records()) {
                table.record(c.module().label(), c.rank(), c.recordId(), c.fileName(), c.module().layout(), c.counters());
            }
            r.counters(table.build());
        } catch (IOException | RuntimeException e) {
            r.noCounters("the counters of " + dir + " could not be read: " + e.getMessage());
        }
        replicas(r);
        r.fact("records", r.records().size() + " data calls");
        return r;
    }

    /** "StridedApp, 4 processes": the main class's simple name (or the executable's file name) and the process count. */
    static String title(io.pdla.intercept.AppIdentity app) {
        String cmd = app.command().strip();
        String first = cmd.isEmpty() ? "job" : cmd.split("\\s+")[0];
        first = first.substring(first.lastIndexOf('/') + 1);
        if (first.contains(".") && !first.endsWith(".") && Character.isUpperCase(first.charAt(first.lastIndexOf('.') + 1))) {
            first = first.substring(first.lastIndexOf('.') + 1);
        }
        return first + ", " + app.processes() + (app.processes() == 1 ? " process" : " processes");
    }

    private JobReport fromDarshan(Path logPath, PrintWriter err) {
        DarshanLog log = DarshanCommand.readOrReport(logPath, "pdla report", err);
        if (log == null) return null;
        JobReport r = new JobReport(logPath.getFileName().toString())
                .fact("Darshan log", logPath.toAbsolutePath().normalize().toString())
                .fact("application", log.job().exe())
                .fact("processes", Long.toString(log.job().nprocs()));
        if (log.firstError() != null) r.warning(log.firstError().getMessage() + "; using what was read");
        DarshanTraceSource source = new DarshanTraceSource(log);
        if (source.hasDxt()) {
            r.fact("segments", "DXT from " + source.used.label());
            source.warnings().forEach(r::warning);
            r.segments(source);
        } else {
            r.noSegments(logPath.getFileName() + " has no DXT segments (run with DXT_ENABLE_IO_TRACE=1): this chart needs "
                    + "per-call records, the log has counters only");
        }
        var files = DarshanFileStats.collect(log);
        r.fileStats(files, DarshanFileStats.bytesByRank(log));
        r.counters(CounterTable.of(log));
        replicas(r, source.job().app(), source.job().files());
        return r;
    }

    private void replicas(JobReport r) {
        if (catalog == null) return;
        replicas(r, r.job().app(), r.job().files());
    }

    private void replicas(JobReport r, io.pdla.intercept.AppIdentity app, Map<Integer, String> paths) {
        if (catalog == null) return;
        Map<Integer, URI> files = new TreeMap<>();
        paths.forEach((id, p) -> files.put(id, io.pdla.storage.StorageDrivers.toUri(p)));
        try {
            r.replicas(ReplicaView.fromCatalog(catalog, app, files, r.records()));
        } catch (CatalogException e) {
            throw new BadInput("--catalog " + catalog + ": " + e.getMessage());
        } catch (IOException e) {
            throw new BadInput("cannot read the replica catalog " + catalog + ": " + e.getMessage());
        }
    }
}
