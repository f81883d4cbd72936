package io.pdla.simpfs.run;

import io.pdla.simpfs.config.ConfigException;
import io.pdla.simpfs.config.ConfigFiles;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.simpfs.layout.SimLayouts;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.ServerClass;
import io.pdla.simpfs.timing.ServerStats;
import io.pdla.simpfs.timing.SimResult;
import io.pdla.simpfs.timing.TimingEngine;
import io.pdla.simpfs.timing.Workload;
import io.pdla.simpfs.workload.IorWorkload;
import io.pdla.simpfs.workload.NestedStridedWorkload;
import io.pdla.simpfs.workload.RandomWorkload;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The logic behind {@code pdla sim}: builds the configuration, layout and workload from {@link SimOptions},
 * replays the write phase and then the read phase on one engine, and reports. Workloads: {@code ior};
 * {@code random} (each rank {@code s*b/t} transfers of {@code t} bytes at random aligned offsets of a
 * {@code np*b*s}-byte file); {@code nested} (PIO-Bench nested strided, {@code b/t} inner by {@code s} outer).
 */
public final class SimRunner {
    private SimRunner() {
    }

    public static SimPfsConfig config(SimOptions o) {
        return o.config() == null ? SimPfsConfig.DEFAULT : ConfigFiles.load(o.config());
    }

    /** The layout the options ask for; 1-DV and 2-D regions default to one IOR block (each rank's region). */
    public static Layout layout(SimOptions o, SimPfsConfig config) {
        Layout defaults = config.defaultLayoutParsed();
        ServerClass space = switch (o.space().toLowerCase(Locale.ROOT)) {
            case "hdd" -> ServerClass.HDD;
            case "ssd" -> ServerClass.SSD;
            case "hybrid", "both" -> ServerClass.BOTH;
            default -> throw new ConfigException("--space '" + o.space() + "' is not one of hdd, ssd, hybrid");
        };
        Layout base = SimLayouts.withRegion(SimLayouts.withSpace(defaults, space), o.blockSize());
        return SimLayouts.parse(o.layout(), base, "--layout " + o.layout());
    }

    public static RunReport run(SimOptions o) {
        if (o.ranks() < 1) throw new ConfigException("-np must be >= 1, was " + o.ranks());
        SimPfsConfig config = config(o);
        Layout layout = layout(o, config);
        io.pdla.simpfs.layout.StripeMap.of(layout, config);   // fail early, naming the layout, if servers cannot hold it
        boolean both = !o.write() && !o.read();
        TimingEngine engine = new TimingEngine(config);
        List<SimResult> phases = new ArrayList<>();
        double writeBw = 0, readBw = 0;
        if (o.write() || both) {
            SimResult r = engine.run(workload(o, layout, true));
            phases.add(r);
            writeBw = r.writeBandwidthMiBps();
        }
        if (o.read() || both) {
            SimResult r = engine.run(workload(o, layout, false));
            phases.add(r);
            readBw = r.readBandwidthMiBps();
        }
        return new RunReport(phases.get(0).workload(), layout.toString(), config.hservers(), config.sservers(), writeBw, readBw, phases);
    }

    static Workload workload(SimOptions o, Layout layout, boolean write) {
        return switch (o.workload().toLowerCase(Locale.ROOT)) {
            case "ior" -> new IorWorkload(o.ranks(), o.blockSize(), o.transferSize(), o.segments(), o.filePerProcess(), write, false, o.seed(), layout);
            case "random" -> {
                long perRank = o.blockSize() / o.transferSize() * o.segments();
                if (perRank > Integer.MAX_VALUE) throw new ConfigException("random: too many transfers per rank: " + perRank);
                yield new RandomWorkload(o.ranks(), (long) o.ranks() * o.blockSize() * o.segments(), o.transferSize(), (int) perRank, write, o.seed(), layout);
            }
            case "nested" -> {
                if (o.blockSize() % o.transferSize() != 0) throw new ConfigException("nested: -b must be a multiple of -t");
                yield NestedStridedWorkload.of(o.ranks(), o.transferSize(), (int) (o.blockSize() / o.transferSize()), o.segments(), write, layout);
            }
            default -> throw new ConfigException("--workload '" + o.workload() + "' is not one of ior, random, nested");
        };
    }

    public static void writeJson(RunReport report, Path file) throws IOException {
        ConfigFiles.JSON.writeValue(file.toFile(), report);
    }

    public static void print(RunReport report, PrintStream out) {
        java.io.PrintWriter w = new java.io.PrintWriter(out, true);
        print(report, w);
        w.flush();
    }

    public static void print(RunReport report, java.io.PrintWriter out) {
        out.printf(Locale.ROOT, "sim-pfs: %d HServers + %d SServers, layout %s%n", report.hservers(), report.sservers(), report.layout());
        for (SimResult r : report.phases()) {
            out.printf(Locale.ROOT, "%s%n", r.workload());
            out.printf(Locale.ROOT, "  elapsed %.4f s virtual, %d requests, %d sub-requests, %d lock conflicts%n",
                    r.elapsedSeconds(), r.requests(), r.subRequests(), r.lockConflicts());
            if (r.bytesWritten() > 0) out.printf(Locale.ROOT, "  write bandwidth %.2f MiB/s%n", r.writeBandwidthMiBps());
            if (r.bytesRead() > 0) out.printf(Locale.ROOT, "  read bandwidth  %.2f MiB/s%n", r.readBandwidthMiBps());
            double min = r.rankCompletionSeconds().stream().mapToDouble(Double::doubleValue).min().orElse(0);
            out.printf(Locale.ROOT, "  rank completion %.4f .. %.4f s%n", min, r.maxRankSeconds());
            out.printf(Locale.ROOT, "  per server per call (%d calls): at most %d lock conflicts, at most %d clients (mean %.2f)%n",
                    r.calls(), r.maxLockConflictsPerServerPerCall(), r.maxClientsPerServerPerCall(), r.meanClientsPerServerPerCall());
            out.printf(Locale.ROOT, "  %-6s %-4s %10s %8s %6s %8s %10s %12s %8s %8s%n", "server", "kind", "sub-req", "util", "maxQ", "meanQ",
                    "seeks", "seek MiB", "locks", "clients");
            for (ServerStats s : r.servers()) {
                if (s.subRequests() == 0) continue;
                out.printf(Locale.ROOT, "  %-6d %-4s %10d %7.1f%% %6d %8.2f %10d %12.1f %8d %8d%n", s.server(), s.kind(), s.subRequests(),
                        100 * s.utilization(), s.maxQueue(), s.meanQueue(), s.seeks(), s.seekDistanceBytes() / 1048576.0,
                        s.lockConflicts(), s.maxClientsPerCall());
            }
        }
        out.printf(Locale.ROOT, "write %.2f MiB/s, read %.2f MiB/s%n", report.writeBandwidthMiBps(), report.readBandwidthMiBps());
    }
}
