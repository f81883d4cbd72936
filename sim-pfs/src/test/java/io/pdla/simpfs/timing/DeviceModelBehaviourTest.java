package io.pdla.simpfs.timing;

import io.pdla.simpfs.config.FlowParams;
import io.pdla.simpfs.config.HddParams;
import io.pdla.simpfs.config.NetworkParams;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.simpfs.config.SsdParams;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.ServerClass;
import io.pdla.simpfs.workload.IorWorkload;
import io.pdla.simpfs.workload.RandomWorkload;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the issue-17 model adds, each behaviour against the same model with that part turned off. */
class DeviceModelBehaviourTest {
    private static final NetworkParams FREE_NETWORK = new NetworkParams(0, 1e6, 1);
    private static final SimPfsConfig ONE_DISK = SimPfsConfig.builder().hservers(1).sservers(0)
            .network(FREE_NETWORK).extentLocks(false).build();
    private static final Layout HDD = Layout.oneDH(ServerClass.HDD, 64 << 10);
    private static final Layout SSD = Layout.oneDH(ServerClass.SSD, 64 << 10);

    private static long mediaAccesses(SimResult r) {
        return r.servers().stream().mapToLong(s -> s.deviceOps() - s.cacheHits()).sum();
    }

    @Test
    void readAheadTurnsInterleavedSequentialStreamsOfSmallRequestsIntoFewDiskAccesses() {
        // Two ranks each read their own 4 MiB in 4 KiB requests: the disk alternates between two streams.
        long block = 4L << 20, request = 4 << 10;
        IorWorkload w = new IorWorkload(2, block, request, 1, false, false, false, 1, HDD);
        SimResult cached = new TimingEngine(ONE_DISK).run(w);
        SimResult uncached = new TimingEngine(ONE_DISK.toBuilder().hdd(ONE_DISK.hdd().withCache(0, 1)).build()).run(w);
        long requests = 2 * block / request;
        long segment = ONE_DISK.hdd().segmentBytes();
        // Each stream misses once to start, once to be seen continuing, then once per segment it reads ahead.
        long expectedMisses = 2 * (2 + block / (segment - request));
        assertTrue(mediaAccesses(cached) <= expectedMisses, "media accesses with read-ahead " + mediaAccesses(cached)
                + " of " + requests + " requests, expected <= " + expectedMisses);
        assertEquals(requests, mediaAccesses(uncached), "without a cache every request goes to the media");
        assertTrue(uncached.totalSeeks() >= requests - 2, "without a cache the head alternates: " + uncached.totalSeeks());
        assertTrue(cached.totalSeeks() <= expectedMisses, "seeks with read-ahead: " + cached.totalSeeks());
        assertTrue(cached.elapsedSeconds() * 10 < uncached.elapsedSeconds(),
                "read-ahead " + cached.elapsedSeconds() + " s vs " + uncached.elapsedSeconds() + " s without");
    }

    @Test
    void commandQueueReorderingShortensARandomQueue() {
        long seed = ThreadLocalRandom.current().nextLong();
        // 32 ranks, one outstanding random 4 KiB read each: the drive sees up to 32 commands at once.
        RandomWorkload w = new RandomWorkload(32, 20L << 30, 4096, 100, false, seed, HDD);
        SimPfsConfig fifo = ONE_DISK.toBuilder().hdd(ONE_DISK.hdd().withQueueDepth(1)).build();
        SimResult reordered = new TimingEngine(ONE_DISK).run(w);
        SimResult inOrder = new TimingEngine(fifo).run(w);
        double meanSeekReordered = (double) reordered.servers().get(0).seekDistanceBytes() / reordered.totalSeeks();
        double meanSeekFifo = (double) inOrder.servers().get(0).seekDistanceBytes() / inOrder.totalSeeks();
        assertTrue(reordered.elapsedSeconds() < 0.8 * inOrder.elapsedSeconds(), "seed " + seed + ": C-LOOK over 32 commands "
                + reordered.elapsedSeconds() + " s vs FIFO " + inOrder.elapsedSeconds() + " s");
        assertTrue(meanSeekReordered * 4 < meanSeekFifo, "seed " + seed + ": mean seek distance " + meanSeekReordered
                + " vs FIFO " + meanSeekFifo);
        assertEquals(inOrder.bytesRead(), reordered.bytesRead());
    }

