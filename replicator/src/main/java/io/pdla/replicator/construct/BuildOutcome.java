package io.pdla.replicator.construct;

import io.pdla.catalog.ReplicaEntry;

/**
 * What became of one pattern. PUBLISHED and UP_TO_DATE leave a usable replica; DEFERRED means try again
 * later (a shim writer was active, or the original changed while we copied); REJECTED means the pattern
 * cannot be replicated as it stands (its original is missing, shorter than the pattern...), with the reason.
 */
public record BuildOutcome(Kind kind, String message, ReplicaEntry entry) {
    public enum Kind { PUBLISHED, UP_TO_DATE, COVERED, DEFERRED, REJECTED }

    public boolean finished() {
        return kind != Kind.DEFERRED;
    }
}
