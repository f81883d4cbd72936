package io.pdla.catalog;

/**
 * The one rule deciding whether a replica may serve reads: it is {@link ReplicaState#VALID} and the
 * original still has the identity it had when the replica was built (or last vouched for by a shim writer).
 * While shim write sessions are open the original's size and mtime legitimately move, so the reference is
 * the identity it had when the first of them began; writes that touch a replica's region have marked it
 * stale before they ran. A {@link ReplicaState#DIRTY} replica is always usable: it holds writes the original
 * has not received yet.
 */
public final class ReplicaValidity {
    private ReplicaValidity() {
    }

    public static boolean usable(ReplicaEntry entry, FileRecord file, FileIdentity now) {
        return reasonUnusable(entry, file, now) == null;
    }

    /** Null when usable, otherwise why not (for logs and {@code pdla replicas show}). */
    public static String reasonUnusable(ReplicaEntry entry, FileRecord file, FileIdentity now) {
        if (entry.state() == ReplicaState.DIRTY) return null;   // newer than the original: its identity says nothing
        if (entry.state() != ReplicaState.VALID) return "replica is " + entry.state() + " (a write touched its region)";
        FileIdentity reference = file.writers() > 0 && file.identityBeforeWriters() != null ? file.identityBeforeWriters() : now;
        if (!entry.identity().vouches(reference)) {
            return "original changed outside the shim: built at " + entry.identity() + ", now " + reference;
        }
        return null;
    }
}
