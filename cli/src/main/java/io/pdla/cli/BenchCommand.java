package io.pdla.cli;

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
        subcommands = {BenchCommand.Ior.class, BenchCommand.Jmh.class, BenchCommand.Matrix.class, DirectBenchCommand.class})
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

        @Option(names = "--dev", defaultValue = "multicore", description = "MPJ device: multicore or niodev. Default: ${DEFAULT-VALUE}.")
        String device;

        @Option(names = "--machines", description = "Machines file for niodev (one host per line).")
        Path machines;

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
            try {
                return IorLauncher.run(processes, device, machines, iorArgs, true, 0).exitCode();
            } catch (IllegalArgumentException e) {
                // bad IOR options (the message names the option) or an unknown device
                return bad(e.getMessage());
            }
        }
    }

    @Command(name = "jmh", description = "Run the JMH micro-benchmarks of the shim's per-call overhead (JMH's own options pass through, e.g. -f 1 -wi 2 -i 3).")
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

    private static int bad(String message) {
        System.err.println("pdla bench ior: " + message);
        return 2;
    }
}
