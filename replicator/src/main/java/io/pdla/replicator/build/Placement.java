package io.pdla.replicator.build;

import io.pdla.costmodel.Layout;
import io.pdla.costmodel.LayoutChoice;
import io.pdla.costmodel.benefit.ReplicaSpace;
import io.pdla.storage.StorageLayout;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where and how one replica is laid out: the space (HServers, SServers, HServers+SServers), the layout the
 * cost model chose there, the benefit B (0 on HServers) and the room it takes on one SServer, with the
 * hybrid stripes. {@link #storageLayout} renders it in the drivers' layout vocabulary (sim-pfs:
 * {@code 1-DH|1-DV|2-D|hybrid} with {@code space}, {@code stripe}, {@code group}, {@code region}, {@code sh},
 * {@code ss}).
 */
public record Placement(ReplicaSpace space, LayoutChoice layout, double benefitSeconds, long bytesPerSServer,
                        long hServerStripe, long sServerStripe, String why) {

    public StorageLayout storageLayout(PlacementConfig cfg, long replicaBytes, int processes) {
        Map<String, String> p = new LinkedHashMap<>();
        if (space == ReplicaSpace.HSERVERS_PLUS_SSERVERS) {
            p.put("sh", Long.toString(Math.max(1, hServerStripe)));
            p.put("ss", Long.toString(Math.max(1, sServerStripe)));
            return new StorageLayout("hybrid", p);
        }
        int servers = space == ReplicaSpace.SSERVERS ? cfg.sServers() : cfg.hServers();
        p.put("space", space == ReplicaSpace.SSERVERS ? "ssd" : "hdd");
        switch (layout.layout()) {
            case ONE_DH -> p.put("stripe", Long.toString(cfg.stripeBytes()));
            // [R] 1-DV keeps each process's data on one server: a region of the replica per process
            case ONE_DV -> p.put("region", Long.toString(Math.max(cfg.stripeBytes(), ceilDiv(replicaBytes, processes))));
            case TWO_D -> {
                p.put("stripe", Long.toString(cfg.stripeBytes()));
                // the cost model counts groups g; sim-pfs takes servers per group
                p.put("group", Long.toString(Math.max(1, servers / layout.groups())));
                p.put("region", Long.toString(Math.max(cfg.stripeBytes(), ceilDiv(replicaBytes, layout.groups()))));
            }
        }
        return new StorageLayout(layout.layout().label(), p);
    }

    public String describe() {
        return space.label() + " " + (layout.layout() == Layout.TWO_D ? layout.describe() : layout.layout().label())
                + (benefitSeconds > 0 ? String.format(", B=%.4g s", benefitSeconds) : "") + (why == null ? "" : " (" + why + ")");
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / Math.max(1, b);
    }
}
