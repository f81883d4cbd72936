package io.pdla.catalog;

/** What a replica's bytes are worth against its original's. */
public enum ReplicaState {
    /** Holds the pattern's bytes as the original had them at {@code identity}. */
    VALID,
    /** A write through the shim went to the original in the pattern's region: the original is authoritative, rebuild. */
    STALE,
    /**
     * Writes through the shim went into the replica: it is the authoritative copy of every byte of its pattern
     * until written back to the original ({@code WriteBack}: the daemon's pass, {@code pdla sync}). Never
     * dropped or rebuilt before that, whatever the original's identity says.
     */
    DIRTY
}
