package io.pdla.cli;

import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.launch.RankMain;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code pdla run}: mpjrun with the shim on the class path. The application's own classes come from
 * {@code --classpath}; the execution command (main class and arguments) is passed to every rank in
 * {@code PDLA_APP}, which is what patterns and replicas are keyed by.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Launch an MPJ Express job with pdla's MPI-IO on its class path.",
        footer = {"", "Example: pdla run -np 4 --classpath app.jar -- org.example.Main input.dat",
                "niodev needs MPJ's daemon on every machine: java -jar $MPJ_HOME/lib/daemon.jar 40055 (see docs/cluster.md)"})
public final class RunCommand implements Callable<Integer> {
    @Option(names = {"-np"}, required = true, description = "Number of processes.")
    int processes;

    @Option(names = "--dev", defaultValue = "multicore", description = "MPJ device: multicore (threads of one JVM) or niodev (one JVM per rank, across the hosts of --machines). Default: ${DEFAULT-VALUE}.")
    String device;

    @Option(names = "--machines", description = "Machines file for niodev (one host per line). Each host needs MPJ's daemon: one that answers is used, on hosts of `pdla hosts up` pdla starts (and afterwards stops) it; any other host without one is an error naming it.")
    Path machines;

    @Option(names = {"--classpath", "-cp"}, defaultValue = ".", description = "The application's class path. Default: ${DEFAULT-VALUE}.")
    String classPath;

    @Option(names = "--interceptors", description = "Interceptors to enable, comma-separated (sets PDLA_INTERCEPTORS).")
    String interceptors;

    @Option(names = "--trace", paramLabel = "DIR", description = "Trace every file operation into DIR (turns on the tracer interceptor; see `pdla trace dump`, `pdla counters`).")
    Path traceDir;

    @Option(names = "--delegates", defaultValue = "0", paramLabel = "D|auto",
            description = "I/O delegate ranks to start besides the -np application ranks (the application sees a world of -np ranks), "
                    + "or 'auto': as `pdla plan-delegates` decides from the pattern database of --db. Default: ${DEFAULT-VALUE}.")
    String delegates;

    @Option(names = "--db", description = "Pattern database for --delegates auto and --online (default for --online: PDLA_PATTERNS).")
    Path patternDb;

    @Option(names = "--online", description = "Online PDLA: each rank matches its reads of every read-only open against the analyzer's templates; "
            + "a file's pattern seen to repeat from one open to the next is stored in the pattern database (--db), where a running "
            + "`pdla daemon --patterns DB --db CATALOG` builds its replica, and later opens of the file read from it through redirect "
            + "(catalog: --catalog or PDLA_CATALOG). Sets PDLA_ONLINE.")
    boolean online;

    @Option(names = "--catalog", description = "Replica catalog redirect reads (sets PDLA_CATALOG).")
    Path catalog;

    @Option(names = "--timeout", defaultValue = "0", description = "Kill the job after this many seconds (0: never).")
    long timeoutSeconds;

    @Option(names = "--failure-grace", defaultValue = "5", paramLabel = "SECONDS",
            description = "Once a rank has failed, how long the job's other ranks get to end (or fail too) before pdla stops them all:"
                    + " under niodev a rank waiting for a failed peer in MPI would otherwise wait until --timeout. Default: ${DEFAULT-VALUE}.")
    long failureGraceSeconds;

