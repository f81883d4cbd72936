package io.pdla.cli.demo;

import io.pdla.cli.PdlaCommand;
import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.launch.RankMain;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PDLA loop as the demo runs it: run 0 creates the file; run 1 of the application is traced;
 * {@code pdla analyze} finds its patterns; {@code pdla daemon --once} builds the replicas (S-PDLA placement
 * when SSD servers are given); run 2 of the same command goes through the redirect interceptor. Both runs
 * verify every byte; the result says how many of run 2's reads replicas served.
 */
public final class PdlaLoopDemo {
    private static final Pattern APP = Pattern.compile("APP rank (\\d+) read (\\d+) bytes in ([0-9.]+) s verified=true(?: servedByReplica=(\\d+) servedByOriginal=(\\d+))?");

    /** One run's reads: slowest rank's time, bytes, and redirect counts summed over ranks. */
    public record RunFigures(int ranks, long bytes, double slowestSeconds, long servedByReplica, long servedByOriginal) {
        public double mibPerSecond() {
            return slowestSeconds > 0 ? bytes / 1048576.0 / slowestSeconds : 0;
        }
    }

    public record Result(RunFigures run1, RunFigures run2, Path traces) {
    }

    private final int processes;
    private final String file;
    private final int block;
    private final int segments;
    private final Path work;
    private final Map<String, String> env;
    private final int sServers;
    private final PrintStream out;
    private final List<String> appOptions;

    public PdlaLoopDemo(int processes, String file, int block, int segments, Path work, Map<String, String> env, int sServers, PrintStream out) {
        this(processes, file, block, segments, work, env, sServers, out, List.of());
    }

    /** {@code appOptions}: extra arguments of {@link StridedApp} after the mode, such as {@code direct}. */
    public PdlaLoopDemo(int processes, String file, int block, int segments, Path work, Map<String, String> env, int sServers, PrintStream out,
                        List<String> appOptions) {
        this.appOptions = List.copyOf(appOptions);
        this.processes = processes;
        this.file = file;
        this.block = block;
        this.segments = segments;
        this.work = work;
        this.env = Map.copyOf(env);
        this.sServers = sServers;
        this.out = out;
    }

    private String device = "multicore";
    private Path machines;

    /** Runs the jobs with MPJ's {@code device} on the hosts of {@code machines} (daemons are the caller's). */
    public PdlaLoopDemo onMachines(String device, Path machines) {
        this.device = device;
        this.machines = machines;
        return this;
    }

    public Result run() throws Exception {
        Path traces = work.resolve("traces"), patterns = work.resolve("patterns"), catalog = work.resolve("catalog");
        out.println("pdla demo: run 0 writes " + file);
        job("write", Map.of()).run(600);
        out.println("pdla demo: run 1 (traced) reads it back");
        RunFigures run1 = figures(job("read", Map.of("PDLA_INTERCEPTORS", "tracer", "PDLA_TRACE_DIR", traces.toString())).run(600), "run 1");
        out.println("pdla demo: analyze");
        require(PdlaCommand.commandLine().execute("analyze", traces.toString(), "--db", patterns.toString()), "analyze");
        out.println("pdla demo: daemon --once builds the replicas");
        List<String> daemon = new ArrayList<>(List.of("daemon", "--once", "--db", catalog.toString(), "--patterns", patterns.toString()));
        if (sServers > 0) daemon.addAll(List.of("--sservers", Integer.toString(sServers), "--ssd-space", "1g"));
        require(PdlaCommand.commandLine().execute(daemon.toArray(String[]::new)), "daemon");
        out.println("pdla demo: run 2 (redirected) reads it back");
        RunFigures run2 = redirectedRead(Map.of());
        return new Result(run1, run2, traces);
    }

    /** Another run 2 of the same command through redirect, after {@link #run()}; {@code extra} adds settings such as read-ahead. */
    public RunFigures redirectedRead(Map<String, String> extra) throws Exception {
        Map<String, String> env = new java.util.HashMap<>(extra);
        env.put("PDLA_INTERCEPTORS", "redirect");
        env.put("PDLA_CATALOG", work.resolve("catalog").toString());
        return figures(job("read", env).run(600), "run 2");
    }

    /** Run 1's reads again on the original, untraced: the baseline of later rounds. */
    public RunFigures originalRead() throws Exception {
        return figures(job("read", Map.of()).run(600), "run 1");
    }

    /** Each rank reads its whole region front to back in 4 MiB requests: the large sequential limit. */
    public RunFigures sequentialRead() throws Exception {
        return figures(job("seqread", Map.of()).run(600), "sequential read");
    }

    private MpjJob job(String mode, Map<String, String> extra) {
        List<String> args = new ArrayList<>(List.of(file, Integer.toString(block), Integer.toString(segments), mode));
        args.addAll(appOptions);
        MpjJob.Builder b = MpjJob.builder(RankMain.class.getName()).processes(processes)
                .classPath(MpjJob.currentClassPath()).args(args)
                .env("PDLA_APP", StridedApp.class.getName() + " " + String.join(" ", args))
                .env(RankMain.ENV_MAIN_CLASS, StridedApp.class.getName());
        env.forEach(b::env);
        extra.forEach(b::env);
        b.device(device);
        if (machines != null) b.machinesFile(machines.toAbsolutePath());
        return b.build();
    }

    private RunFigures figures(MpjJob.Result r, String what) {
        Matcher m = APP.matcher(r.output());
        int ranks = 0;
        long bytes = 0, replica = 0, original = 0;
        double slowest = 0;
        while (m.find()) {
            ranks++;
            bytes += Long.parseLong(m.group(2));
            slowest = Math.max(slowest, Double.parseDouble(m.group(3)));
            if (m.group(4) != null) {
                replica += Long.parseLong(m.group(4));
                original += Long.parseLong(m.group(5));
            }
        }
        if (ranks != processes) {
            throw new IllegalStateException(what + ": " + ranks + " of " + processes + " ranks read and verified the file:\n" + r.output());
        }
        return new RunFigures(ranks, bytes, slowest, replica, original);
    }

    private static void require(int code, String step) {
        if (code != 0) throw new IllegalStateException("pdla demo: " + step + " failed (exit " + code + ")");
    }
}
