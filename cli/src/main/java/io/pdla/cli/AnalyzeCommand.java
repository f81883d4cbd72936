package io.pdla.cli;

import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.Analyzer;
import io.pdla.patterns.ReportText;
import io.pdla.patterns.TraceInputException;
import io.pdla.patterns.TraceSource;
import io.pdla.patterns.TraceSourceFactory;
import io.pdla.patterns.db.PatternDatabase;
import io.pdla.patterns.db.PatternDatabaseException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code pdla analyze TRACE_DIR [--db DIR]}: the access patterns of a traced run (issue 5), printed in the
 * compact I/O-signature notation with their coverage, and stored in the pattern database with {@code --db}.
 * Reading the traces needs a {@link TraceSourceFactory} (the tracer adapter); without one the command says so
 * and exits 2.
 */
@Command(name = "analyze", mixinStandardHelpOptions = true,
        description = "Find the access patterns of a traced run and store them in the pattern database.")
public final class AnalyzeCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TRACE_DIR", description = "directory written by the tracer, or a .darshan log with DXT")
    private Path traceDir;

    @Option(names = "--db", paramLabel = "DIR", description = "pattern database directory to store the patterns in")
    private Path db;

    @Option(names = "--max-locals", paramLabel = "N", defaultValue = "50",
            description = "print at most N local patterns that are in no global pattern (default: ${DEFAULT-VALUE})")
    private int maxLocals;

    private final Optional<TraceSourceFactory> factory;

    public AnalyzeCommand() {
        this(TraceSourceFactory.installed());
    }

    public AnalyzeCommand(Optional<TraceSourceFactory> factory) {
        this.factory = factory;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        if (Files.isRegularFile(traceDir)) {
            return DarshanAnalyze.run(traceDir, db, maxLocals, out, err);
        }
        if (!Files.isDirectory(traceDir)) {
            err.println("pdla analyze: trace directory " + traceDir + " does not exist or is not a directory");
            return 2;
        }
        if (factory.isEmpty()) {
            err.println("pdla analyze: this build has no trace reader (no io.pdla.patterns.TraceSourceFactory is "
                    + "installed: the tracer adapter is missing), so " + traceDir + " cannot be read");
            return 2;
        }
        AnalysisReport report;
        try {
            TraceSource source = factory.get().open(traceDir);
            report = new Analyzer().analyze(source);
        } catch (IOException e) {
            err.println("pdla analyze: cannot read traces in " + traceDir + ": " + e.getMessage());
            return 2;
        } catch (TraceInputException | IllegalArgumentException e) {
            err.println("pdla analyze: " + traceDir + ": " + e.getMessage());
            return 2;
        }
        return printAndStore(report, maxLocals, db, out, err);
    }

    /** Prints the report and its warnings, and stores its patterns (queued for replication) when a database is given. */
    static int printAndStore(AnalysisReport report, int maxLocals, Path db, PrintWriter out, PrintWriter err) {
        out.print(ReportText.text(report, maxLocals));
        for (String w : report.warnings()) err.println("pdla analyze: warning: " + w);
        if (db != null) {
            try (PatternDatabase pdb = PatternDatabase.open(db)) {
                int stored = pdb.storeReport(report);
                out.println("stored " + stored + " new or changed pattern entries in " + db + " (queued for replication: "
                        + pdb.queueLength() + ")" + (report.partial() ? "; the analysis is PARTIAL" : ""));
            } catch (PatternDatabaseException e) {
                err.println("pdla analyze: " + e.getMessage());
                return 1;
            }
        }
        out.flush();
        return 0;
    }
}
