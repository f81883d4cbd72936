package io.pdla.cli;

import io.pdla.bench.ior.IorLauncher;
import io.pdla.bench.ior.IorOptions;
import io.pdla.bench.jmh.JmhMain;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code pdla bench}: the IOR-style benchmark over the shim (with its FileChannel baseline) and the JMH micro-benchmarks. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks: IOR-style bandwidth of the shim against a FileChannel baseline, and JMH micro-benchmarks.",
        subcommands = {BenchCommand.Ior.class, BenchCommand.Jmh.class, BenchCommand.Matrix.class})
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
                    + "for IOR fixed stride, PIO-Bench nested strided, MPI-Tile-IO and mixed sizes. Options: --quick, --per-proc SIZE.")
    static final class Matrix implements Callable<Integer> {
        @Unmatched
        List<String> args = new ArrayList<>();

        @Override
        public Integer call() {
            try {
                io.pdla.bench.schemes.SchemeMatrix.main(args.toArray(String[]::new));
                return 0;
            } catch (IllegalArgumentException e) {
                System.err.println("pdla bench matrix: " + e.getMessage());
                return 2;
            }
        }
    }

    private static int bad(String message) {
        System.err.println("pdla bench ior: " + message);
        return 2;
    }
}
