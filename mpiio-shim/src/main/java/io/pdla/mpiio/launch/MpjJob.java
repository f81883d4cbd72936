package io.pdla.mpiio.launch;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Launches an MPJ Express job (what {@code mpjrun} does) with MPJ's starter from the private MPJ_HOME:
 * {@code java -jar starter.jar -np N -dev DEVICE -cp CLASSPATH Main args}. Used by {@code pdla run},
 * {@code pdla bench} and the tests. MPJ's own {@code mpj.jar} is removed from the class path given to the
 * ranks: the runtime supplies the {@code mpi} classes, and a second copy would split them across loaders.
 */
public final class MpjJob {
    private final int processes;
    private final String device;
    private final Path machinesFile;
    private final List<String> classPath;
    private final String mainClass;
    private final List<String> args;
    private final Map<String, String> environment;
    private final List<String> jvmOptions;
    private final int delegates;

    private MpjJob(Builder b) {
        this.delegates = b.delegates;
        this.processes = b.processes + b.delegates;
        this.device = b.device;
        this.machinesFile = b.machinesFile;
        this.classPath = List.copyOf(b.classPath);
        this.mainClass = b.mainClass;
        this.args = List.copyOf(b.args);
        Map<String, String> env = new HashMap<>(b.environment);
        if (b.delegates > 0) env.put(RankMain.ENV_DELEGATES, Integer.toString(b.delegates));
        this.environment = Map.copyOf(env);
        List<String> jvm = new ArrayList<>(RANK_JIT_OPTIONS);   // first: the user's options below win over them
        jvm.addAll(rankJavaOptions(env.containsKey(ENV_RANK_JAVA_OPTIONS)
                ? env.get(ENV_RANK_JAVA_OPTIONS) : System.getenv(ENV_RANK_JAVA_OPTIONS)));
        jvm.addAll(b.jvmOptions);
        this.jvmOptions = List.copyOf(jvm);
    }

    /**
     * Online PDLA's per-read hook, kept out of the callers C2 compiles. The shim's straight path tells every watcher
     * of an open of each read through one call site ({@code InterceptorChain.observed}); with online PDLA on it sees
     * the tracer and online PDLA, so C2 inlined both there, online PDLA's whole matcher with it (1,342 bytes of
     * bytecode instead of 410), although online PDLA stops watching a file at its hand-off in pass 2, before that
     * compilation: in a 4 KiB-read job it compiled for 50-450 ms on the job's cores instead of 2-35 ms, and the
     * ranks' reads ran the slower profiled code meanwhile (bench/RESULTS-online.md, open19). Not inlined, the site
     * inlines the tracer as in a job without online PDLA and calls online PDLA's hook while it still matches. A
     * directive for a class a job never loads does nothing.
     */
    public static final String ONLINE_OBSERVER = "io.pdla.patterns.online.OnlineInterceptor::observed";

    /** The shared straight path's classes and the stores' (every method; the class patterns match by prefix). */
    static final List<String> SHARED_READ_PATH = List.of("io/pdla/straight/*.*", "io/pdla/storage/*.*");

