package io.pdla.replicator.construct;

import io.pdla.costmodel.AccessPattern;
import io.pdla.costmodel.LayoutChoice;
import io.pdla.costmodel.LayoutCostModel;
import io.pdla.costmodel.Op;
import io.pdla.costmodel.RequestBatch;
import io.pdla.costmodel.benefit.BenefitCalculator;
import io.pdla.costmodel.benefit.CriticalPatternEntry;
import io.pdla.costmodel.benefit.CriticalPatternRule;
import io.pdla.costmodel.benefit.ReplicaPlan;
import io.pdla.costmodel.benefit.ReplicaSpace;
import io.pdla.costmodel.benefit.SsdReplicaPlanner;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.storage.Layout;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * Chooses each replica's place and layout. H-PDLA: the cheapest of 1-DH, 1-DV, 2-D on the HServers.
 * S-PDLA (SServers configured): the critical patterns (benefit above the threshold) get SServers or
 * HServers+SServers in order of descending benefit while the SSD space lasts (Algorithm 1, with the LP
 * stripes); the rest stay on HServers with their H-PDLA layout.
 *
 * <p>[R, our extension] A replica that redirect reads in windows ({@code windowBytes > 0}: each process's run of
 * the replica in consecutive, window-aligned requests of {@code min(processRun, windowBytes)}) is priced in that shape
 * and flagged request-aligned, which adds the request-aligned hybrid (stripe = request size on HServers and SServers,
 * {@code HybridCostModel#requestAlignedParts}) to the HServers+SServers options. With windows 0 nothing changes.
 */
public final class LayoutPlanner {
    private final PlacementConfig cfg;

    public LayoutPlanner(PlacementConfig cfg) {
        this.cfg = cfg;
    }

    public PlacementConfig config() {
        return cfg;
    }

    /**
     * [R] The cost model's view of a pattern's replica, read as the application issued its requests ({@code windowBytes}
     * 0) or in windows of {@code windowBytes}. As issued: its requests as rounds of p concurrent requests; a global
     * pattern's requests are spread over its p processes, a local pattern is one process's share of a job of p
     * processes running the same way. In windows: the replica sees p = {@code key().processes()} processes each
     * reading its {@code processRun} bytes in requests of {@code w = min(processRun, windowBytes)},
     * {@code ceil(processRun / w)} rounds, window-aligned in the replica: the pattern is flagged request-aligned.
     * (For a local pattern this is its rank and the p - 1 others reading their own replicas the same way.) Patterns
     * are replicated for reads.
     */
    public static AccessPattern costShape(KeyedPattern p, int processesPerNode, long windowBytes) {
        if (windowBytes < 0) throw new IllegalArgumentException("window bytes must be >= 0, was " + windowBytes + " for " + p.key().id());
        int procs = p.key().processes();
        int perNode = Math.min(processesPerNode, procs);
        if (windowBytes == 0) {
            long rounds = p.key().global() ? Math.max(1, (p.requests() + procs - 1) / procs) : p.requests();
            return new AccessPattern(procs, perNode, List.of(new RequestBatch(p.meanRequestSize(), rounds, Op.READ)));
        }
        long request = Math.min(p.processRun(), windowBytes);
        long rounds = (p.processRun() + request - 1) / request;
        return new AccessPattern(procs, perNode, List.of(new RequestBatch(request, rounds, Op.READ)), true);
    }

    /**
     * Processes whose data the replica holds: all of them for a global pattern, one for a local pattern (one
     * rank's bytes, however many ranks run alongside). What its space is charged by (Algorithm 1's s_pat).
     */
    public static int dataProcesses(KeyedPattern p) {
        return p.key().global() ? p.key().processes() : 1;
    }

    /** The layout a replica of {@code p} gets under {@code placement}: what the builder applies and the benchmarks simulate. */
    public Layout layoutOf(KeyedPattern p, Placement placement) {
        return placement.storageLayout(cfg, p.totalBytes(), p.processRun());
    }

    /** The HDD cost model's best layout for the replica read in windows of {@code windowBytes} (0: none). */
    public Placement onHServers(KeyedPattern p, String why, long windowBytes) {
        LayoutChoice best = LayoutCostModel.hdd(cfg.params(), cfg.hServers()).best(costShape(p, cfg.processesPerNode(), windowBytes));
        return new Placement(ReplicaSpace.HSERVERS, best, 0, 0, 0, 0, why);
    }

    /**
     * The SSD cost model's best layout on the SServers, space and benefit aside (the NS-PDLA comparison scheme), for the
     * replica read in windows of {@code windowBytes} (0: none).
     */
    public Placement onSServers(KeyedPattern p, String why, long windowBytes) {
        if (cfg.sServers() == 0) throw new IllegalStateException("no SServers configured to place " + p.key().id() + " on");
        LayoutChoice best = LayoutCostModel.ssd(cfg.params(), cfg.sServers()).best(costShape(p, cfg.processesPerNode(), windowBytes));
        return new Placement(ReplicaSpace.SSERVERS, best, 0, 0, 0, 0, why);
    }

    /**
     * Places all patterns at once (Algorithm 1 needs them together). {@code ssdBytesInUse} is the space one
     * SServer already gives to existing replicas. Each pattern's replica is priced as read in windows of
     * {@code windowBytes.applyAsLong(p)} bytes (0, {@code p -> 0} for all: not in windows, priced as the application
     * issued its requests; see {@link #costShape}). A windowed pattern can get the request-aligned hybrid:
     * HServers+SServers with both stripes equal to its window-aligned request size.
     */
    public Map<PatternKey, Placement> plan(Collection<KeyedPattern> patterns, long ssdBytesInUse, ToLongFunction<KeyedPattern> windowBytes) {
        Map<PatternKey, Placement> out = new HashMap<>();
        if (cfg.sServers() == 0) {
            for (KeyedPattern p : patterns) out.put(p.key(), onHServers(p, null, windowBytes.applyAsLong(p)));
            return out;
        }
        BenefitCalculator calc = new BenefitCalculator(cfg.params(), cfg.hServers(), cfg.sServers());
        CriticalPatternRule rule = new CriticalPatternRule(calc, cfg.thresholdSeconds());
        List<CriticalPatternEntry> cpt = new ArrayList<>();
        Map<String, KeyedPattern> byId = new HashMap<>();
        for (KeyedPattern p : patterns) {
            byId.put(p.key().id(), p);
            long window = windowBytes.applyAsLong(p);
            rule.classify(p.key().id(), costShape(p, cfg.processesPerNode(), window), dataProcesses(p)).ifPresentOrElse(cpt::add,
                    () -> out.put(p.key(), onHServers(p, "not critical", window)));
        }
        ReplicaPlan plan = new SsdReplicaPlanner().plan(cpt, Math.max(0, cfg.ssdBytesPerServer() - ssdBytesInUse));
        for (CriticalPatternEntry e : plan.placed()) {
            out.put(byId.get(e.patternKey()).key(), new Placement(e.space(), e.layout(), e.benefitSeconds(), e.bytesPerSServer(),
                    e.hServerStripe(), e.sServerStripe(), "critical"));
        }
        for (CriticalPatternEntry e : plan.skipped()) {
            KeyedPattern p = byId.get(e.patternKey());
            out.put(p.key(), onHServers(p,
                    "critical but SSD space is full: needs " + e.bytesPerSServer() + " bytes per SServer, " + plan.remainingBytesPerSServer() + " left",
                    windowBytes.applyAsLong(p)));
        }
        return out;
    }
}
