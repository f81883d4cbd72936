package io.pdla.replicator.construct;

import io.pdla.costmodel.LayoutChoice;
import io.pdla.costmodel.benefit.ReplicaSpace;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.Distribution;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The 2-D layout a replica gets must be the one the cost model priced: T^2D serves each process's requests from one
 * group of n/g servers, ceil(p/g) processes per group, so a region holds whole process runs.
 */
class PlacementTest {
    static final long K = 1 << 10;
    static final PlacementConfig EIGHT_HSERVERS = PlacementConfig.hddOnly(8);

    static Placement twoD(int groups) {
        return new Placement(ReplicaSpace.HSERVERS, new LayoutChoice(Distribution.TWO_D, groups, 1), 0, 0, 0, 0, null);
    }

    @Test
    void aLocalReplicaIsOneRegionOnOneGroup() {
        // one rank's 256 KiB (IOR -b 16k -s 16 at 4 ranks): 4 groups of 2 servers; cut into 4 regions of 64 KiB it
        // would sit on the first server of every group, the same 4 servers for every rank's replica
        Layout l = twoD(4).storageLayout(EIGHT_HSERVERS, 256 * K, 256 * K);
        assertEquals(Distribution.TWO_D, l.distribution());
        assertEquals(2, l.groupSize());
        assertEquals(256 * K, l.region(), "the one process's bytes stay in one group");
    }

    @Test
    void aGlobalReplicaDealsWholeProcessRunsOverTheGroups() {
        // 8 ranks owning 1 MiB each, 4 groups: two ranks' runs per group, as ceil(p/g) = 2
        assertEquals(2048 * K, twoD(4).storageLayout(EIGHT_HSERVERS, 8192 * K, 1024 * K).region());
        // 2 ranks, 4 groups: each rank's run on a group of its own, not split over two
        assertEquals(1024 * K, twoD(4).storageLayout(EIGHT_HSERVERS, 2048 * K, 1024 * K).region());
        // ranks interleaving request by request (a run is one 16 KiB request): the replica is dealt over all groups
        assertEquals(2048 * K, twoD(4).storageLayout(EIGHT_HSERVERS, 8192 * K, 16 * K).region());
    }

    @Test
    void aRegionIsNeverBelowOneStripe() {
        assertEquals(64 * K, twoD(4).storageLayout(EIGHT_HSERVERS, 32 * K, 32 * K).region());
    }
}
