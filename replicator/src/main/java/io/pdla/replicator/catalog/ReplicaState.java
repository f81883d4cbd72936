package io.pdla.replicator.catalog;

/** Whether a replica may serve reads. */
public enum ReplicaState {
    /** Holds the pattern's bytes as the original had them at {@code identity}. */
    VALID,
    /** A write through the shim touched the pattern's region: the original is authoritative, rebuild on sync. */
    STALE
}
