package io.pdla.simpfs.timing;

import io.pdla.simpfs.config.HddParams;
import io.pdla.simpfs.config.NetworkParams;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.ServerClass;
import io.pdla.simpfs.workload.IorWorkload;
import io.pdla.simpfs.workload.RandomWorkload;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The HDD model's behaviour checked against its own parameters, not against constants. */
class HddModelValidationTest {
    /** One HDD server, and a network fast enough that only the disk matters. */
    private static final SimPfsConfig ONE_DISK = SimPfsConfig.builder().hservers(1).sservers(0)
            .network(new NetworkParams(0, 1e6, 1)).extentLocks(false).build();
    private static final Layout STRIPED = Layout.oneDH(ServerClass.HDD, 64 * 1024);

    @Test
    void oneSequentialStreamApproachesTheTransferRate() {
        HddParams hdd = ONE_DISK.hdd();
        SimResult r = new TimingEngine(ONE_DISK).run(new IorWorkload(1, 256L << 20, 4L << 20, 1, false, false, false, 1, STRIPED));
        double rateMiBps = hdd.transferMBps() * 1e6 / (1 << 20);
        assertTrue(r.readBandwidthMiBps() > 0.97 * rateMiBps && r.readBandwidthMiBps() <= rateMiBps,
                "sequential read " + r.readBandwidthMiBps() + " MiB/s vs transfer rate " + rateMiBps);
        assertEquals(0, r.totalSeeks(), "a sequential stream never moves the head");
    }

    @Test
    void smallRandomRequestsAreBoundBySeekAndRotation() {
        HddParams hdd = ONE_DISK.hdd();
        long span = 20L << 30, size = 4096;
        int count = 3000;
        SimResult r = new TimingEngine(ONE_DISK).run(new RandomWorkload(1, span, size, count, false, 7, STRIPED));
        double iops = count / r.elapsedSeconds();
        double predicted = 1 / (hdd.meanRandomSeekSeconds(span) + hdd.revolutionSeconds() / 2);
        assertEquals(predicted, iops, predicted * 0.08, "random 4 KiB IOPS vs 1/(mean seek + half rotation)");
        assertTrue(r.totalSeeks() >= count - 2, "nearly every random request seeks, got " + r.totalSeeks());
        double fullDiskIops = 1 / (hdd.meanRandomSeekSeconds((long) hdd.capacityBytes()) + hdd.revolutionSeconds() / 2);
        assertTrue(fullDiskIops < iops, "short-stroking a 20 GB span beats random over the whole disk");
    }

    /** The plain disk (no cache, FIFO, one zone, no flows): the closed form below is that model's. */
    @Test
    void interleavedRanksPaySeeksThatOneContiguousReaderDoesNot() {
        SimPfsConfig config = SimPfsConfig.builder().hservers(1).sservers(0).extentLocks(false).plainModel().build();
        HddParams hdd = config.hdd();
        NetworkParams net = config.network();
        int ranks = 8;
        long block = 64L << 20, transfer = 1L << 20;
        SimResult interleaved = new TimingEngine(config).run(new IorWorkload(ranks, block, transfer, 1, false, false, false, 1, STRIPED));
        SimResult contiguous = new TimingEngine(config).run(new IorWorkload(1, ranks * block, transfer, 1, false, false, false, 1, STRIPED));
        assertEquals(interleaved.bytesRead(), contiguous.bytesRead());

        // The model's prediction: the single reader alternates device and network per request with no seek;
        // the eight readers keep the disk busy, and each round of eight requests visits the eight regions in
        // rank order (seek of one block between neighbours, seven blocks back to rank 0), each after half a turn.
        long rounds = block / transfer;
        double transferTime = transfer * hdd.secondsPerByte();
        double network = net.setupSeconds() + transfer * net.secondsPerByte();
        double predictedContiguous = ranks * rounds * (transferTime + network);
        double round = (ranks - 1) * hdd.seekSeconds(block) + hdd.seekSeconds((ranks - 1) * block)
                + ranks * (hdd.revolutionSeconds() / 2 + transferTime);
        double firstRound = round - hdd.seekSeconds((ranks - 1) * block) - hdd.revolutionSeconds() / 2;
        double predictedInterleaved = firstRound + (rounds - 1) * round + network;
        assertEquals(predictedContiguous, contiguous.elapsedSeconds(), predictedContiguous * 0.01);
        assertEquals(predictedInterleaved, interleaved.elapsedSeconds(), predictedInterleaved * 0.02);
        double factor = interleaved.elapsedSeconds() / contiguous.elapsedSeconds();
        assertEquals(predictedInterleaved / predictedContiguous, factor, 0.03 * factor);
        assertTrue(interleaved.totalSeeks() > ranks * (rounds - 1), "interleaved reads seek on (nearly) every request");
        assertEquals(0, contiguous.totalSeeks());
    }
}