    @Test
    void twoRanksOnOneNodeShareItsLinkFairlyAndFillIt() {
        // Four SSD servers that outrun one gigabit link: the client node's link is the bottleneck.
        NetworkParams twoPerNode = new NetworkParams(50, 117, 2);
        SimPfsConfig config = SimPfsConfig.builder().hservers(0).sservers(4).network(twoPerNode).extentLocks(false).build();
        long block = 64L << 20;
        SimResult r = new TimingEngine(config).run(new IorWorkload(2, block, 1 << 20, 1, false, false, false, 1, SSD));
        double a = r.rankCompletionSeconds().get(0), b = r.rankCompletionSeconds().get(1);
        assertEquals(a, b, 0.03 * Math.max(a, b), "the two ranks of one node finish together: " + r.rankCompletionSeconds());
        double linkSeconds = 2 * block / (117 * 1e6);
        assertTrue(r.elapsedSeconds() < 1.05 * linkSeconds && r.elapsedSeconds() >= linkSeconds,
                "both ranks' bytes cross the one link at its rate: " + r.elapsedSeconds() + " s vs " + linkSeconds + " s");
        SimResult ownNodes = new TimingEngine(config.toBuilder().network(new NetworkParams(50, 117, 1)).build())
                .run(new IorWorkload(2, block, 1 << 20, 1, false, false, false, 1, SSD));
        assertTrue(ownNodes.elapsedSeconds() < 0.6 * r.elapsedSeconds(), "on two nodes the same ranks use two links: "
                + ownNodes.elapsedSeconds() + " s vs " + r.elapsedSeconds() + " s");
    }

    @Test
    void flowBuffersPipelineALargeRequestBetweenDiskAndNetwork() {
        SimPfsConfig config = SimPfsConfig.builder().hservers(0).sservers(1).extentLocks(false).build();
        long size = 16L << 20;
        IorWorkload w = new IorWorkload(1, size, size, 1, false, false, false, 1, SSD);
        SimResult piped = new TimingEngine(config).run(w);
        SimResult whole = new TimingEngine(config.toBuilder().flow(FlowParams.WHOLE).build()).run(w);
        SsdParams ssd = config.ssd();
        NetworkParams net = config.network();
        long buffer = config.flow().bufferBytes();
        double disk = size * ssd.secondsPerByte(false), wire = size * net.secondsPerByte();
        // Piped: the first buffer from the device, then the wire carries the rest back to back (the faster device keeps ahead).
        double predictedPiped = ssd.startupSeconds(false) + buffer * ssd.secondsPerByte(false) + net.setupSeconds() + wire;
        double predictedWhole = ssd.startupSeconds(false) + disk + net.setupSeconds() + wire;
        assertEquals(predictedWhole, whole.elapsedSeconds(), 0.01 * predictedWhole, "one unit: device and network add");
        assertEquals(predictedPiped, piped.elapsedSeconds(), 0.02 * predictedPiped, "buffers: device hidden under the wire");
        assertTrue(piped.elapsedSeconds() < 0.85 * whole.elapsedSeconds());
    }

    @Test
    void ssdChannelsOverlapConcurrentRequests() {
        long seed = ThreadLocalRandom.current().nextLong();
        SimPfsConfig one = SimPfsConfig.builder().hservers(0).sservers(1).network(FREE_NETWORK).extentLocks(false)
                .ssd(SsdParams.DEFAULT.withChannels(1)).build();
        SimPfsConfig eight = one.toBuilder().ssd(SsdParams.DEFAULT.withChannels(8)).build();
        RandomWorkload w = new RandomWorkload(16, 1L << 30, 4096, 200, false, seed, SSD);
        SimResult serial = new TimingEngine(one).run(w), parallel = new TimingEngine(eight).run(w);
        double ops = 16 * 200;
        SsdParams s = SsdParams.DEFAULT;
        assertEquals(ops * s.seconds(false, 4096), serial.elapsedSeconds(), 0.02 * serial.elapsedSeconds(), "seed " + seed);
        // Eight start-ups overlap; the transfers share the device's rate.
        double bound = Math.max(ops * 4096 * s.secondsPerByte(false), ops / 8 * s.startupSeconds(false));
        assertTrue(parallel.elapsedSeconds() < 1.2 * bound + s.seconds(false, 4096), "seed " + seed + ": " + parallel.elapsedSeconds() + " vs " + bound);
        assertTrue(parallel.elapsedSeconds() * 4 < serial.elapsedSeconds());
    }

    @Test
    void innerZonesTransferSlowerThanOuterOnes() {
        HddParams hdd = HddParams.DEFAULT;
        assertEquals(hdd.secondsPerByte(), hdd.secondsPerByteAt(0), 1e-15);
        assertEquals(1 / (hdd.innerTransferMBps() * 1e6), hdd.secondsPerByteAt((long) hdd.capacityBytes()), 1e-15);
        double ratio = hdd.secondsPerByteAt((long) (0.9 * hdd.capacityBytes())) / hdd.secondsPerByteAt(0);
        assertEquals(hdd.transferMBps() / (hdd.transferMBps() - 0.9 * (hdd.transferMBps() - hdd.innerTransferMBps())), ratio, 1e-9,
                "linear zones: inner/outer time per byte " + ratio);
    }
}
