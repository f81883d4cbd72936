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

/**
 * Chooses each replica's place and layout. H-PDLA: the cheapest of 1-DH, 1-DV, 2-D on the HServers.
 * S-PDLA (SServers configured): the critical patterns (benefit above the threshold) get SServers or
 * HServers+SServers in order of descending benefit while the SSD space lasts (Algorithm 1, with the LP
 * stripes); the rest stay on HServers with their H-PDLA layout.
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
     * [R] The cost model's view of a pattern: its requests as rounds of p concurrent requests; a global
     * pattern's requests are spread over its p processes, a local pattern is one process's share of a job of
     * p processes running the same way. Patterns are replicated for reads.
     */
    public static AccessPattern costShape(KeyedPattern p, int processesPerNode) {
        int procs = p.key().processes();
        long rounds = p.key().global() ? Math.max(1, (p.requests() + procs - 1) / procs) : p.requests();
        return new AccessPattern(procs, Math.min(processesPerNode, procs), List.of(new RequestBatch(p.meanRequestSize(), rounds, Op.READ)));
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

    public Placement onHServers(KeyedPattern p, String why) {
        LayoutChoice best = LayoutCostModel.hdd(cfg.params(), cfg.hServers()).best(costShape(p, cfg.processesPerNode()));
        return new Placement(ReplicaSpace.HSERVERS, best, 0, 0, 0, 0, why);
    }

    /** The SSD cost model's best layout on the SServers, space and benefit aside (the NS-PDLA comparison scheme). */
    public Placement onSServers(KeyedPattern p, String why) {
        if (cfg.sServers() == 0) throw new IllegalStateException("no SServers configured to place " + p.key().id() + " on");
        LayoutChoice best = LayoutCostModel.ssd(cfg.params(), cfg.sServers()).best(costShape(p, cfg.processesPerNode()));
        return new Placement(ReplicaSpace.SSERVERS, best, 0, 0, 0, 0, why);
    }

    /**
     * Places all patterns at once (Algorithm 1 needs them together). {@code ssdBytesInUse} is the space one
     * SServer already gives to existing replicas.
     */
    public Map<PatternKey, Placement> plan(Collection<KeyedPattern> patterns, long ssdBytesInUse) {
        Map<PatternKey, Placement> out = new HashMap<>();
        if (cfg.sServers() == 0) {
            for (KeyedPattern p : patterns) out.put(p.key(), onHServers(p, null));
            return out;
        }
        BenefitCalculator calc = new BenefitCalculator(cfg.params(), cfg.hServers(), cfg.sServers());
        CriticalPatternRule rule = new CriticalPatternRule(calc, cfg.thresholdSeconds());
        List<CriticalPatternEntry> cpt = new ArrayList<>();
        Map<String, KeyedPattern> byId = new HashMap<>();
        for (KeyedPattern p : patterns) {
            byId.put(p.key().id(), p);
            rule.classify(p.key().id(), costShape(p, cfg.processesPerNode()), dataProcesses(p)).ifPresentOrElse(cpt::add,
                    () -> out.put(p.key(), onHServers(p, "not critical")));
        }
        ReplicaPlan plan = new SsdReplicaPlanner().plan(cpt, Math.max(0, cfg.ssdBytesPerServer() - ssdBytesInUse));
        for (CriticalPatternEntry e : plan.placed()) {
            out.put(byId.get(e.patternKey()).key(), new Placement(e.space(), e.layout(), e.benefitSeconds(), e.bytesPerSServer(),
                    e.hServerStripe(), e.sServerStripe(), "critical"));
        }
        for (CriticalPatternEntry e : plan.skipped()) {
            out.put(byId.get(e.patternKey()).key(), onHServers(byId.get(e.patternKey()),
                    "critical but SSD space is full: needs " + e.bytesPerSServer() + " bytes per SServer, " + plan.remainingBytesPerSServer() + " left"));
        }
        return out;
    }
}
