package io.pdla.bench.schemes;

import io.pdla.size.ByteSize;
import io.pdla.access.IoOp;
import io.pdla.access.TraceRecord;
import io.pdla.bench.modelcheck.ModelVsSim;
import io.pdla.costmodel.ModelParameters;
import io.pdla.costmodel.Op;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.Analyzer;
import io.pdla.patterns.ReplicaSelection;
import io.pdla.patterns.TraceSource;
import io.pdla.patterns.db.PatternEntries;
import io.pdla.replicator.construct.LayoutPlanner;
import io.pdla.replicator.construct.Placement;
import io.pdla.replicator.construct.PlacementConfig;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.simpfs.layout.SimLayouts;
import io.pdla.simpfs.timing.SimResult;
import io.pdla.simpfs.timing.TimingEngine;
import io.pdla.storage.Layout.ServerClass;
import io.pdla.storage.Layout;

import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Compares the six replication schemes of issue 7 ({@link Scheme}) on one workload in sim-pfs virtual time.
 *
 * <p>Per phase (read, write) it runs the production path, with sim-pfs's timing engine in place of the stores: the
 * phase's trace is analysed, the analysis becomes pattern-database entries ({@link PatternEntries}),
 * {@link ReplicaSelection} picks the patterns that get replicas (the rule {@code pdla daemon --patterns} applies),
 * the replicator's {@link LayoutPlanner} places them (H-PDLA, Algorithm 1 for S-PDLA) and gives each its layout
 * ({@link LayoutPlanner#layoutOf}, the one the builder applies), sim-pfs resolves that layout as its driver does ({@link SimLayouts#resolve}),
 * and the trace is replayed through redirect's {@link io.pdla.redirect.ExtentRouter} ({@link Redirector}). The
 * replicas are assumed built (PDLA builds them between runs); only the redirected run is timed. PD (the default
 * layout) and NS-PDLA (every replica on the SServers, {@link LayoutPlanner#onSServers}) are comparison schemes the
 * daemon does not offer.
 */
public final class SchemeComparison {

    /** Settings of a comparison. {@code ssdBytesPerServer} is the SSD space Algorithm 1 may fill on each SServer. */
    public record Settings(SimPfsConfig config, ModelParameters params, double thresholdSeconds, long ssdBytesPerServer) {
        public Settings {
            if (config.hservers() < 1) throw new IllegalArgumentException("the comparison needs HServers, config has " + config.hservers());
            if (config.sservers() < 1) throw new IllegalArgumentException("S-ORIG, NS-PDLA and S-PDLA need SServers, config has " + config.sservers());
            if (ssdBytesPerServer < 0) throw new IllegalArgumentException("ssdBytesPerServer must be >= 0, was " + ssdBytesPerServer);
            if (!(thresholdSeconds >= 0)) throw new IllegalArgumentException("thresholdSeconds must be >= 0, was " + thresholdSeconds);
        }

        /** sim-pfs defaults (extent-lock counting off: counted, not timed), the cost model calibrated against sim-pfs. */
        public static Settings defaults() {
            SimPfsConfig c = SimPfsConfig.DEFAULT.toBuilder().extentLocks(false).build();
            return new Settings(c, calibrated(c), 0, 64L << 30);
        }

        public Settings withSsdBytesPerServer(long bytes) {
            return new Settings(config, params, thresholdSeconds, bytes);
        }
    }

    private static final Map<SimPfsConfig, ModelParameters> CALIBRATED = new java.util.concurrent.ConcurrentHashMap<>();

    /** Cost-model parameters fitted to sim-pfs's virtual-time probes (cached per configuration). */
    public static ModelParameters calibrated(SimPfsConfig config) {
        return CALIBRATED.computeIfAbsent(config, c -> ModelVsSim.calibrate(c, 1).parameters());
    }

    /** Where one scheme put one pattern: the production placement (null for PD) and the sim-pfs layout of its replica file. */
    public record Placed(KeyedPattern pattern, Placement placement, Layout layout, String why) {
    }

    /** One scheme's files (originals, then one replica file per placed pattern), redirector and placements for one phase. */
    public record Plan(Scheme scheme, List<Layout> files, Redirector redirector, List<Placed> placements) {
        /** "3 x 1-DV(ssd)"-style summary. */
        public String summary() {
            Map<String, Integer> n = new TreeMap<>();
            for (Placed p : placements) n.merge(describe(p.layout()), 1, Integer::sum);
            if (n.isEmpty()) return "-";
            StringBuilder b = new StringBuilder();
            n.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(v).append(" x ").append(k));
            return b.toString();
        }
    }

    /** One table row. */
    public record Row(Scheme scheme, double readMiBps, double writeMiBps, double readSeconds, double writeSeconds,
                      String readPlacement, String writePlacement) {
        public String name() {
            return scheme.label();
        }
    }

    /** The six rows of one workload. */
    public record Table(String workload, List<Row> rows, int readPatterns, int writePatterns) {
        public Row row(Scheme s) {
            return rows.stream().filter(r -> r.scheme() == s).findFirst().orElseThrow();
        }

        public String markdown() {
            StringBuilder b = new StringBuilder();
            b.append("**").append(workload).append("** (replicated patterns: read ").append(readPatterns)
                    .append(", write ").append(writePatterns).append(")\n\n");
            b.append("| scheme | read MiB/s | write MiB/s | read vs Original | write vs Original | replicas (read phase) |\n");
            b.append("|---|---|---|---|---|---|\n");
            Row o = row(Scheme.ORIGINAL);
            for (Row r : rows) {
                b.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %+.0f%% | %+.0f%% | %s |%n", r.name(), r.readMiBps(),
                        r.writeMiBps(), 100 * (r.readMiBps() / o.readMiBps() - 1), 100 * (r.writeMiBps() / o.writeMiBps() - 1),
                        r.readPlacement()));
            }
            return b.toString();
        }
    }

    /** The read and write phases of a workload as trace sources (same offsets, READ vs WRITE records). */
    public record WorkloadSpec(String name, TraceSource read, TraceSource write) {
    }

    private final Settings settings;
    private final boolean parkHeads;

    public SchemeComparison(Settings settings) {
        this(settings, false);
    }

    private SchemeComparison(Settings settings, boolean parkHeads) {
        this.settings = settings;
        this.parkHeads = parkHeads;
    }

    public Settings settings() {
        return settings;
    }

    public Table compare(WorkloadSpec w) {
        PhaseResult read = phase(w.name() + " read", w.read(), Op.READ);
        PhaseResult write = phase(w.name() + " write", w.write(), Op.WRITE);
        List<Row> rows = new ArrayList<>();
        for (Scheme s : Scheme.values()) {
            SimResult r = read.results().get(s), wr = write.results().get(s);
            rows.add(new Row(s, r.readBandwidthMiBps(), wr.writeBandwidthMiBps(), r.elapsedSeconds(), wr.elapsedSeconds(),
                    read.plans().get(s).summary(), write.plans().get(s).summary()));
        }
        return new Table(w.name(), rows, read.chosen().size(), write.chosen().size());
    }

    /** One phase: the patterns chosen, each scheme's plan and its virtual-time result. */
    public record PhaseResult(List<KeyedPattern> chosen, Map<Scheme, Plan> plans, Map<Scheme, SimResult> results) {
    }

    /** {@link #phase}'s results only. */
    public Map<Scheme, SimResult> runPhase(String name, TraceSource source, Op op) {
        return phase(name, source, op).results();
    }

    /** The patterns the daemon would replicate for this trace: analysis, pattern-database entries, {@link ReplicaSelection}. */
    public static List<KeyedPattern> chosen(TraceSource source) {
        return chosen(new Analyzer().analyze(source));
    }

    /** The patterns the daemon would replicate from an analysis already made: pattern-database entries, {@link ReplicaSelection}. */
    public static List<KeyedPattern> chosen(AnalysisReport report) {
        return ReplicaSelection.choose(PatternEntries.of(report)).chosen();
    }

    /**
     * Analyzes the phase's trace, plans every scheme and replays it. {@code op} names the phase; placement prices
     * patterns as the daemon does (for reads), whatever the phase.
     */
    public PhaseResult phase(String name, TraceSource source, Op op) {
        return phase(name, source, op, new Analyzer().analyze(source));
    }

    /**
     * {@link #phase(String, TraceSource, Op)} with the phase's analysis made by the caller, who also shows its
     * patterns ({@code pdla what-if}): the trace is analysed once, not once for the patterns and once for the schemes.
     */
    public PhaseResult phase(String name, TraceSource source, Op op, AnalysisReport analysis) {
        List<KeyedPattern> chosen = chosen(analysis);
        int ranks = ranks(name, source);
        Map<Scheme, SimResult> out = new LinkedHashMap<>();
        Map<Scheme, Plan> plans = new LinkedHashMap<>();
        for (Scheme s : Scheme.values()) {
            Plan plan = plan(s, chosen, source);
            plans.put(s, plan);
            RemappedWorkload wl = new RemappedWorkload(name + " " + s.label(), ranks, source::records, plan.files(), plan.redirector());
            out.put(s, engine().run(wl));
        }
        return new PhaseResult(chosen, plans, out);
    }

    /**
     * The same comparison with every engine's heads parked in the middle of the disks, away from every file of the
     * run. A new engine's heads rest on address 0, where the original file lies: the Original's first request on
     * each HServer costs no positioning and starts the drive's read-ahead, which no replica file gets. For a phase
     * of a few MiB that is most of the Original's time (RESULTS-schemes.md, "Small files, few ranks"); {@code pdla
     * what-if} shows this variant's figures where they differ. From the middle, reaching a file at address x costs
     * within 0.7 ms of the mean over a head anywhere on the disk, for x in the first 40 GB, where a run's files lie
     * (sim-pfs's fileSpacingGB). The matrix keeps the engine's own start: its pinned figures are measured from it,
     * and some of its rows (the ranks' convoys, RESULTS-schemes.md) depend on it.
     */
    public SchemeComparison headsParked() {
        return new SchemeComparison(settings, true);
    }

    /** Whether this comparison's engines start with their heads parked mid-disk ({@link #headsParked()}). */
    public boolean parksHeads() {
        return parkHeads;
    }

    private TimingEngine engine() {
        TimingEngine e = new TimingEngine(settings.config());
        if (parkHeads) e.parkHeads((long) (settings.config().hdd().capacityBytes() / 2));
        return e;
    }

    /** One scheme's run of a phase whose replicated patterns are {@code chosen}: {@link #phase}'s work for one scheme. */
    public SimResult run(Scheme scheme, List<KeyedPattern> chosen, TraceSource source, String name) {
        int ranks = ranks(name, source);
        Plan plan = plan(scheme, chosen, source);
        return engine().run(new RemappedWorkload(name + " " + scheme.label(), ranks, source::records, plan.files(), plan.redirector()));
    }

    private static int ranks(String name, TraceSource source) {
        int ranks = source.ranks().size();
        if (ranks == 0) throw new IllegalArgumentException("workload " + name + " has no ranks");
        if (source.ranks().first() != 0 || source.ranks().last() != ranks - 1) {
            throw new IllegalArgumentException("workload " + name + " must have ranks 0.." + (ranks - 1) + ", has " + source.ranks());
        }
        return ranks;
    }

    /** What the replicator is configured with on this sim-pfs: its servers, the SSD space, the default stripe. */
    public PlacementConfig placementConfig() {
        SimPfsConfig c = settings.config();
        return new PlacementConfig(c.hservers(), c.sservers(), settings.ssdBytesPerServer(), settings.thresholdSeconds(),
                settings.params(), c.network().ranksPerClientNode(), c.defaultLayoutParsed().stripe());
    }

    /** The files (originals, then replica files) and the redirection of one scheme. */
    public Plan plan(Scheme scheme, List<KeyedPattern> chosen, TraceSource source) {
        SimPfsConfig c = settings.config();
        Layout original = c.defaultLayoutParsed();
        TreeSet<Integer> fileIds = new TreeSet<>(source.job().files().keySet());
        List<Layout> files = new ArrayList<>();
        Map<Integer, Integer> originalIndex = new TreeMap<>();
        Map<Integer, URI> uris = new TreeMap<>();
        for (int id : fileIds) {
            originalIndex.put(id, files.size());
            uris.put(id, source.job().uri(id));
            files.add(scheme == Scheme.S_ORIG ? SimLayouts.withSpace(original, ServerClass.SSD) : original);
        }
        List<Placed> placements = new ArrayList<>();
        if (scheme != Scheme.ORIGINAL && scheme != Scheme.S_ORIG) {
            LayoutPlanner planner = new LayoutPlanner(placementConfig());
            Map<PatternKey, Placement> algorithm1 = scheme == Scheme.S_PDLA ? planner.plan(chosen, 0, p -> 0) : Map.of();
            for (KeyedPattern p : chosen) {
                Placement pl = switch (scheme) {
                    case PD -> null;
                    case H_PDLA -> planner.onHServers(p, null, 0);
                    case NS_PDLA -> planner.onSServers(p, null, 0);
                    case S_PDLA -> algorithm1.get(p.key());
                    default -> throw new IllegalArgumentException("scheme " + scheme + " has no replicas");
                };
                if (pl == null) {
                    placements.add(new Placed(p, null, original, "default layout"));
                } else {
                    Layout l = SimLayouts.resolve(planner.layoutOf(p, pl), original, "replica of " + p.key().id());
                    placements.add(new Placed(p, pl, l, pl.describe()));
                }
            }
        }
        List<Redirector.Replica> replicas = new ArrayList<>();
        for (Placed p : placements) {
            replicas.add(new Redirector.Replica(p.pattern(), files.size()));
            files.add(p.layout());
        }
        return new Plan(scheme, files, new Redirector(source.job().app(), uris, originalIndex, replicas), placements);
    }

    /** A layout as the tables print it: "1-DH 64k hdd", "1-DV ssd", "2-D group 4 64k hdd", "hybrid sh=.. ss=..". */
    public static String describe(Layout l) {
        String space = l.space().label();
        switch (l.distribution()) {
            case ONE_DH: return "1-DH " + ByteSize.formatIorStyle(l.stripe()) + " " + space;
            case ONE_DV: return "1-DV " + space;
            case TWO_D: return "2-D group " + l.groupSize() + " " + ByteSize.formatIorStyle(l.stripe()) + " " + space;
            case HYBRID: return "hybrid sh=" + ByteSize.formatIorStyle(l.hddStripe()) + " ss=" + ByteSize.formatIorStyle(l.ssdStripe());
            default: return l.toString();
        }
    }




    /** The same records with READ turned into {@code op} (the write phase writes the same bytes the same way). */
    public static Iterator<TraceRecord> withOp(Iterator<TraceRecord> it, IoOp op) {
        return new Iterator<>() {
            public boolean hasNext() {
                return it.hasNext();
            }

            public TraceRecord next() {
                TraceRecord r = it.next();
                if (!r.op().movesData()) return r;
                return new TraceRecord(r.rank(), r.fileId(), op, r.positioning(), r.collective(), r.offset(), r.length(),
                        r.startNanos(), r.endNanos());
            }
        };
    }
}
