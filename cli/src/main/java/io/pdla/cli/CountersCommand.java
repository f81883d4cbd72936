package io.pdla.cli;

import io.pdla.tracer.counters.CounterLog;
import io.pdla.tracer.counters.DarshanText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code pdla counters DIR [--total] [--perf]}: the job's Darshan-like counters in darshan-parser's text
 * layout, shared files reduced to rank -1 records (issue 4).
 */
@Command(name = "counters", mixinStandardHelpOptions = true,
        description = {"Prints the counter log of a traced run in darshan-parser's layout.",
            "Exit 0 ok, 2 missing or damaged counter files, 1 other failure."})
public final class CountersCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "DIR", description = "the trace directory")
    private Path dir;

    @Option(names = "--total", description = "also print total_<COUNTER> lines aggregating all records of each module")
    private boolean total;

    @Option(names = "--perf", description = "also print the performance summary (total bytes, slowest-rank times, MiB/s)")
    private boolean perf;

    @Option(names = "--allow-missing", description = "accept ranks without counters (ranks that opened no file)")
    private boolean allowMissing;

    @Option(names = "--darshan", paramLabel = "OUT.darshan",
            description = "write the counters and the MPI-IO calls (as DXT) as a real Darshan log instead of printing")
    private Path darshan;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (darshan != null) {
            return TraceDirectoryCommands.run("pdla counters", dir, out, err, () -> {
                io.pdla.tracer.counters.DarshanLogExport.write(dir, darshan);
                out.println("wrote " + darshan);
            });
        }
        return TraceDirectoryCommands.run("pdla counters", dir, out, err,
                () -> DarshanText.print(CounterLog.load(dir, allowMissing), total, perf, out));
    }
}
