package io.pdla.simpfs.config;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * Links between client nodes and servers: every sub-request pays a connection set-up {@code setupUs} and
 * its bytes at {@code linkMBps} on both the client node's link and the server's link. {@code ranksPerClientNode}
 * ranks share one client link (the cost model's {@code m}). Defaults: gigabit Ethernet.
 */
public record NetworkParams(double setupUs, double linkMBps, int ranksPerClientNode) {
    public static final NetworkParams DEFAULT = new NetworkParams(50, 117, 1);

    public NetworkParams {
        Check.nonNegative("network.setupUs", setupUs);
        Check.positive("network.linkMBps", linkMBps);
        if (ranksPerClientNode < 1) throw new ConfigException("network.ranksPerClientNode must be >= 1, was " + ranksPerClientNode);
    }

    @JsonIgnore
    public double setupSeconds() {
        return setupUs / 1e6;
    }

    @JsonIgnore
    public double secondsPerByte() {
        return 1.0 / (linkMBps * 1e6);
    }
}
