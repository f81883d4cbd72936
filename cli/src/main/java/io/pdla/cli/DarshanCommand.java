package io.pdla.cli;

import io.pdla.darshan.DarshanFormatException;
import io.pdla.darshan.DarshanLog;
import io.pdla.darshan.DarshanReader;
import io.pdla.darshan.DxtReport;
import io.pdla.darshan.ParserReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code pdla darshan parse LOG}, {@code pdla darshan dxt LOG}: Darshan logs read in pure Java (issue 15). */
@Command(name = "darshan", mixinStandardHelpOptions = true, description = "Read Darshan binary logs.",
        subcommands = {DarshanCommand.Parse.class, DarshanCommand.Dxt.class, DarshanScanCommand.class})
public final class DarshanCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Reads a log; a log that is not readable gives a one-line error naming region and offset, and null. */
    static DarshanLog readOrReport(Path log, String command, PrintWriter err) {
        if (!Files.isRegularFile(log)) {
            err.println(command + ": " + log + " does not exist or is not a file");
            return null;
        }
        try {
            return new DarshanReader().read(log);
        } catch (DarshanFormatException e) {
            err.println(command + ": " + log + " is not a readable Darshan log: " + e.getMessage());
        } catch (IOException e) {
            err.println(command + ": cannot read " + log + ": " + e.getMessage());
        }
        return null;
    }

    @Command(name = "parse", mixinStandardHelpOptions = true,
            description = "Print a log as darshan-parser does (same header lines, counter names, order and formats).")
    static final class Parse implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "LOG", description = "a .darshan log")
        Path log;

        @Option(names = "--base", description = "the records' counters (the default when no other option is given)")
        boolean base;

        @Option(names = "--total", description = "aggregated counters of POSIX, MPI-IO and STDIO")
        boolean total;

        @Option(names = {"--file", "--file-list"}, description = "file counts by access type")
        boolean file;

        @Option(names = "--perf", description = "derived performance figures")
        boolean perf;

        @Option(names = "--all", description = "--base --total --file --perf --show-incomplete")
        boolean all;

        @Option(names = "--show-incomplete", description = "print what was read from incomplete or damaged logs")
        boolean showIncomplete;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
            DarshanLog log = readOrReport(log(), "pdla darshan parse", err);
            if (log == null) return 2;
            boolean b = base || all || !(total || file || perf);
            ParserReport.Options opt = new ParserReport.Options(b, total || all, file || all, perf || all,
                    showIncomplete || all);
            StringBuilder text = new StringBuilder(), errText = new StringBuilder();
            int rc = 0;
            if (log.firstError() != null && !opt.showIncomplete()) {
                err.println("pdla darshan parse: " + log() + " is damaged: " + log.firstError().getMessage()
                        + "; --show-incomplete prints what could be read");
                return 2;
            }
            try {
                new ParserReport(text, errText, ZoneId.systemDefault()).print(log, opt);
            } catch (ParserReport.IncompleteLogException e) {
                rc = 2;
                // darshan-parser's own lines (in errText) do not say which log; this one does
                errText.append("pdla darshan parse: ").append(log()).append(": ").append(e.getMessage()).append('\n');
            }
            out.print(text);
            out.flush();
            err.print(errText);
            if (log.firstError() != null) err.println("pdla darshan parse: warning: " + log.firstError().getMessage());
            err.flush();
            return rc;
        }

        private Path log() { return log; }
    }

    @Command(name = "dxt", mixinStandardHelpOptions = true,
            description = "Print a log's DXT traces (DXT_POSIX, DXT_MPIIO: every segment's offset, length and times) "
                    + "as darshan-dxt-parser does.")
    static final class Dxt implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "LOG", description = "a .darshan log")
        Path log;

        @Option(names = "--show-incomplete", description = "print the segments of a DXT module that ran out of memory "
                + "(without it such a log is an error, as in darshan-dxt-parser)")
        boolean showIncomplete;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
            DarshanLog read = readOrReport(log, "pdla darshan dxt", err);
            if (read == null) return 2;
            if (read.namesError() != null) {
                // darshan-dxt-parser stops before printing anything when the record table cannot be read
                err.println("pdla darshan dxt: " + log + " is damaged: " + read.namesError().getMessage());
                return 2;
            }
            StringBuilder text = new StringBuilder(), errText = new StringBuilder();
            int rc = 0;
            try {
                if (!new DxtReport(text, errText, ZoneId.systemDefault()).print(read, showIncomplete)) {
                    rc = 2;
                    errText.append("pdla darshan dxt: ").append(log).append(" is damaged: ")
                            .append(read.firstError() != null ? read.firstError().getMessage() : "a DXT region cannot be read").append('\n');
                }
            } catch (ParserReport.IncompleteLogException e) {
                rc = 2;
                errText.append("pdla darshan dxt: ").append(log).append(": ").append(e.getMessage()).append('\n');
            }
            out.print(text);
            out.flush();
            err.print(errText);
            err.flush();
            return rc;
        }
    }
}
