package io.pdla.costmodel.calibration;

/**
 * What a probe measures, and hence which pair of parameters it calibrates. Following PSA [V, S7 III-D: network
 * parameters measured with one client and one server, storage parameters on ONE file server, read and write
 * separately], every probe is {@code c} concurrent requests of {@code s} bytes against a single server, which
 * the model prices as {@code c*(startup + s*perByte)} [R: the 1-DV formula with n = 1 and m = 1, with only the
 * network or only the storage part]. One probe kind per pair keeps e from being confounded with a, and v with b,
 * which a combined network+storage probe could not separate.
 */
public enum ProbeTarget {
    /** Transfers to a server that does no storage work: fits e (connect) and v (per byte). */
    NETWORK("network"),
    /** Requests timed at an HDD server: fits a_h and b_h. */
    HDD("hdd"),
    /** Reads timed at an SSD server: fits a_sr and b_sr. */
    SSD_READ("ssd-read"),
    /** Writes timed at an SSD server: fits a_sw and b_sw. */
    SSD_WRITE("ssd-write");

    private final String label;

    ProbeTarget(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
