package io.pdla.bench.schemes;

/** The six compared schemes of issue 7, with the exact row names of the table. */
public enum Scheme {
    /** The requests against the original file (1-DH, 64 KiB stripes, HServers). */
    ORIGINAL("Original"),
    /** Pattern replicas with the default layout (1-DH, 64 KiB stripes, HServers). */
    PD("PD"),
    /** Pattern replicas with the cost model's HServer layout. */
    H_PDLA("H-PDLA"),
    /** The original file on SServers (1-DH, 64 KiB stripes). */
    S_ORIG("S-ORIG"),
    /** Every pattern replica on SServers, the SSD cost model's layout. */
    NS_PDLA("NS-PDLA"),
    /** Algorithm 1: critical patterns on SServers or HServers+SServers while SSD space lasts, the rest as H-PDLA. */
    S_PDLA("S-PDLA");

    private final String label;

    Scheme(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