    @Parameters(index = "0", paramLabel = "MAIN_CLASS", description = "The application's main class.")
    String mainClass;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "The application's arguments.")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (processes <= 0) return bad("-np must be > 0, was " + processes);
        if (failureGraceSeconds < 0) return bad("--failure-grace must be >= 0 seconds, was " + failureGraceSeconds);
        if (machines != null && !Files.isRegularFile(machines)) return bad("machines file not found: " + machines);
        if (device.equals("niodev") && machines == null) return bad("--dev niodev needs --machines FILE");
        int delegateRanks;
        try {
            delegateRanks = delegateRanks();
        } catch (IllegalArgumentException e) {
            return bad(e.getMessage());
        }
        List<String> cp = new ArrayList<>(List.of(classPath.split(File.pathSeparator)));
        Path statusDir;
        try {
            statusDir = statusDirectory();
        } catch (IllegalArgumentException e) {
            return bad(e.getMessage());
        }
        // removed on every way out (a bad setting, a host without a daemon, a trace directory that cannot be made, the
        // job's end): bad-input runs left it empty in the temporary directory
        try {
            cp.addAll(PdlaJar.classPath());
            MpjJob.Builder b;
            try {
                b = MpjJob.builder(RankMain.class.getName()).processes(processes).delegates(delegateRanks).device(device).classPath(cp).args(args)
                        .env("PDLA_APP", String.join(" ", command()))
                        .env(RankMain.ENV_MAIN_CLASS, mainClass)
                        .env(RankMain.ENV_STATUS_DIR, statusDir.toString());
            } catch (IllegalArgumentException e) {
                return bad(e.getMessage());
            }
            if (machines != null) b.machinesFile(machines.toAbsolutePath());
            String chain = interceptors;
            if (traceDir != null) {
                try {
                    Files.createDirectories(traceDir);
                } catch (java.io.IOException e) {
                    return bad("--trace " + traceDir + ": cannot make the trace directory (" + e + ")");
                }
                b.env("PDLA_TRACE_DIR", traceDir.toAbsolutePath().toString());
                chain = chain == null || chain.isBlank() ? "tracer" : chain + ",tracer";
            }
            if (catalog != null) b.env("PDLA_CATALOG", catalog.toAbsolutePath().toString());
            if (online) {
                String problem = online(b);
                if (problem != null) return bad(problem);
            }
            if (chain != null) b.env("PDLA_INTERCEPTORS", chain);
            MpjDaemons daemons;
            try {
                daemons = MpjDaemons.forJob(device, machines);
            } catch (MpjDaemons.UnreachableHost e) {
                return bad(e.getMessage());
            }
            // not MpjDaemons.runJob: the daemons this run starts are also stopped if the launcher itself is stopped
            Thread hook = null;
            RankStatuses statuses = new RankStatuses(statusDir);
            try (daemons) {   // with the daemons pdla started go the rank JVMs they still run
                if (daemons != null && !daemons.startedOn().isEmpty()) {
                    System.err.println("pdla run: started MPJ daemons on " + String.join(", ", daemons.startedOn()) + " (stopped after the job)");
                    hook = new Thread(daemons::close, "pdla-run-daemons");
                    Runtime.getRuntime().addShutdownHook(hook);
                }
                Process p = b.build().start(true);
                // a launcher stopped by a signal (kill, a scheduler's SIGTERM) takes its job with it, as mpirun does: MPJ's
                // starter is a process of its own, which otherwise ran on with the ranks, orphaned
                Thread stopJob = new Thread(() -> {
                    if (p.isAlive()) stop(p);
                    statuses.delete();
                }, "pdla-run-stop-job");
                Runtime.getRuntime().addShutdownHook(stopJob);
                try {
                    return awaitJob(p, statuses);
                } finally {
                    removeHook(stopJob);
                }
            } finally {
                if (hook != null) removeHook(hook);
            }
        } finally {
            new RankStatuses(statusDir).delete();
        }
    }

    /**
     * Waits for MPJ's starter, watching the ranks' statuses: once a rank has failed and the others have not ended
     * within --failure-grace, stops the job (MPJ's daemons kill a job's rank JVMs when its starter goes, and
     * {@link MpjDaemons#close} those of the daemons pdla started) and names the rank that failed first.
     */
    private int awaitJob(Process p, RankStatuses statuses) throws Exception {
        long start = System.nanoTime();
        long stopAt = Long.MAX_VALUE;
        RankStatuses.Status failure = null;
        while (!p.waitFor(200, TimeUnit.MILLISECONDS)) {
            long now = System.nanoTime();
            if (timeoutSeconds > 0 && now - start > TimeUnit.SECONDS.toNanos(timeoutSeconds)) {
                stop(p);
                System.err.println("pdla run: job killed after " + timeoutSeconds + " s");
                return 1;
            }
            if (failure == null) {
                failure = statuses.firstFailure();
                if (failure != null) stopAt = now + TimeUnit.SECONDS.toNanos(failureGraceSeconds);
            } else if (now >= stopAt) {
                List<RankStatuses.Status> seen = statuses.read();
                stop(p);
                long failed = seen.stream().filter(RankStatuses.Status::failed).count();
                int stopped = processes + delegateRanksStarted - seen.size();
                System.err.println("pdla run: " + failure.describe() + "; the job's other ranks had not ended " + failureGraceSeconds
                        + " s later, so pdla stopped them");
                System.err.println("pdla run: " + failed + " rank(s) failed, " + stopped + " rank(s) stopped");
                return 1;
            }
        }
        return exitStatus(statuses);
    }

    /** A hook this run no longer needs; none can be removed once the JVM is shutting down, when it runs anyway. */
    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hooks run now, this one among them
        }
    }

    /** Ends MPJ's starter and what it started on this host. */
    private static void stop(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** MPJ's starter exits 0 whatever the ranks did: the ranks' own status files say how the job ended. */
    private int exitStatus(RankStatuses statuses) throws java.io.IOException {
        List<RankStatuses.Status> all = statuses.read();
        List<RankStatuses.Status> failures = all.stream().filter(RankStatuses.Status::failed).toList();
        int missing = processes + delegateRanksStarted - all.size();
        if (!failures.isEmpty() || missing > 0) {
            if (!failures.isEmpty()) System.err.println("pdla run: " + failures.get(0).describe() + (failures.size() > 1 ? " (the first of them)" : ""));
            System.err.println("pdla run: " + failures.size() + " rank(s) failed" + (missing > 0 ? ", " + missing + " rank(s) never finished" : ""));
            return 1;
        }
        return 0;
    }

    /** The setting naming where the ranks' status directory is made: a directory every host of the job sees. */
    static final String ENV_STATUS_ROOT = "PDLA_STATUS_ROOT";

    /**
     * The directory the ranks record their statuses in: under $PDLA_STATUS_ROOT, else the temporary directory. The
     * ranks write into it from their own hosts, so across real hosts it must be on a file system they share (on
     * namespace hosts every directory is).
     */
    private static Path statusDirectory() throws java.io.IOException {
        String root = io.pdla.intercept.Environment.get(ENV_STATUS_ROOT);
        if (root == null || root.isBlank()) return Files.createTempDirectory("pdla-run-status");
        Path r = Path.of(root);
        if (!Files.isDirectory(r)) throw new IllegalArgumentException(ENV_STATUS_ROOT + "=" + root + " is not a directory");
        return Files.createTempDirectory(r, "pdla-run-status");
    }

    private int delegateRanksStarted;

    /**
     * Online PDLA's settings for the ranks (whose online and redirect interceptors then join every read-only open by
     * themselves), checked here so that a missing setting is one error before the job rather than a warning per rank.
     */
    private String online(MpjJob.Builder b) {
        Path db = patternDb;
        String env = io.pdla.intercept.Environment.get("PDLA_PATTERNS");
        if (db == null && env != null && !env.isBlank()) db = Path.of(env);
        if (db == null) return "--online needs the pattern database: --db DIR or PDLA_PATTERNS";
        String cat = catalog != null ? catalog.toString() : io.pdla.intercept.Environment.get("PDLA_CATALOG");
        if (cat == null || cat.isBlank()) return "--online needs the replica catalog the daemon builds into: --catalog DIR or PDLA_CATALOG";
        if (Files.exists(db) && !Files.isDirectory(db)) return "--db " + db + " is not a directory";
        if (Files.exists(Path.of(cat)) && !Files.isDirectory(Path.of(cat))) return "--catalog (or PDLA_CATALOG) " + cat + " is not a directory";
        String window = io.pdla.intercept.Environment.get("PDLA_ONLINE_WINDOW");
        try {
            io.pdla.patterns.online.OnlineSettings.from(java.util.Map.of("pdla_online", "true", "pdla_patterns", db.toString(),
                    "pdla_online_window", window == null ? String.valueOf(io.pdla.patterns.online.OnlineSettings.DEFAULT_WINDOW) : window));
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        b.env("PDLA_ONLINE", "true").env("PDLA_PATTERNS", db.toAbsolutePath().toString());
        return null;
    }

    private int delegateRanks() throws Exception {
        String d = delegates.trim();
        if (d.equals("auto")) {
            if (patternDb == null) throw new IllegalArgumentException("--delegates auto needs --db PATTERN_DB");
            DelegatePlan.Plan plan = DelegatePlan.decide(patternDb, String.join(" ", command()), processes);
            System.err.println("pdla run: delegates: " + plan.decision());
            delegateRanksStarted = plan.decision().delegates();
            return delegateRanksStarted;
        }
        try {
            delegateRanksStarted = Integer.parseInt(d);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--delegates must be a number of delegates or 'auto', was '" + delegates + "'");
        }
        if (delegateRanksStarted < 0) throw new IllegalArgumentException("--delegates must be >= 0, was " + delegateRanksStarted);
        return delegateRanksStarted;
    }

    private List<String> command() {
        List<String> c = new ArrayList<>();
        c.add(mainClass);
        c.addAll(args);
        return c;
    }

    private static int bad(String message) {
        System.err.println("pdla run: " + message);
        return 2;
    }
}
