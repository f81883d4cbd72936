package io.pdla.cli;

import io.pdla.patterns.TraceSourceFactory;
import io.pdla.patterns.rootcause.FileIoStats;
import io.pdla.patterns.rootcause.IntervalCsv;
import io.pdla.patterns.rootcause.RootCauseAnalyzer;
import io.pdla.patterns.rootcause.RootCauseReport;
import io.pdla.patterns.rootcause.RootCauseText;
import io.pdla.patterns.rootcause.TraceFileStats;
import io.pdla.size.ByteSizeConverter;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code pdla why TRACE_DIR | --intervals FILE.csv [--json]}: why was this job's I/O slow (IOMiner's sweep-line
 * root-cause analysis, issue 5): critical path, critical files with exclusive times, bandwidths, and the
 * contributing factors weighted by exclusive time.
 */
@Command(name = "why", mixinStandardHelpOptions = true,
        description = "Root-cause report of a job's I/O time: critical path, critical files, contributing factors.")
public final class WhyCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Input input;

    static final class Input {
        @Parameters(index = "0", paramLabel = "TRACE_DIR", description = "directory written by the tracer, or a .darshan log")
        Path traceDir;
        @Option(names = "--intervals", paramLabel = "FILE.csv",
                description = "per-file intervals: header, then file,start,end[,factor columns] (seconds)")
        Path csv;
    }

    @Option(names = "--json", description = "print the report as JSON")
    private boolean json;

    @Option(names = "--top", paramLabel = "N", defaultValue = "10", description = "critical files to list (default: ${DEFAULT-VALUE})")
    private int top;

    @Option(names = "--small-bytes", paramLabel = "SIZE", defaultValue = "1m", converter = ByteSizeConverter.class,
            description = "requests below SIZE are small, when counting from traces (default: ${DEFAULT-VALUE})")
    private long smallBytes;

    private final Optional<TraceSourceFactory> factory;

    public WhyCommand() {
        this(TraceSourceFactory.installed());
    }

    public WhyCommand(Optional<TraceSourceFactory> factory) {
        this.factory = factory;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        if (input.traceDir != null && Files.isRegularFile(input.traceDir)) {
            return DarshanWhy.run(input.traceDir, json, top, out, err);
        }
        List<FileIoStats> files;
        Map<Integer, Long> bytesByRank = null;
        try {
            if (input.csv != null) {
                if (!Files.isRegularFile(input.csv)) {
                    err.println("pdla why: interval file " + input.csv + " does not exist");
                    return 2;
                }
                files = IntervalCsv.read(input.csv);
            } else {
                if (!Files.isDirectory(input.traceDir)) {
                    err.println("pdla why: trace directory " + input.traceDir + " does not exist or is not a directory");
                    return 2;
                }
                if (factory.isEmpty()) {
                    err.println("pdla why: this build has no trace reader (no io.pdla.patterns.TraceSourceFactory is "
                            + "installed: the tracer adapter is missing), so " + input.traceDir + " cannot be read; "
                            + "use --intervals FILE.csv");
                    return 2;
                }
                TraceFileStats.Result r = TraceFileStats.collect(factory.get().open(input.traceDir), smallBytes);
                r.warnings().forEach(w -> err.println("pdla why: warning: " + w));
                files = r.files();
                bytesByRank = r.bytesByRank();
            }
        } catch (IOException e) {
            err.println("pdla why: cannot read " + (input.csv != null ? input.csv : input.traceDir) + ": " + e.getMessage());
            return 2;
        } catch (IllegalArgumentException e) {
            err.println("pdla why: " + e.getMessage());
            return 2;
        }
        if (files.isEmpty()) {
            err.println("pdla why: no file had any I/O in " + (input.csv != null ? input.csv : input.traceDir));
            return 2;
        }
        RootCauseReport report;
        try {
            report = RootCauseAnalyzer.analyze(files, bytesByRank);
        } catch (IllegalArgumentException e) {
            err.println("pdla why: " + e.getMessage());
            return 2;
        }
        out.print(json ? RootCauseText.json(report) + System.lineSeparator() : RootCauseText.text(report, top));
        out.flush();
        return 0;
    }
}
