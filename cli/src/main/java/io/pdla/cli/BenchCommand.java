package io.pdla.cli;

import io.pdla.bench.collective.PartitionMethodsTable;
import io.pdla.bench.ior.IorLauncher;
import io.pdla.bench.ior.IorOptions;
import io.pdla.bench.jmh.JmhMain;
import io.pdla.bench.schemes.SchemeMatrix;
import io.pdla.size.ByteSizeConverter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** {@code pdla bench}: the IOR-style benchmark over the shim (with its FileChannel baseline) and the JMH micro-benchmarks. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks: IOR-style bandwidth of the shim against a FileChannel baseline, and JMH micro-benchmarks.",
        subcommands = {BenchCommand.Ior.class, BenchCommand.Tile.class, BenchCommand.SimCollective.class, BenchCommand.Jmh.class,
                BenchCommand.Matrix.class, BenchCommand.Partitions.class, DirectBenchCommand.class, ReplicaScaleCommand.class,
                BenchCommand.OpenClose.class, DarshanBenchCommand.class})
public final class BenchCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** Launcher options of its own; every other argument is an IOR option and goes to the job unchanged. */
    @Command(name = "ior",
            description = "Run the IOR-style benchmark as an MPJ job; the other options are IOR's (below).",
            footer = {"", "Example: pdla bench ior -np 4 -b 64m -t 1m -i 3 -o /tmp/ior.dat --json ior.json", ""})
    static final class Ior implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "-np", description = "Number of MPJ processes (ranks); required.")
        int processes;

        @Option(names = {"-h", "--help"}, description = "Show this help and IOR's options.")
        boolean help;

        @Option(names = "--dev", defaultValue = "multicore", description = "MPJ device: multicore, niodev or hybdev. Default: ${DEFAULT-VALUE}.")
        String device;

        @Option(names = "--machines", description = "Machines file for niodev/hybdev (one host per line); MPJ daemons as for `pdla run --machines`.")
        Path machines;

        @Option(names = "--delegates", defaultValue = "0", paramLabel = "D",
                description = "Run the shim's I/O through D I/O delegate ranks started beside the -np ranks "
                        + "(as pdla run --delegates D); the FileChannel baseline does not use them. Default: ${DEFAULT-VALUE}.")
        int delegates;

        @Unmatched
        List<String> iorArgs = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            if (help) {
                spec.commandLine().usage(System.out);
                System.out.println("IOR options:");
                System.out.print(IorOptions.usage());
                return 0;
            }
            if (processes <= 0) return bad("-np N is required and must be > 0" + (processes < 0 ? ", was " + processes : ""));
            if (machines != null && !Files.isRegularFile(machines)) return bad("machines file not found: " + machines);
            if (device.equals("niodev") && machines == null) return bad("--dev niodev needs --machines FILE");
            if (delegates < 0) return bad("--delegates must be >= 0, was " + delegates);
            // across hosts as `pdla run`: daemons found, or started on namespace hosts and stopped afterwards
            return MpjDaemons.runJob(device, machines, BenchCommand::bad, () -> {
                try {
                    return IorLauncher.run(processes, delegates, device, machines, iorArgs, true, 0).exitCode();
                } catch (IllegalArgumentException e) {
                    // bad IOR options (the message names the option) or an unknown device
                    return bad(e.getMessage());
                }
            });
        }
    }

    /** MPI-Tile-IO-style: launcher options here, the benchmark's own options go to the job unchanged. */
    @Command(name = "tile",
            description = "MPI-Tile-IO-style benchmark as an MPJ job: collective vs independent access to 2-D tiles through the shim, "
                    + "in the same run. Its own options: --nx-tiles --ny-tiles --tile-x --tile-y --element-size -i --warmup -o --hint K=V.",
            footer = {"", "Example: pdla bench tile -np 4 --tile-x 512 --tile-y 512 --element-size 8 -o /tmp/tile.dat --hint romio_cb_write=enable", ""})
    static final class Tile implements Callable<Integer> {
        @Option(names = "-np", required = true, description = "Number of MPJ processes (ranks).")
        int processes;

        @Option(names = "--dev", defaultValue = "multicore", description = "MPJ device: multicore, niodev or hybdev. Default: ${DEFAULT-VALUE}.")
        String device;

        @Option(names = "--machines", description = "Machines file for niodev/hybdev (one host per line); MPJ daemons as for `pdla run --machines`.")
        Path machines;

        @Unmatched
        List<String> tileArgs = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            if (processes <= 0) return bad("-np must be > 0, was " + processes);
            try {
                io.pdla.bench.tile.TileOptions.check(tileArgs, processes);
            } catch (IllegalArgumentException | CommandLine.ParameterException e) {
                return bad(e.getMessage());
            }
            return runWithStatus(io.pdla.bench.tile.TileMain.class, processes, device, machines, tileArgs);
        }
    }

    /** Collective open + close of one file, timed as IOR times a phase. */
    @Command(name = "open-close", mixinStandardHelpOptions = true,
            description = "Time a collective MPI_File_open + MPI_File_close of one file through the shim as an MPJ job "
                    + "(barrier, clock, barrier; latest end minus earliest start): median, p10, p90 over the iterations.",
            footer = {"", "Example: pdla bench open-close -np 4 -i 200 --warmup 50", ""})
    static final class OpenClose implements Callable<Integer> {
        @Option(names = "-np", defaultValue = "4", description = "Number of MPJ processes (ranks). Default: ${DEFAULT-VALUE}.")
        int processes;

        @Option(names = "--dev", defaultValue = "multicore", description = "MPJ device: multicore, niodev or hybdev. Default: ${DEFAULT-VALUE}.")
        String device;

        @Option(names = "--machines", description = "Machines file for niodev/hybdev (one host per line); MPJ daemons as for `pdla run --machines`.")
        Path machines;

        @Option(names = "-i", defaultValue = "200", description = "Timed iterations. Default: ${DEFAULT-VALUE}.")
        int iterations;

        @Option(names = "--warmup", defaultValue = "50", description = "Untimed iterations first. Default: ${DEFAULT-VALUE}.")
        int warmup;

        @Option(names = "--amode", defaultValue = "rdwr", description = "rdwr (MODE_RDWR|MODE_CREATE) or rdonly. Default: ${DEFAULT-VALUE}.")
        String amode;

        @Option(names = "-o", description = "The file (default: pdla-open-close.dat in the temporary directory).")
        Path file;

        @Override
        public Integer call() throws Exception {
            if (processes <= 0) return bad("-np must be > 0, was " + processes);
            if (iterations <= 0 || warmup < 0) return bad("-i must be > 0 and --warmup >= 0");
            if (!amode.equals("rdwr") && !amode.equals("rdonly")) return bad("--amode must be rdwr or rdonly, was " + amode);
            List<String> args = new ArrayList<>(List.of("-i", Integer.toString(iterations), "--warmup", Integer.toString(warmup), "--amode", amode));
            if (file != null) args.addAll(List.of("-o", file.toAbsolutePath().toString()));
            return runWithStatus(io.pdla.bench.openclose.OpenCloseMain.class, processes, device, machines, args);
        }
    }

    /** Collective vs independent on sim-pfs in virtual time, recorded from a live run of the shim. */
    @Command(name = "sim-collective", mixinStandardHelpOptions = true,
            description = "IOR's strided pattern on sim-pfs through the shim, independent and collective (two-phase) in one MPJ job; "
                    + "the recorded request streams are replayed in virtual time.",
            footer = {"", "Example: pdla bench sim-collective -np 64 -t 16k -s 16 --hint cb_nodes=8", ""})
    static final class SimCollective implements Callable<Integer> {
        @Option(names = "-np", required = true, description = "Number of MPJ processes (ranks).")
        int processes;

        @Option(names = "-t", defaultValue = "16k", converter = ByteSizeConverter.class, description = "Transfer size. Default: ${DEFAULT-VALUE}.")
        long transfer;

        @Option(names = "-s", defaultValue = "16", description = "Transfers per rank (segments). Default: ${DEFAULT-VALUE}.")
        int segments;

        @Option(names = "--view", description = "One call per rank through a strided view instead of one call per transfer.")
        boolean view;

        @Option(names = "--tile", description = "MPI-Tile-IO: each rank's tile of -s rows of -t bytes, in one call through a subarray view "
                + "(tiles as square as the process count allows).")
        boolean tile;

        @Option(names = "--hint", paramLabel = "KEY=VALUE", description = "MPI-IO hint for the collective phase (repeatable).")
        java.util.Map<String, String> hints = new java.util.LinkedHashMap<>();

        @Option(names = "--root", description = "sim-pfs root folder (default: a new temporary folder, removed afterwards).")
        Path root;

        @Option(names = "--delegates", defaultValue = "0", description = "Also run the independent calls through this many I/O delegates "
                + "(a second job) and compare the three paths. Default: ${DEFAULT-VALUE} (no delegate run).")
        int delegates;

        @Override
        public Integer call() throws Exception {
            if (processes <= 0 || transfer <= 0 || segments <= 0) return bad("-np, -t and -s must be > 0");
            if (delegates < 0) return bad("--delegates must be >= 0");
            if (view && tile) return bad("--view and --tile are two different shapes: give one");
            var shape = tile ? io.pdla.bench.collective.SimCollectiveBench.Shape.TILE
                    : view ? io.pdla.bench.collective.SimCollectiveBench.Shape.VIEW : io.pdla.bench.collective.SimCollectiveBench.Shape.CALLS;
            Path r = root != null ? root : Files.createTempDirectory("pdla-sim-collective");
            try {
                io.pdla.bench.collective.SimCollectiveBench.run(processes, delegates, Math.toIntExact(transfer), segments, shape, hints, r, System.out);
                return 0;
            } finally {
                if (root == null) deleteTree(r);
            }
        }

        private static void deleteTree(Path p) throws java.io.IOException {
            try (var s = Files.walk(p)) {
                for (Path x : (Iterable<Path>) s.sorted(java.util.Comparator.reverseOrder())::iterator) Files.deleteIfExists(x);
            }
        }
    }

    @Command(name = "jmh", description = "Run the JMH micro-benchmarks: the shim's per-call overhead by default, or name one, e.g. PartitionBenchmark (JMH's own options pass through, e.g. -f 1 -wi 2 -i 3).")
    static final class Jmh implements Callable<Integer> {
        @Unmatched
        List<String> jmhArgs = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            return JmhMain.run(jmhArgs.toArray(String[]::new));
        }
    }

    /** The paper's evaluation on sim-pfs: every scheme (Original ... S-PDLA) on the published workloads. */
    @Command(name = "matrix", mixinStandardHelpOptions = true,
            description = "Replication schemes (Original, PD, H-PDLA, S-ORIG, NS-PDLA, S-PDLA) on sim-pfs in virtual time "
                    + "for IOR fixed stride, PIO-Bench nested strided, MPI-Tile-IO, mixed sizes and LANL App2-like.",
            footer = {"", "Example: pdla bench matrix --only 'LANL' --per-rank 64m", ""})
    static final class Matrix implements Callable<Integer> {
        @Option(names = "--quick", description = "Only the 8-process IOR fixed-stride point.")
        boolean quick;

        @Option(names = "--per-rank", paramLabel = "SIZE", converter = ByteSizeConverter.class,
                description = "Bytes each process accesses per request size (per part for mixed sizes and LANL App2). "
                        + "Default: 16m; the paper's is 512m.")
        long perProc = SchemeMatrix.Options.DEFAULT_PER_PROC;

        @Option(names = "--stride-factor", paramLabel = "F",
                description = "IOR fixed-stride workloads: stride = F x request size, F >= 1. Default: 2 (the paper's).")
        double strideFactor = SchemeMatrix.Options.DEFAULT_STRIDE_FACTOR;

        @Option(names = "--only", paramLabel = "REGEX", converter = RegexConverter.class,
                description = "Run only the workloads whose name contains a match of REGEX (case-insensitive), "
                        + "e.g. 'LANL' or 'IOR.*16k'.")
        Pattern only;

        @Override
        public Integer call() {
            SchemeMatrix.Options options;
            try {
                options = new SchemeMatrix.Options(quick, perProc, strideFactor, only);
                SchemeMatrix.selected(options);
            } catch (IllegalArgumentException e) {
                // the message names the option (--per-rank, --stride-factor, --only)
                System.err.println("pdla bench matrix: " + e.getMessage());
                return 2;
            }
            SchemeMatrix.run(options, System.out);
            return 0;
        }
    }

    /** Liao and Choudhary's table: the five file-domain partitioning methods on sim-pfs virtual time. */
    @Command(name = "partitions", mixinStandardHelpOptions = true,
            description = "File-domain partitioning methods (even, stripe_aligned, static_cyclic, group_cyclic, transpose) for one "
                    + "collective write on sim-pfs: virtual bandwidth, lock conflicts and aggregators per server.",
            footer = {"", "Example: pdla bench partitions --hservers 8 -P 8,16,5", ""})
    static final class Partitions implements Callable<Integer> {
        private static final PartitionMethodsTable.Options DEFAULTS = PartitionMethodsTable.Options.defaults();

        @Option(names = "--hservers", paramLabel = "S", description = "HDD servers (stripe count). Default: 8.")
        int servers = DEFAULTS.servers();

        @Option(names = "-np", paramLabel = "N", description = "Ranks of the collective call. Default: 64.")
        int ranks = DEFAULTS.ranks();

        @Option(names = "--per-rank", paramLabel = "SIZE", converter = ByteSizeConverter.class, description = "Contiguous bytes per rank. Default: 8m.")
        long perRank = DEFAULTS.perRankBytes();

        @Option(names = "--stripe", paramLabel = "SIZE", converter = ByteSizeConverter.class, description = "Stripe size. Default: 1m.")
        long stripe = DEFAULTS.stripeBytes();

        @Option(names = "--buffer", paramLabel = "SIZE", converter = ByteSizeConverter.class, description = "cb_buffer_size. Default: 16m.")
        long buffer = DEFAULTS.bufferBytes();

        @Option(names = "--revoke-ms", paramLabel = "MS", description = "Virtual cost of one lock revocation. Default: 1.")
        double revokeMs = DEFAULTS.revocationMs();

        @Option(names = "-P", split = ",", paramLabel = "P", description = "Aggregator counts. Default: 8,16,5.")
        int[] aggregators = DEFAULTS.aggregatorCounts();

        @Override
        public Integer call() {
            PartitionMethodsTable.Options options;
            try {
                options = new PartitionMethodsTable.Options(servers, ranks, perRank, stripe, buffer, revokeMs, aggregators);
            } catch (IllegalArgumentException e) {
                System.err.println("pdla bench partitions: " + e.getMessage());
                return 2;
            }
            java.io.PrintWriter out = new java.io.PrintWriter(System.out, true);
            PartitionMethodsTable.print(options, PartitionMethodsTable.run(options), out);
            return 0;
        }
    }

    static final class RegexConverter implements CommandLine.ITypeConverter<Pattern> {
        @Override
        public Pattern convert(String value) {
            try {
                return Pattern.compile(value, Pattern.CASE_INSENSITIVE);
            } catch (PatternSyntaxException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a regular expression: " + e.getDescription()
                        + " near index " + e.getIndex());
            }
        }
    }

    /**
     * Runs a benchmark's main class as an MPJ job whose rank 0 writes its status into the file given as
     * {@code --status-file} (MPJ's starter exits 0 whatever the ranks do), with the MPJ daemons niodev or hybdev needs
     * started on {@code machines} (or found running) and stopped after.
     */
    private static int runWithStatus(Class<?> main, int processes, String device, Path machines, List<String> benchmarkArgs) throws Exception {
        Path status = Files.createTempFile("pdla-" + main.getSimpleName() + "-status", ".txt");
        try {
            List<String> args = new ArrayList<>(benchmarkArgs);
            args.addAll(List.of("--status-file", status.toString()));
            io.pdla.mpiio.launch.MpjJob.Builder b = io.pdla.mpiio.launch.MpjJob.builder(main.getName())
                    .processes(processes).device(device).classPath(io.pdla.mpiio.launch.MpjJob.currentClassPath()).args(args);
            if (machines != null) b.machinesFile(machines.toAbsolutePath());
            return MpjDaemons.runJob(device, machines, BenchCommand::bad, () -> {
                int exit = b.build().start(true).waitFor();
                if (exit != 0) return exit;
                String s = Files.readString(status).trim();
                return s.isEmpty() ? 4 : Integer.parseInt(s);
            });
        } finally {
            Files.deleteIfExists(status);
        }
    }

    private static int bad(String message) {
        System.err.println("pdla bench ior: " + message);
        return 2;
    }
}
