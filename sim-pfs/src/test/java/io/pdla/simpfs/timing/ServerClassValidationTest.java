package io.pdla.simpfs.timing;

import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.ServerClass;
import io.pdla.simpfs.workload.IorWorkload;
import io.pdla.simpfs.workload.RandomWorkload;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** HServers against SServers on the default 8 + 4 system (S-PDLA's testbed shape). */
class ServerClassValidationTest {
    private static final SimPfsConfig DEFAULTS = SimPfsConfig.builder().extentLocks(false).build();

    @Test
    void ssdServersBeatHddServersForSmallRandomRequests() {
        long span = 8L << 30, size = 16 << 10;
        SimResult hdd = new TimingEngine(DEFAULTS).run(new RandomWorkload(16, span, size, 200, false, 3, Layout.oneDH(ServerClass.HDD, 64 << 10)));
        SimResult ssd = new TimingEngine(DEFAULTS).run(new RandomWorkload(16, span, size, 200, false, 3, Layout.oneDH(ServerClass.SSD, 64 << 10)));
        assertTrue(ssd.readBandwidthMiBps() > 3 * hdd.readBandwidthMiBps(),
                "SSD " + ssd.readBandwidthMiBps() + " vs HDD " + hdd.readBandwidthMiBps() + " MiB/s");
    }

    @Test
    void manyHddServersBeatFewSsdServersForLargeRequests() {
        long request = 32L << 20, block = 128L << 20;
        SimResult hdd = new TimingEngine(DEFAULTS).run(new IorWorkload(8, block, request, 1, false, false, false, 1, Layout.oneDH(ServerClass.HDD, request / 8)));
        SimResult ssd = new TimingEngine(DEFAULTS).run(new IorWorkload(8, block, request, 1, false, false, false, 1, Layout.oneDH(ServerClass.SSD, request / 4)));
        assertTrue(hdd.readBandwidthMiBps() > ssd.readBandwidthMiBps(),
                "8 HServers " + hdd.readBandwidthMiBps() + " vs 4 SServers " + ssd.readBandwidthMiBps() + " MiB/s for 32 MiB requests");
        // ... and the SSD servers are limited by their links, not their devices.
        double ssdUtil = ssd.servers().stream().filter(s -> s.kind().equals("ssd")).mapToDouble(ServerStats::utilization).max().orElseThrow();
        assertTrue(ssdUtil < 0.9, "SSD devices should wait on the network, utilisation " + ssdUtil);
    }

    /** Best read bandwidth of a hybrid layout over HServer strips sh = 4 KiB, 8 KiB, ... (ss takes the rest). */
    private static double bestHybrid(int ranks, long request) {
        double best = 0;
        for (long sh = 4096; 8 * sh < request; sh *= 2) {
            long ss = (request - 8 * sh) / 4;
            best = Math.max(best, new TimingEngine(DEFAULTS).run(new IorWorkload(ranks, 16 * request, request, 1, false, false, false, 1,
                    Layout.hybrid(sh, ss))).readBandwidthMiBps());
        }
        return best;
    }

    private static double read(int ranks, long request, Layout layout) {
        return new TimingEngine(DEFAULTS).run(new IorWorkload(ranks, 16 * request, request, 1, false, false, false, 1, layout)).readBandwidthMiBps();
    }

    /** S-PDLA (S1 5.2) sent requests below 4 MB to SServers and 4 MB requests to HServers+SServers. */
    @Test
    void mediumRequestsGoToSsdServersAndLargeOnesToHddPlusSsdServers() {
        long medium = 256 << 10, large = 4 << 20;
        double mediumSsd = read(32, medium, Layout.oneDH(ServerClass.SSD, medium / 4));
        double mediumHdd = read(32, medium, Layout.oneDH(ServerClass.HDD, medium / 8));
        double mediumHybrid = bestHybrid(32, medium);
        assertTrue(mediumSsd > mediumHybrid && mediumSsd > mediumHdd,
                "256 KiB: SSD " + mediumSsd + ", hybrid " + mediumHybrid + ", HDD " + mediumHdd);
        double largeSsd = read(32, large, Layout.oneDH(ServerClass.SSD, large / 4));
        double largeHdd = read(32, large, Layout.oneDH(ServerClass.HDD, large / 8));
        double largeHybrid = bestHybrid(32, large);
        assertTrue(largeHybrid > 1.1 * largeSsd && largeHybrid > 1.1 * largeHdd,
                "4 MiB: hybrid " + largeHybrid + ", SSD " + largeSsd + ", HDD " + largeHdd);
    }
}