    /**
     * The JIT policy of every rank JVM pdla starts, before the user's {@link #ENV_RANK_JAVA_OPTIONS} (a flag given there
     * again wins): the optimising compiler (C2) takes a method only after ten times the JDK's invocations and loops.
     * Why: a rank JVM starts MPJ, pdla and the application in each rank's class loader, and C2 compiled what that
     * start-up made hot (zip look-ups, strings, hash maps, pdla's path once per rank loader) while the job's first
     * I/O ran: 0.7 s of compiler CPU in a 4-rank job of three 256 MiB collective read phases, on two cores. With the
     * higher thresholds the quick compiler's code serves the first iterations, and code that stays hot (the
     * application's kernels, pdla's calls after some 50,000 of them) is still C2-compiled, a few milliseconds later.
     * Figures: bench/RESULTS-native.md, session 17.
     *
     * <p>Except for {@link #SHARED_READ_PATH}: the straight path and the stores beneath it are one copy per JVM, shared by
     * the ranks, and hot in every job that reads or writes. At ten times the thresholds C2 compiled them only after some
     * 50,000 calls of the job, in the third iteration of a fresh job's 16 KiB reads, which then ran slower than its
     * second (C2's work on the job's cores, the profiled code meanwhile). Their thresholds scaled by 0.05 (C2's at half
     * the JDK's, C1's at a twentieth), they are C2-compiled during the rank's warm-up ({@code StraightPathWarmup}),
     * before the job's first read (bench/RESULTS-native.md, session 24). Only rank JVMs get this: the daemon's JVM and
     * other drivers' packages are not concerned.
     */
    static final List<String> RANK_JIT_OPTIONS = List.of("-XX:Tier4InvocationThreshold=50000", "-XX:Tier4MinInvocationThreshold=6000",
            "-XX:Tier4CompileThreshold=150000", "-XX:Tier4BackEdgeThreshold=400000",
            // quiet first: the JVM would otherwise print each directive below on the job's standard output
            "-XX:CompileCommand=quiet", "-XX:CompileCommand=dontinline," + ONLINE_OBSERVER,
            "-XX:CompileCommand=CompileThresholdScaling," + SHARED_READ_PATH.get(0) + ",0.05",
            "-XX:CompileCommand=CompileThresholdScaling," + SHARED_READ_PATH.get(1) + ",0.05");

    /**
     * JVM options for every rank JVM of the jobs pdla starts (pdla run, pdla bench, the launcher's tests), space
     * separated: e.g. {@code -XX:TieredStopAtLevel=1}, which for an I/O-bound job makes the first iterations about
     * twice as fast (the rank threads' copies of pdla are not C2-compiled while the job runs; see bench/RESULTS-native.md)
     * at some cost to peak compiled speed.
     */
    public static final String ENV_RANK_JAVA_OPTIONS = "PDLA_RANK_JAVA_OPTIONS";

    private static List<String> rankJavaOptions(String value) {
        if (value == null || value.isBlank()) return List.of();
        List<String> out = new ArrayList<>();
        for (String o : value.trim().split("\\s+")) {
            if (!o.startsWith("-")) {
                throw new IllegalArgumentException(ENV_RANK_JAVA_OPTIONS + "='" + value + "': '" + o + "' is not a JVM option (they start with '-')");
            }
            out.add(o);
        }
        return out;
    }

    public static Builder builder(String mainClass) {
        return new Builder(mainClass);
    }

