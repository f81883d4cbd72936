package io.pdla.cli;

import io.pdla.costmodel.AccessPattern;
import io.pdla.size.ByteSize;
import io.pdla.size.ByteSizeConverter;
import io.pdla.costmodel.CostParts;
import io.pdla.costmodel.DeviceParameters;
import io.pdla.costmodel.LayoutChoice;
import io.pdla.costmodel.LayoutCostModel;
import io.pdla.costmodel.ModelParameters;
import io.pdla.costmodel.Op;
import io.pdla.costmodel.TwoDConnectionTerm;
import io.pdla.costmodel.benefit.BenefitCalculator;
import io.pdla.costmodel.benefit.PatternBenefit;
import io.pdla.costmodel.benefit.ReplicaSpace;
import io.pdla.costmodel.calibration.CalibrationResult;
import io.pdla.costmodel.calibration.Calibrator;
import io.pdla.costmodel.calibration.LinearFit;
import io.pdla.costmodel.calibration.ProbeObservation;
import io.pdla.costmodel.calibration.ProbePlan;
import io.pdla.costmodel.calibration.ProbeRunner;
import io.pdla.costmodel.calibration.ProbeTarget;
import io.pdla.costmodel.calibration.SyntheticProbes;
import io.pdla.costmodel.calibration.UnphysicalFitException;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;

/**
 * {@code pdla cost}: the modelled time of every layout for p processes on n servers, and the cheapest one
 * (issue 6). The last line is always {@code choice: 1-DH}, {@code choice: 1-DV} or {@code choice: 2-D (g=G)},
 * so scripts can {@code tail -1}. With {@code --sservers} the SServer layouts and the hybrid 1-DH are priced
 * too and the choice is the layout of the replica space with the largest benefit (S-PDLA, S1 4.3).
 * {@code pdla cost calibrate} fits the parameters from probes.
 */
@Command(name = "cost", mixinStandardHelpOptions = true, sortOptions = false,
        subcommands = CostCommand.Calibrate.class,
        description = {"Modelled cost of the 1-DH, 1-DV and 2-D layouts (HDD, SSD and hybrid servers) "
                + "and the layout with the minimum cost.",
            "Sizes: bytes or a binary unit k, m, g, t (4k = 4KiB = 4096; see the README)."})
