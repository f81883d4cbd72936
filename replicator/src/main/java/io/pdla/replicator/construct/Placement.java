package io.pdla.replicator.construct;

import io.pdla.costmodel.LayoutChoice;
import io.pdla.costmodel.benefit.ReplicaSpace;
import io.pdla.storage.Layout.Distribution;
import io.pdla.storage.Layout;


/**
 * Where and how one replica is laid out: the space (HServers, SServers, HServers+SServers), the layout the
 * cost model chose there, the benefit B (0 on HServers) and the room it takes on one SServer, with the
 * hybrid stripes. {@link #storageLayout} renders it as the core layout description.
 */
public record Placement(ReplicaSpace space, LayoutChoice layout, double benefitSeconds, long bytesPerSServer,
                        long hServerStripe, long sServerStripe, String why) {

    /**
     * This placement as the core layout description ({@code processRegion}: one process's consecutive bytes in the
     * replica, {@code KeyedPattern.processRun}): the store translates it into its own terms
     * ({@code StorageDriver.setLayout}). Server counts are left out: the plan means every server of the class.
     */
    public Layout storageLayout(PlacementConfig cfg, long replicaBytes, long processRegion) {
        if (space == ReplicaSpace.HSERVERS_PLUS_SSERVERS) {
            // LP stripes, or [R] the request-aligned hybrid's equal stripes (the window-aligned request size): sim-pfs
            // times hybrid(s, s) exactly as 1-DH with stripe s over all servers
            return Layout.hybrid(Math.max(1, hServerStripe), Math.max(1, sServerStripe));
        }
        int servers = space == ReplicaSpace.SSERVERS ? cfg.sServers() : cfg.hServers();
        Layout.ServerClass cls = space == ReplicaSpace.SSERVERS ? Layout.ServerClass.SSD : Layout.ServerClass.HDD;
        return switch (layout.layout()) {
            // [R] 1-DV keeps each process's data on one server: a region of the replica per process run
            case ONE_DV -> Layout.oneDV(cls, Math.max(1, processRegion)).withStripe(cfg.stripeBytes());
            // the cost model counts groups g; the layout takes servers per group
            case TWO_D -> Layout.twoD(cls, Math.max(1, servers / layout.groups()), cfg.stripeBytes(),
                    twoDRegion(cfg.stripeBytes(), replicaBytes, processRegion, layout.groups()));
            default -> Layout.oneDH(cls, cfg.stripeBytes());
        };
    }

    public String describe() {
        return space.label() + " " + (layout.layout() == Distribution.TWO_D ? layout.describe() : layout.layout().label())
                + (benefitSeconds > 0 ? String.format(", B=%.4g s", benefitSeconds) : "") + (why == null ? "" : " (" + why + ")");
    }

    /**
     * [R] T^2D prices each process's requests on one group of n/g servers, ceil(p/g) processes per group. So a region
     * holds whole process runs: the replica's runs dealt over at most g groups, never one process's run cut into g
     * pieces. A local replica (one process's data, one run) is one region on one group; the store's rotation gives
     * the next replica the next group, which is how the model's p processes spread over the groups.
     */
    static long twoDRegion(long stripe, long replicaBytes, long processRegion, int groups) {
        long runs = ceilDiv(replicaBytes, Math.max(1, processRegion));
        return Math.max(stripe, ceilDiv(replicaBytes, Math.max(1, Math.min(groups, runs))));
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / Math.max(1, b);
    }
}