    /** The class path of the current JVM without MPJ's jars: what a job of this JVM's classes needs. */
    public static List<String> currentClassPath() {
        return Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> !e.isBlank())
                .collect(Collectors.toList());
    }

    public List<String> command() {
        Path home = MpjHome.locate();
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-jar");
        cmd.add(home.resolve("lib/starter.jar").toString());
        cmd.add("-np");
        cmd.add(Integer.toString(processes));
        cmd.add("-dev");
        cmd.add(device);
        if (machinesFile != null) {
            cmd.add("-machinesfile");
            cmd.add(machinesFile.toString());
        }
        String cp = classPath.stream().filter(e -> !isMpjJar(e)).collect(Collectors.joining(File.pathSeparator));
        if (!cp.isEmpty()) {
            cmd.add("-cp");
            cmd.add(cp);
        }
        // MPJ's starter passes it to the rank JVMs: with delegates for MPI.Init's guard, in every job for the linear
        // context agreement (MPJ's own makes MPI.Init alone take minutes at 144 multicore ranks)
        cmd.add("-javaagent:" + DelegateAgentJar.path() + sharedClassesArgument());
        cmd.addAll(jvmOptions);
        if (!device.equals("multicore")) {
            // MPJ's daemon starts these ranks' JVMs with its own environment: pdla's variables go as properties,
            // which MPJ's starter hands to the rank JVMs (it takes unknown "-" options as JVM arguments)
            java.util.Map<String, String> pdla = new java.util.TreeMap<>();
            System.getenv().forEach((k, v) -> {
                if (k.startsWith("PDLA_")) pdla.put(k, v);   // what the user set for the job, as multicore ranks inherit it
            });
            environment.forEach((k, v) -> {
                if (k.startsWith("PDLA_")) pdla.put(k, v);
            });
            pdla.forEach((k, v) -> cmd.add(io.pdla.intercept.Environment.asJvmArgument(k, v)));
        }
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }

    /**
     * The agent's argument naming {@link SharedClassesJar}'s jar: under the multicore device (ranks are threads of one
     * JVM, each with its own class loader) unless {@value SharedClassesJar#ENV} is false. niodev and hybdev ranks keep
     * loading everything in their own loaders.
     */
    private String sharedClassesArgument() {
        if (!device.equals("multicore") || !SharedClassesJar.enabled(environment.get(SharedClassesJar.ENV))) return "";
        Path jar = SharedClassesJar.path();
        return jar == null ? "" : "=" + MpiInitOnce.SHARED_ARGUMENT + jar;
    }

    private static boolean isMpjJar(String entry) {
        String f = Path.of(entry).getFileName() == null ? entry : Path.of(entry).getFileName().toString();
        return f.matches("mpj(-[0-9.]+)?\\.jar");
    }

    /** Starts the job with its output inherited by this process. */
    public Process start(boolean inheritOutput) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command());
        pb.environment().put("MPJ_HOME", MpjHome.locate().toString());
        pb.environment().putAll(environment);
        if (inheritOutput) pb.inheritIO();
        else pb.redirectErrorStream(true);
        return pb.start();
    }

    /** Runs the job to completion, capturing its combined output. */
    public Result run(long timeoutSeconds) throws IOException, InterruptedException {
        Process p = start(false);
        byte[][] out = new byte[1][];
        Thread reader = new Thread(() -> {
            try {
                out[0] = p.getInputStream().readAllBytes();
            } catch (IOException e) {
                out[0] = ("output lost: " + e).getBytes(StandardCharsets.UTF_8);
            }
        });
        reader.start();
        boolean finished = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!finished) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor();
        }
        reader.join(5000);
        String text = out[0] == null ? "" : new String(out[0], StandardCharsets.UTF_8);
        return new Result(finished ? p.exitValue() : -1, text, !finished);
    }

    /** Exit status (-1 on time-out) and combined output of a finished job. */
    public record Result(int exitCode, String output, boolean timedOut) {
        public boolean succeeded() {
            return exitCode == 0 && !timedOut;
        }
    }

    public static final class Builder {
        private final String mainClass;
        private int processes = 1;
        private String device = "multicore";
        private Path machinesFile;
        private final List<String> classPath = new ArrayList<>();
        private final List<String> args = new ArrayList<>();
        private final Map<String, String> environment = new HashMap<>();
        private final List<String> jvmOptions = new ArrayList<>();
        private int delegates;

        private Builder(String mainClass) {
            this.mainClass = mainClass;
        }

        public Builder processes(int n) {
            if (n <= 0) throw new IllegalArgumentException("number of processes must be > 0, was " + n);
            this.processes = n;
            return this;
        }

        /**
         * Adds {@code d} I/O delegate ranks after the application's ranks (the job has processes + d ranks);
         * the main class must be {@link RankMain}, which gives the application a world of its own ranks.
         */
        public Builder delegates(int d) {
            if (d < 0) throw new IllegalArgumentException("number of delegates must be >= 0, was " + d);
            this.delegates = d;
            return this;
        }

        public Builder device(String d) {
            if (!d.equals("multicore") && !d.equals("niodev") && !d.equals("hybdev")) {
                throw new IllegalArgumentException("unknown MPJ device '" + d + "' (multicore, niodev or hybdev)");
            }
            this.device = d;
            return this;
        }

        public Builder machinesFile(Path f) {
            this.machinesFile = f;
            return this;
        }

        public Builder classPath(List<String> entries) {
            classPath.addAll(entries);
            return this;
        }

        public Builder args(List<String> a) {
            args.addAll(a);
            return this;
        }

        public Builder env(String key, String value) {
            environment.put(key, value);
            return this;
        }

        /** An option for the rank JVMs (MPJ's starter hands options it does not know to them), e.g. {@code -Xlog:...}. */
        public Builder jvmOption(String option) {
            jvmOptions.add(option);
            return this;
        }

        public MpjJob build() {
            if (delegates > 0 && !mainClass.equals(RankMain.class.getName())) {
                throw new IllegalArgumentException("delegates need " + RankMain.class.getName() + " as the main class, not " + mainClass);
            }
            return new MpjJob(this);
        }
    }
}