public final class CostCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    // not picocli-required: a required option here would also be demanded by 'cost calibrate'
    @Option(names = "-np", paramLabel = "P", description = "number of I/O processes p")
    private Integer procs;

    @Option(names = "--hservers", paramLabel = "N", description = "number of HDD servers (HServers) n")
    private Integer servers;

    @Option(names = "--sservers", paramLabel = "M", defaultValue = "0",
            description = "number of SSD servers (SServers); 0 = HDD only (default: ${DEFAULT-VALUE})")
    private int ssdServers;

    @Option(names = "--processes-per-node", paramLabel = "m", defaultValue = "1",
            description = "processes per client node m (default: ${DEFAULT-VALUE})")
    private int perNode;

    @Option(names = "--size", paramLabel = "S", converter = ByteSizeConverter.class,
            description = "request size of each process")
    private Long size;

    @Option(names = "--op", paramLabel = "read|write", defaultValue = "read", converter = OpConverter.class,
            description = "operation (matters for SSDs only; default: ${DEFAULT-VALUE})")
    private Op op;

    @Option(names = "--params", paramLabel = "FILE",
            description = "model parameters (properties written by 'pdla cost calibrate --save'); default: built-in")
    private Path params;

    @Option(names = "--2d-connections", paramLabel = "derived|printed", defaultValue = "derived",
            converter = TermConverter.class,
            description = "reading of the 2-D connection term (see cost-model README; default: ${DEFAULT-VALUE})")
    private TwoDConnectionTerm term;

    @Override
    public Integer call() throws IOException {
        requireOption(procs, "-np");
        requireOption(servers, "--hservers");
        requireOption(size, "--size");
        PrintWriter out = spec.commandLine().getOut();
        ModelParameters model = loadParameters(params);
        AccessPattern pattern;
        LayoutCostModel hdd;
        try {
            pattern = AccessPattern.of(procs, perNode, size, 1, op);
            hdd = LayoutCostModel.hdd(model, servers, term);
            if (ssdServers < 0) {
                throw new IllegalArgumentException("SServers (--sservers) must be >= 0, was " + ssdServers);
            }
        } catch (IllegalArgumentException ex) {
            throw new ParameterException(spec.commandLine(), ex.getMessage(), ex);
        }
        out.printf(Locale.ROOT, "p=%d n=%d%s m=%d s=%s op=%s%n", procs, servers,
                ssdServers > 0 ? " sservers=" + ssdServers : "", perNode, ByteSize.format(size),
                op.name().toLowerCase(Locale.ROOT));
        out.printf(Locale.ROOT, "%-18s %-12s %12s %12s %12s%n", "servers", "layout", "network_s", "storage_s",
                "total_s");
        printRows(out, "HServers", hdd, pattern);
        LayoutChoice choice = hdd.best(pattern);
        if (ssdServers > 0) {
            printRows(out, "SServers", LayoutCostModel.ssd(model, ssdServers, term), pattern);
            PatternBenefit benefit = new BenefitCalculator(model, servers, ssdServers, term).evaluate(pattern);
            out.printf(Locale.ROOT, "%-18s %-12s %12s %12s %12.6f   (s_h=%.0f B, s_s=%.0f B)%n",
                    ReplicaSpace.HSERVERS_PLUS_SSERVERS.label(), "1-DH", "-", "-", benefit.hybridSeconds(),
                    benefit.hServerStripe(), benefit.sServerStripe());
            out.printf(Locale.ROOT, "benefit: B_S=%.6f s, B_H+S=%.6f s%n", benefit.benefitOnSServers(),
                    benefit.benefitOnHybrid());
            out.printf("space: %s%n", benefit.bestSpace().label());
            choice = benefit.bestLayout();
        }
        out.printf("choice: %s%n", choice.describe());
        out.flush();
        return 0;
    }

    private static void printRows(PrintWriter out, String label, LayoutCostModel model, AccessPattern pattern) {
        for (LayoutCostModel.Candidate c : model.candidates()) {
            CostParts parts = model.patternParts(c.layout(), c.groups(), pattern);
            String name = new LayoutChoice(c.layout(), c.groups(), 0).describe();
            out.printf(Locale.ROOT, "%-18s %-12s %12.6f %12.6f %12.6f%n", label, name, parts.networkSeconds(),
                    parts.storageSeconds(), parts.totalSeconds());
        }
    }

    private void requireOption(Object value, String name) {
        if (value == null) {
            throw new ParameterException(spec.commandLine(), "Missing required option: '" + name + "'");
        }
    }

    static ModelParameters loadParameters(Path file) throws IOException {
        if (file == null) {
            return ModelParameters.defaults();
        }
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            props.load(in);
        }
        return ModelParameters.fromProperties(props);
    }

    /**
     * {@code pdla cost calibrate}: fit e, v, a_h, b_h and the SSD read/write pairs by least squares and print the
     * fit with its residuals. {@code --synthetic} probes the model itself (with noise), which checks the fitting
     * end to end; {@code --uri} times real requests through any installed storage driver.
     */
    @Command(name = "calibrate", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Fit the cost-model parameters from timed probes (sizes x concurrency) and print the "
                    + "fit with its residuals.")
    static final class Calibrate implements Callable<Integer> {

        @Spec
        private CommandSpec spec;

        @ArgGroup(exclusive = true, multiplicity = "1")
        private Source source;

        static final class Source {
            @Option(names = "--uri", paramLabel = "URI", description = "a scratch file (path or URI of any installed driver) to probe; created and deleted")
            String uri;

            @Option(names = "--synthetic", description = "probe the model itself, with noise")
            boolean synthetic;
        }

        @Option(names = "--device", defaultValue = "hdd", description = "with --uri: which server class the probed storage stands for, hdd or ssd (default: ${DEFAULT-VALUE})")
        private String device;

        @Option(names = "--noise", paramLabel = "FRACTION", defaultValue = "0.03",
                description = "relative noise of synthetic probes (default: ${DEFAULT-VALUE})")
        private double noise;

        @Option(names = "--seed", defaultValue = "1", description = "seed of synthetic noise (default: ${DEFAULT-VALUE})")
        private long seed;

        @Option(names = "--params", paramLabel = "FILE",
                description = "true parameters of the synthetic machine; default: built-in")
        private Path params;

        @Option(names = "--residuals", description = "print every probe with its residual")
        private boolean allResiduals;

        @Option(names = "--save", paramLabel = "FILE", description = "write the fitted parameters as properties")
        private Path save;

        @Option(names = "--hint", paramLabel = "KEY=VALUE", description = "with --uri: a hint for the scratch file's open, "
                + "repeatable (posix_direct_io=true probes the device without the page cache)")
        private java.util.Map<String, String> hints = new java.util.LinkedHashMap<>();

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            if (source.uri != null) return calibrateUri(out, err);
            if (!(noise >= 0 && noise < 1)) {
                throw new ParameterException(spec.commandLine(), "--noise must be in [0, 1), was " + noise);
            }
            ModelParameters truth = loadParameters(params);
            ProbePlan plan = ProbePlan.defaults();
            CalibrationResult result;
            try {
                result = new Calibrator().calibrate(SyntheticProbes.all(truth, noise, seed), plan,
                        ModelParameters.defaults());
            } catch (UnphysicalFitException ex) {
                err.println("calibration failed: " + ex.getMessage());
                err.flush();
                return 1;
            }
            out.printf(Locale.ROOT, "synthetic probes: noise=%.3f seed=%d, %d probes per target (sizes %s, "
                    + "concurrency %s, %d repetitions)%n", noise, seed, plan.probeCount(),
                    plan.sizes().stream().map(ByteSize::format).toList(), plan.concurrencies(), plan.repetitions());
            out.printf(Locale.ROOT, "%-10s %14s %14s %14s %14s %9s %9s%n", "target", "startup_us", "true_us",
                    "MB/s", "true_MB/s", "rms_res%", "max_res%");
            for (ProbeTarget t : ProbeTarget.values()) {
                LinearFit fit = result.fits().get(t);
                DeviceParameters want = Calibrator.pairOf(truth, t);
                out.printf(Locale.ROOT, "%-10s %14.3f %14.3f %14.2f %14.2f %9.2f %9.2f%n", t.label(),
                        fit.startupSeconds() * 1e6, want.startupSeconds() * 1e6, 1e-6 / fit.secondsPerByte(),
                        1e-6 / want.secondsPerByte(), 100 * fit.rmsRelativeResidual(),
                        100 * fit.maxRelativeResidual());
            }
            if (allResiduals) {
                out.printf("%-10s %10s %4s %14s %14s%n", "target", "size", "c", "observed_s", "residual_s");
                for (ProbeTarget t : ProbeTarget.values()) {
                    LinearFit fit = result.fits().get(t);
                    for (int i = 0; i < fit.observations().size(); i++) {
                        ProbeObservation o = fit.observations().get(i);
                        out.printf(Locale.ROOT, "%-10s %10s %4d %14.9f %14.9f%n", t.label(), ByteSize.format(o.size()),
                                o.concurrency(), o.seconds(), fit.residualSeconds().get(i));
                    }
                }
            }
            out.println("fitted: " + result.parameters().describe());
            if (save != null) {
                try (Writer w = Files.newBufferedWriter(save)) {
                    result.parameters().toProperties().store(w, "pdla cost calibrate --synthetic");
                }
                out.println("saved: " + save);
            }
            out.flush();
            return 0;
        }

        /** Probes a scratch file through its storage driver and prints the fit of the probed pairs. */
        private int calibrateUri(PrintWriter out, PrintWriter err) throws IOException {
            if (!device.equals("hdd") && !device.equals("ssd")) {
                throw new ParameterException(spec.commandLine(), "--device must be hdd or ssd, was " + device);
            }
            ProbePlan plan = ProbePlan.defaults();
            long maxSize = plan.sizes().stream().mapToLong(Long::longValue).max().orElseThrow();
            int maxC = plan.concurrencies().stream().mapToInt(Integer::intValue).max().orElseThrow();
            ModelParameters base = loadParameters(params);
            CalibrationResult result;
            try (DriverProbes probes = new DriverProbes(source.uri, maxSize, maxC, hints)) {
                result = new Calibrator().calibrate(probes.runners(device.equals("ssd")), plan, base);
            } catch (IllegalArgumentException ex) {
                err.println("calibration against " + source.uri + " failed: " + ex.getMessage());
                err.flush();
                return 2;
            } catch (UnphysicalFitException ex) {
                err.println("calibration failed: " + ex.getMessage());
                err.flush();
                return 1;
            }
            out.printf(Locale.ROOT, "probes through %s: %d per target (sizes %s, concurrency %s, %d repetitions)%n",
                    source.uri, plan.probeCount(), plan.sizes().stream().map(ByteSize::format).toList(),
                    plan.concurrencies(), plan.repetitions());
            out.printf(Locale.ROOT, "%-10s %14s %14s %9s %9s%n", "target", "startup_us", "MB/s", "rms_res%", "max_res%");
            for (Map.Entry<ProbeTarget, LinearFit> e : result.fits().entrySet()) {
                LinearFit fit = e.getValue();
                out.printf(Locale.ROOT, "%-10s %14.3f %14.2f %9.2f %9.2f%n", e.getKey().label(), fit.startupSeconds() * 1e6,
                        1e-6 / fit.secondsPerByte(), 100 * fit.rmsRelativeResidual(), 100 * fit.maxRelativeResidual());
                if (allResiduals) {
                    for (int i = 0; i < fit.observations().size(); i++) {
                        ProbeObservation o = fit.observations().get(i);
                        out.printf(Locale.ROOT, "  %10s %4d %14.9f %14.9f%n", ByteSize.format(o.size()), o.concurrency(),
                                o.seconds(), fit.residualSeconds().get(i));
                    }
                }
            }
            out.println("fitted: " + result.parameters().describe());
            if (save != null) {
                try (Writer w = Files.newBufferedWriter(save)) {
                    result.parameters().toProperties().store(w, "pdla cost calibrate --uri " + source.uri);
                }
                out.println("saved: " + save);
            }
            out.flush();
            return 0;
        }
    }

    static final class OpConverter implements ITypeConverter<Op> {
        @Override
        public Op convert(String value) {
            try {
                return Op.parse(value);
            } catch (IllegalArgumentException ex) {
                throw new CommandLine.TypeConversionException(ex.getMessage());
            }
        }
    }

    static final class TermConverter implements ITypeConverter<TwoDConnectionTerm> {
        @Override
        public TwoDConnectionTerm convert(String value) {
            try {
                return TwoDConnectionTerm.valueOf(value.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException ex) {
                throw new CommandLine.TypeConversionException("must be derived or printed, was " + value);
            }
        }
    }

    /** Lets the command run on its own until the lead registers it under {@code pdla}. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new CostCommand()).execute(args));
    }
}
