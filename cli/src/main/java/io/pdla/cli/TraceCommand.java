package io.pdla.cli;

import io.pdla.tracer.format.TraceDirectory;
import io.pdla.tracer.format.TraceLayer;
import io.pdla.tracer.format.TraceText;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code pdla trace}: reading the traces a traced run ({@code pdla run --trace DIR}) left behind (issue 4). */
@Command(name = "trace", mixinStandardHelpOptions = true, subcommands = TraceCommand.Dump.class,
        description = "Per-rank I/O traces written by the tracer (pdla run --trace DIR).")
public final class TraceCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code pdla trace dump DIR [--csv] [--layer L]}: one request per line, rank by rank, in issue order. */
    @Command(name = "dump", mixinStandardHelpOptions = true,
            description = {"Prints every traced request, one per line: rank pid file_id op positioning mode offset length start_ns end_ns.",
                "Times are nanoseconds since the job start. Exit 0 ok, 2 missing or damaged trace, 1 other failure."})
    public static final class Dump implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Parameters(paramLabel = "DIR", description = "the trace directory")
        private Path dir;

        @Option(names = "--csv", description = "comma-separated, with a header line")
        private boolean csv;

        @Option(names = "--allow-missing", description = "accept ranks without a trace (ranks that opened no file)")
        private boolean allowMissing;

        @Option(names = "--layer", paramLabel = "LAYER", defaultValue = "application", converter = LayerConverter.class,
                description = {"application (default): the application's own MPI-IO calls;",
                    "aggregator: the storage requests collective-buffering aggregators made for collective calls (aggregator ranks only)"})
        private TraceLayer layer;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            return TraceDirectoryCommands.run("pdla trace dump", dir, out, err,
                    () -> TraceText.dump(TraceDirectory.open(dir, allowMissing), layer, csv, out));
        }
    }

    /** Picocli's message for a bad value names the option; ours lists the layers there are. */
    static final class LayerConverter implements CommandLine.ITypeConverter<TraceLayer> {
        @Override
        public TraceLayer convert(String value) {
            try {
                return TraceLayer.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    static CommandLine commandLine() {
        return new CommandLine(new TraceCommand());
    }
}
