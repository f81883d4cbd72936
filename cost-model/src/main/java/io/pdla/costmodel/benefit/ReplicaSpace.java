package io.pdla.costmodel.benefit;

/** Where a replica lives [V, S1 4.3: the CPT's "replica space"]. */
public enum ReplicaSpace {
    /** The original HDD servers (H-PDLA replicas; also "no SSD replica"). */
    HSERVERS("HServers"),
    /** SSD servers only, any of the three layouts. */
    SSERVERS("SServers"),
    /** HServers and SServers together, 1-DH with per-class stripe sizes only [V, S1 4.3]. */
    HSERVERS_PLUS_SSERVERS("HServers+SServers");

    private final String label;

    ReplicaSpace(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
