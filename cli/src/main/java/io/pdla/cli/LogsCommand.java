package io.pdla.cli;

import io.pdla.analytics.Ingest;
import io.pdla.analytics.Synthetic;
import io.pdla.analytics.Tables;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code pdla logs ingest|synth}: Darshan logs and trace directories as Parquet tables (module analytics). */
@Command(name = "logs", mixinStandardHelpOptions = true, description = "Darshan logs and pdla traces as job/file/rank/segment tables.",
        subcommands = {LogsCommand.IngestCmd.class, LogsCommand.SynthCmd.class})
public final class LogsCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "ingest", mixinStandardHelpOptions = true,
            description = {"Read every *.darshan log and pdla trace directory under DIR... into Parquet tables under TABLES "
                    + "(job, file, rank, segment). Logs already ingested (same path, size and mtime) are skipped. "
                    + "Unreadable logs are listed and skipped.",
                    "Exit 0 when something was ingested or everything was already there; 2 when an input is missing, "
                    + "nothing was found, or no new log was readable."})
    static final class IngestCmd implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(arity = "1..*", paramLabel = "DIR", description = "directories (or single logs / trace directories)")
        List<Path> dirs;

        @Option(names = "--out", required = true, paramLabel = "TABLES", description = "the tables directory (created if missing)")
        Path out;

        @Option(names = "--no-progress", description = "no progress bar (for logs and CI)")
        boolean noProgress;

        @Option(names = "--threads", paramLabel = "N", description = "threads reading logs (default: cores, at most 4)")
        Integer threads;

        @Override
        public Integer call() {
            PrintWriter pw = spec.commandLine().getOut(), err = spec.commandLine().getErr();
            for (Path d : dirs) {
                if (!java.nio.file.Files.exists(d)) {
                    err.println("pdla logs ingest: " + d + " does not exist");
                    return 2;
                }
            }
            if (threads != null && threads < 1) {
                err.println("pdla logs ingest: --threads " + threads + ": must be at least 1");
                return 2;
            }
            Ingest.Result r;
            ProgressBar[] pb = new ProgressBar[1];
            try {
                Tables tables = Tables.create(this.out);
                Ingest ingest = threads == null ? new Ingest(tables) : new Ingest(tables, threads);
                r = ingest.run(dirs, new Ingest.Progress() {
                    @Override
                    public void start(int logs) {
                        if (noProgress || logs == 0) return;
                        pb[0] = new ProgressBarBuilder().setTaskName("ingest").setInitialMax(logs).setStyle(ProgressBarStyle.ASCII)
                                .setConsumer(new ConsoleProgressBarConsumer(System.err)).build();
                    }

                    @Override
                    public void step() {
                        if (pb[0] != null) pb[0].step();
                    }
                });
            } catch (IOException | RuntimeException e) {
                err.println("pdla logs ingest: " + e.getMessage());
                return 2;
            } finally {
                if (pb[0] != null) pb[0].close();
            }
            long skipped = r.skippedCount(), partial = r.problems().size() - skipped;
            pw.printf(Locale.ROOT, "logs found: %d, already ingested: %d, ingested: %d, unreadable (skipped): %d, read in part: %d%n",
                    r.found(), r.alreadyIngested(), r.ingested(), skipped, partial);
            pw.printf(Locale.ROOT, "rows added: job %d, file %d, rank %d, segment %d; %.2f s (%.0f logs/s)%n", r.rows().get("job"),
                    r.rows().get("file"), r.rows().get("rank"), r.rows().get("segment"), r.seconds(),
                    r.seconds() > 0 ? (r.ingested() + skipped) / r.seconds() : 0.0);
            for (Ingest.Problem p : r.problems()) pw.println((p.skipped() ? "unreadable: " : "read in part: ") + p.path() + ": " + p.error());
            pw.println("tables: " + out.toAbsolutePath().normalize());
            pw.flush();
            if (r.found() == 0) {
                err.println("pdla logs ingest: no .darshan logs or trace directories under " + dirs);
                return 2;
            }
            if (r.ingested() == 0 && skipped > 0) {
                err.println("pdla logs ingest: none of the " + skipped + " new logs was readable");
                return 2;
            }
            return 0;
        }

    }

    @Command(name = "synth", mixinStandardHelpOptions = true,
            description = "Write synthetic job and file tables (DuckDB SQL over range(); rules in analytics/README.md) for speed figures and tests.")
    static final class SynthCmd implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--jobs", defaultValue = "100000", paramLabel = "N", description = "jobs (default ${DEFAULT-VALUE})")
        long jobs;

        @Option(names = "--files-per-job", defaultValue = "10", paramLabel = "F", description = "file rows per job (default ${DEFAULT-VALUE})")
        int files;

        @Option(names = "--out", required = true, paramLabel = "TABLES", description = "the tables directory")
        Path out;

        @Override
        public Integer call() {
            if (jobs <= 0 || files <= 0) {
                spec.commandLine().getErr().println("pdla logs synth: --jobs and --files-per-job must be positive");
                return 2;
            }
            long t0 = System.nanoTime();
            try {
                Synthetic.generate(out, jobs, files);
            } catch (IOException e) {
                spec.commandLine().getErr().println("pdla logs synth: " + e.getMessage());
                return 2;
            }
            spec.commandLine().getOut().printf(Locale.ROOT, "%d jobs, %d file rows in %s (%.2f s)%n", jobs, jobs * files,
                    out.toAbsolutePath().normalize(), (System.nanoTime() - t0) / 1e9);
            return 0;
        }
    }
}
