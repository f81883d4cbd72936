package io.pdla.costmodel.benefit;

import java.util.List;

/**
 * Outcome of {@link SsdReplicaPlanner}: the entries to replicate, in creation order (descending benefit), the
 * ones that did not fit, and the space left on one SServer.
 */
public record ReplicaPlan(List<CriticalPatternEntry> placed, List<CriticalPatternEntry> skipped,
                          long remainingBytesPerSServer) {

    public ReplicaPlan {
        placed = List.copyOf(placed);
        skipped = List.copyOf(skipped);
    }
}
