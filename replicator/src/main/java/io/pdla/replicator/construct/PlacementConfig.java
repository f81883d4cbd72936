package io.pdla.replicator.construct;

import io.pdla.costmodel.ModelParameters;

/**
 * What the placement needs to know about the storage system: HServers and SServers (0 SServers = H-PDLA
 * only), the space of one SServer available to replicas, the critical-pattern threshold, the cost model's
 * parameters, processes per client node and the stripe size used for 1-DH / 2-D replicas.
 */
public record PlacementConfig(int hServers, int sServers, long ssdBytesPerServer, double thresholdSeconds,
                              ModelParameters params, int processesPerNode, long stripeBytes) {
    public PlacementConfig {
        if (hServers < 1) throw new IllegalArgumentException("HServers must be >= 1, was " + hServers);
        if (sServers < 0) throw new IllegalArgumentException("SServers must be >= 0, was " + sServers);
        if (ssdBytesPerServer < 0) throw new IllegalArgumentException("SSD space must be >= 0, was " + ssdBytesPerServer);
        if (processesPerNode < 1) throw new IllegalArgumentException("processes per node must be >= 1, was " + processesPerNode);
        if (stripeBytes < 1) throw new IllegalArgumentException("stripe must be >= 1 byte, was " + stripeBytes);
    }

    /** The papers' configuration without SSDs: 8 HServers, 64 KiB stripes, one process per node. */
    public static PlacementConfig hddOnly(int hServers) {
        return new PlacementConfig(hServers, 0, 0, 0, ModelParameters.defaults(), 1, 64 << 10);
    }

    public PlacementConfig withSsd(int servers, long bytesPerServer) {
        return new PlacementConfig(hServers, servers, bytesPerServer, thresholdSeconds, params, processesPerNode, stripeBytes);
    }
}
