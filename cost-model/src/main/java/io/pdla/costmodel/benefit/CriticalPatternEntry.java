package io.pdla.costmodel.benefit;

import io.pdla.costmodel.Checks;
import io.pdla.costmodel.LayoutChoice;

import java.io.Serializable;
import java.util.Objects;

/**
 * One row of the Critical Pattern Table [V, S1 4.3-4.5: pattern, performance benefit, replica space, optimized
 * layout], as the replicator stores it.
 *
 * @param patternKey          the pattern id (S1: encodes application, #processes, rank, file and pattern);
 *                            opaque here
 * @param benefitSeconds      B of Eq. 6, seconds saved per execution of the pattern
 * @param space               SServers or HServers+SServers
 * @param layout              the layout in that space (1-DH for HServers+SServers) with its modelled time
 * @param bytesPerSServer     space the replica needs on one SServer (the {@code s_pat} of Algorithm 1)
 * @param hServerStripe       stripe on each HServer (bytes) for HServers+SServers replicas, else 0
 * @param sServerStripe       stripe on each SServer (bytes) for HServers+SServers replicas, else 0
 */
public record CriticalPatternEntry(String patternKey, double benefitSeconds, ReplicaSpace space,
                                   LayoutChoice layout, long bytesPerSServer,
                                   long hServerStripe, long sServerStripe) implements Serializable {

    public CriticalPatternEntry {
        Objects.requireNonNull(patternKey, "patternKey");
        Objects.requireNonNull(space, "space");
        Objects.requireNonNull(layout, "layout");
        if (space == ReplicaSpace.HSERVERS) {
            throw new IllegalArgumentException("space of a critical pattern must use SServers, was " + space);
        }
        if (!Double.isFinite(benefitSeconds)) {
            throw new IllegalArgumentException("benefitSeconds must be finite, was " + benefitSeconds);
        }
        Checks.nonNegative("bytesPerSServer", bytesPerSServer);
        Checks.nonNegative("hServerStripe", hServerStripe);
        Checks.nonNegative("sServerStripe", sServerStripe);
    }
}
