package io.pdla.bench.schemes;

import io.pdla.access.IoOp;
import io.pdla.access.TraceRecord;
import io.pdla.bench.modelcheck.ModelVsSim;
import io.pdla.costmodel.AccessPattern;
import io.pdla.costmodel.LayoutChoice;
import io.pdla.costmodel.LayoutCostModel;
import io.pdla.costmodel.ModelParameters;
import io.pdla.costmodel.Op;
import io.pdla.costmodel.benefit.BenefitCalculator;
import io.pdla.costmodel.benefit.CriticalPatternEntry;
import io.pdla.costmodel.benefit.CriticalPatternRule;
import io.pdla.costmodel.benefit.ReplicaPlan;
import io.pdla.costmodel.benefit.ReplicaSpace;
import io.pdla.costmodel.benefit.SsdReplicaPlanner;
import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.Analyzer;
import io.pdla.patterns.TraceSource;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.simpfs.layout.Layout;
import io.pdla.simpfs.layout.ServerClass;
import io.pdla.simpfs.timing.SimResult;
import io.pdla.simpfs.timing.TimingEngine;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Compares the six replication schemes of issue 7 ({@link Scheme}) on one workload in sim-pfs virtual time.
 *
 * <p>Per phase (read, write): the phase's trace is analyzed, {@link PatternSelection} picks the patterns that get
 * replicas, each scheme places them ({@link #plan}), and the trace is replayed through a {@link Redirector} by
 * the {@link TimingEngine}. The replicas are assumed built (PDLA builds them between runs); only the redirected
 * run is timed.
 *
 * <p>Cost-model inputs of a pattern [R]: p = the ranks that run concurrently (all ranks of the job for a local
 * pattern, the members for a global one), m = the configured ranks per client node, s = the pattern's mean request
 * size, rounds = requests / p rounded up. The model's 2-D group COUNT g becomes sim-pfs's group SIZE n/g; strips
 * are s / (servers used), as the model assumes; a replica's region (1-DV, 2-D) is one rank's share of it.
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

    /** Where one scheme put one pattern. */
    public record Placement(PatternSelection.Chosen pattern, Layout layout, String why) {
    }

    /** One scheme's replica files, redirector and placements for one phase. */
    public record Plan(Scheme scheme, List<Layout> files, Redirector redirector, List<Placement> placements) {
        /** "3 x 1-DV(ssd)"-style summary. */
        public String summary() {
            Map<String, Integer> n = new TreeMap<>();
            for (Placement p : placements) n.merge(describe(p.layout()), 1, Integer::sum);
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

    public SchemeComparison(Settings settings) {
        this.settings = settings;
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
    public record PhaseResult(List<PatternSelection.Chosen> chosen, Map<Scheme, Plan> plans, Map<Scheme, SimResult> results) {
    }

    /** {@link #phase}'s results only. */
    public Map<Scheme, SimResult> runPhase(String name, TraceSource source, Op op) {
        return phase(name, source, op).results();
    }

    /** Analyzes the phase's trace, plans every scheme and replays it. */
    public PhaseResult phase(String name, TraceSource source, Op op) {
        AnalysisReport report = new Analyzer().analyze(source);
        List<PatternSelection.Chosen> chosen = PatternSelection.choose(report);
        int ranks = source.ranks().size();
        if (ranks == 0) throw new IllegalArgumentException("workload " + name + " has no ranks");
        if (source.ranks().first() != 0 || source.ranks().last() != ranks - 1) {
            throw new IllegalArgumentException("workload " + name + " must have ranks 0.." + (ranks - 1) + ", has " + source.ranks());
        }
        TreeSet<Integer> fileIds = new TreeSet<>(source.job().files().keySet());
        for (PatternSelection.Chosen c : chosen) fileIds.add(c.fileId());
        Map<Scheme, SimResult> out = new LinkedHashMap<>();
        Map<Scheme, Plan> plans = new LinkedHashMap<>();
        for (Scheme s : Scheme.values()) {
            Plan plan = plan(s, chosen, fileIds, ranks, op);
            plans.put(s, plan);
            RemappedWorkload wl = new RemappedWorkload(name + " " + s.label(), ranks, source::records, plan.files(), plan.redirector());
            out.put(s, new TimingEngine(settings.config()).run(wl));
        }
        return new PhaseResult(chosen, plans, out);
    }

    /** The files (originals, then replica files) and the redirection of one scheme. */
    public Plan plan(Scheme scheme, List<PatternSelection.Chosen> chosen, TreeSet<Integer> fileIds, int ranks, Op op) {
        SimPfsConfig c = settings.config();
        Layout original = c.defaultLayoutParsed();
        List<Layout> files = new ArrayList<>();
        Map<Integer, Integer> originalIndex = new TreeMap<>();
        for (int id : fileIds) {
            originalIndex.put(id, files.size());
            files.add(scheme == Scheme.S_ORIG ? original.withSpace(ServerClass.SSD) : original);
        }
        List<Placement> placements = new ArrayList<>();
        if (scheme != Scheme.ORIGINAL && scheme != Scheme.S_ORIG) {
            Map<String, CriticalPatternEntry> placedCritical = scheme == Scheme.S_PDLA ? algorithm1(chosen, ranks, op) : Map.of();
            for (PatternSelection.Chosen p : chosen) placements.add(place(scheme, p, ranks, op, placedCritical));
        }
        // replica files: one per (original file, global/local, layout); patterns appended one region apart
        Map<String, List<Placement>> groups = new LinkedHashMap<>();
        for (Placement p : placements) {
            groups.computeIfAbsent(p.pattern().fileId() + "|" + p.pattern().global() + "|" + p.layout().spec(), k -> new ArrayList<>()).add(p);
        }
        Map<Integer, List<ReplicaTarget>> byRank = new TreeMap<>();
        for (List<Placement> g : groups.values()) {
            long slot = 0;
            for (Placement p : g) slot = Math.max(slot, roundUp(p.pattern().geometry().totalBytes(), 1 << 20));
            int index = files.size();
            files.add(g.get(0).layout());
            for (int i = 0; i < g.size(); i++) {
                Placement p = g.get(i);
                ReplicaTarget t = new ReplicaTarget(p.pattern().fileId(), p.pattern().geometry(), index, i * slot, p.pattern().key());
                for (int r : p.pattern().ranks()) byRank.computeIfAbsent(r, k -> new ArrayList<>()).add(t);
            }
        }
        return new Plan(scheme, files, new Redirector(byRank, originalIndex), placements);
    }

    /** The cost model's view of a pattern (see the class comment). */
    AccessPattern accessPattern(PatternSelection.Chosen p, int ranks, Op op) {
        int procs = p.global() ? p.ranks().size() : ranks;
        int m = Math.min(procs, settings.config().network().ranksPerClientNode());
        long rounds = Math.max(1, p.global() ? (p.requests() + procs - 1) / procs : p.requests());
        return AccessPattern.of(procs, m, p.meanRequestSize(), rounds, op);
    }

    private Placement place(Scheme scheme, PatternSelection.Chosen p, int ranks, Op op, Map<String, CriticalPatternEntry> critical) {
        SimPfsConfig c = settings.config();
        long region = regionOf(p);
        AccessPattern ap = accessPattern(p, ranks, op);
        switch (scheme) {
            case PD:
                return new Placement(p, c.defaultLayoutParsed(), "default 1-DH");
            case H_PDLA:
                return hdd(p, ap, region);
            case NS_PDLA: {
                LayoutChoice ch = LayoutCostModel.ssd(settings.params(), c.sservers()).best(ap);
                return new Placement(p, simLayout(ch, ServerClass.SSD, c.sservers(), ap, region), "SSD model: " + ch.describe());
            }
            case S_PDLA: {
                CriticalPatternEntry e = critical.get(p.key());
                if (e == null) return hdd(p, ap, region);
                if (e.space() == ReplicaSpace.SSERVERS) {
                    return new Placement(p, simLayout(e.layout(), ServerClass.SSD, c.sservers(), ap, region), "critical, SServers " + e.layout().describe());
                }
                long sh = e.hServerStripe(), ss = e.sServerStripe();
                if (sh + ss == 0) throw new IllegalStateException("hybrid stripes of " + p.key() + " are both 0");
                return new Placement(p, Layout.hybrid(sh, ss), "critical, HServers+SServers sh=" + sh + " ss=" + ss);
            }
            default:
                throw new IllegalArgumentException("scheme " + scheme + " has no replicas");
        }
    }

    private Placement hdd(PatternSelection.Chosen p, AccessPattern ap, long region) {
        LayoutChoice ch = LayoutCostModel.hdd(settings.params(), settings.config().hservers()).best(ap);
        return new Placement(p, simLayout(ch, ServerClass.HDD, settings.config().hservers(), ap, region), "HDD model: " + ch.describe());
    }

    /** Algorithm 1: CPT of the critical patterns, placed by descending benefit while SSD space lasts. Key -> entry. */
    Map<String, CriticalPatternEntry> algorithm1(List<PatternSelection.Chosen> chosen, int ranks, Op op) {
        SimPfsConfig c = settings.config();
        BenefitCalculator calc = new BenefitCalculator(settings.params(), c.hservers(), c.sservers());
        CriticalPatternRule rule = new CriticalPatternRule(calc, settings.thresholdSeconds());
        List<CriticalPatternEntry> cpt = new ArrayList<>();
        for (PatternSelection.Chosen p : chosen) {
            Optional<CriticalPatternEntry> e = rule.classify(p.key(), accessPattern(p, ranks, op));
            e.ifPresent(cpt::add);
        }
        ReplicaPlan plan = new SsdReplicaPlanner().plan(cpt, settings.ssdBytesPerServer());
        Map<String, CriticalPatternEntry> out = new LinkedHashMap<>();
        for (CriticalPatternEntry e : plan.placed()) out.put(e.patternKey(), e);
        return out;
    }

    /**
     * The process region of a replica's 1-DV / 2-D layout: one rank's contiguous data in it (its slot for a local
     * replica, {@link PatternSelection.Chosen#rankRun} for a global one).
     */
    static long regionOf(PatternSelection.Chosen p) {
        return Math.max(1, p.global() ? p.rankRun() : roundUp(p.geometry().totalBytes(), 1 << 20));
    }

    /** The sim-pfs layout of a cost-model choice on {@code n} servers of {@code space}. */
    static Layout simLayout(LayoutChoice ch, ServerClass space, int n, AccessPattern ap, long region) {
        long s = ap.batches().get(0).size();
        switch (ch.layout()) {
            case ONE_DH:
                return Layout.oneDH(space, ceilDiv(s, n));
            case ONE_DV:
                return Layout.oneDV(space, region);
            case TWO_D: {
                int groupSize = n / ch.groups();
                return Layout.twoD(space, groupSize, ceilDiv(s, groupSize), region);
            }
            default:
                throw new IllegalArgumentException("no sim-pfs layout for " + ch.describe());
        }
    }

    static String describe(Layout l) {
        String space = l.space().label();
        switch (l.distribution()) {
            case ONE_DH: return "1-DH " + size(l.stripe()) + " " + space;
            case ONE_DV: return "1-DV " + space;
            case TWO_D: return "2-D group " + l.groupSize() + " " + size(l.stripe()) + " " + space;
            case HYBRID: return "hybrid sh=" + size(l.sh()) + " ss=" + size(l.ss());
            default: return l.spec();
        }
    }

    static String size(long b) {
        if (b >= 1 << 20 && b % (1 << 20) == 0) return (b >> 20) + "m";
        if (b >= 1 << 10 && b % (1 << 10) == 0) return (b >> 10) + "k";
        return Long.toString(b);
    }

    static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    static long roundUp(long a, long unit) {
        return ceilDiv(Math.max(a, 1), unit) * unit;
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
