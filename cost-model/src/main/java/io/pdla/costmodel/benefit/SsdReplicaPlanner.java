package io.pdla.costmodel.benefit;

import io.pdla.costmodel.Checks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The placement decision of S-PDLA's Algorithm 1 [V, S1 4.5, paraphrased in formulas.md 3.3]: visit the CPT
 * entries by descending benefit and give each one a replica while its {@code s_pat} fits in the space left on
 * one SServer; patterns that do not fit are not replicated. Deviation [R]: the printed algorithm decrements the
 * free space also for skipped patterns, which we read as a misplaced line; here only created replicas consume
 * space, so a smaller, later pattern can still use the room a big one could not.
 * Creating the files and appending the data is the replicator's job.
 */
public final class SsdReplicaPlanner {

    /** Descending benefit; equal benefits by key so the plan does not depend on the input order. */
    private static final Comparator<CriticalPatternEntry> BY_BENEFIT =
            Comparator.comparingDouble(CriticalPatternEntry::benefitSeconds).reversed()
                    .thenComparing(CriticalPatternEntry::patternKey);

    public ReplicaPlan plan(Collection<CriticalPatternEntry> cpt, long freeBytesPerSServer) {
        Checks.nonNegative("freeBytesPerSServer", freeBytesPerSServer);
        List<CriticalPatternEntry> ordered = new ArrayList<>(cpt);
        ordered.sort(BY_BENEFIT);
        List<CriticalPatternEntry> placed = new ArrayList<>();
        List<CriticalPatternEntry> skipped = new ArrayList<>();
        long free = freeBytesPerSServer;
        for (CriticalPatternEntry e : ordered) {
            if (free >= e.bytesPerSServer()) {
                placed.add(e);
                free -= e.bytesPerSServer();
            } else {
                skipped.add(e);
            }
        }
        return new ReplicaPlan(placed, skipped, free);
    }
}
