package io.pdla.cli;

import io.pdla.simpfs.config.ConfigException;
import io.pdla.simpfs.run.RunReport;
import io.pdla.simpfs.run.SimOptions;
import io.pdla.simpfs.run.SimRunner;
import io.pdla.size.ByteSizeConverter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code pdla sim}: replays an IOR-style workload on sim-pfs's timing model and prints virtual-time
 * bandwidths (issue 3). The logic lives in {@link SimRunner}; this class only maps options.
 */
@Command(name = "sim", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Simulate a workload on sim-pfs (HDD and SSD servers, deterministic virtual time).",
                "IOR letters mean what they mean in IOR. Sizes: bytes or a binary unit k, m, g, t (4k = 4KiB = 4096; see the README)."})
public final class SimCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", description = "sim-pfs config (.json or .properties); default: 8 HServers, 4 SServers, 64 KiB stripes")
    private Path config;

    @Option(names = "--workload", defaultValue = "ior", description = "ior, random or nested (default: ${DEFAULT-VALUE})")
    private String workload;

    @Option(names = "-np", required = true, paramLabel = "N", description = "number of ranks")
    private int ranks;

    @Option(names = "-b", defaultValue = "1m", paramLabel = "SIZE", converter = ByteSizeConverter.class,
            description = "contiguous bytes per rank per segment (default: ${DEFAULT-VALUE})")
    private long block;

    @Option(names = "-t", defaultValue = "256k", paramLabel = "SIZE", converter = ByteSizeConverter.class,
            description = "bytes per I/O call (default: ${DEFAULT-VALUE})")
    private long transfer;

    @Option(names = "-s", defaultValue = "1", paramLabel = "N", description = "segments (default: ${DEFAULT-VALUE})")
    private int segments;

    @Option(names = "-w", description = "write phase (with neither -w nor -r: both)")
    private boolean write;

    @Option(names = "-r", description = "read phase")
    private boolean read;

    @Option(names = "-F", description = "file per process")
    private boolean filePerProcess;

    @Option(names = "--layout", defaultValue = "1dh", paramLabel = "1dh|1dv|2d:GROUP",
            description = "distribution, optionally with ,stripe=..,region=..,sh=..,ss=.. (default: ${DEFAULT-VALUE})")
    private String layout;

    @Option(names = "--space", defaultValue = "hdd", paramLabel = "hdd|ssd|hybrid", description = "server class (default: ${DEFAULT-VALUE})")
    private String space;

    @Option(names = "--seed", defaultValue = "1", description = "seed of random workloads (default: ${DEFAULT-VALUE})")
    private long seed;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON (readBandwidthMiBps, writeBandwidthMiBps, phases)")
    private Path json;

    @Override
    public Integer call() throws IOException {
        RunReport report;
        try {
            SimOptions options = new SimOptions(config, workload, ranks, block, transfer,
                    segments, write, read, filePerProcess, layout, space, seed);
            report = SimRunner.run(options);
        } catch (ConfigException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        PrintWriter out = spec.commandLine().getOut();
        SimRunner.print(report, out);
        out.flush();
        if (json != null) SimRunner.writeJson(report, json);
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new SimCommand()).execute(args));
    }
}
