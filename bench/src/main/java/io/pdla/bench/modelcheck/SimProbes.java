package io.pdla.bench.modelcheck;

import io.pdla.costmodel.ModelParameters;
import io.pdla.costmodel.calibration.ProbeRunner;
import io.pdla.costmodel.calibration.ProbeTarget;
import io.pdla.simpfs.config.HddParams;
import io.pdla.simpfs.config.NetworkParams;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.simpfs.config.SsdParams;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.ServerClass;
import io.pdla.simpfs.timing.Request;
import io.pdla.simpfs.timing.RequestStream;
import io.pdla.simpfs.timing.TimingEngine;
import io.pdla.simpfs.timing.Workload;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Calibration probes for the cost model measured in sim-pfs VIRTUAL time: a probe of {@code c} requests of
 * {@code s} bytes is c ranks (one per client node, m = 1) each issuing one request of s bytes against ONE
 * server at the same virtual instant; the probe's time is the engine's elapsed virtual time until the last
 * completes. This is PSA's procedure (network with one client and one server, storage on one server) with the
 * parts separated the only way a simulator allows: the part not being probed is made free.
 *
 * <ul>
 * <li>{@link ProbeTarget#NETWORK}: one SSD server whose device costs nothing (0 ms, 10^12 MB/s); the c replies
 *     serialise on the server's link, so a probe takes {@code c*(setup + s/linkRate)}.</li>
 * <li>{@link ProbeTarget#HDD}: one HDD server behind a free network (0 us, 10^9 MB/s). Each request reads a
 *     distinct slot drawn at random (seeded) from {@link #HDD_SLOTS} slots spaced {@link #HDD_SLOT_STRIDE}
 *     apart, as {@code pdla cost calibrate --uri} does through a real driver; one engine (one disk head) serves
 *     all HDD probes, so every request seeks from wherever the last one ended. The fitted a_h is therefore
 *     the mean seek over the slot span plus half a revolution; b_h is the transfer rate.</li>
 * <li>{@link ProbeTarget#SSD_READ}, {@link ProbeTarget#SSD_WRITE}: one SSD server behind a free network.</li>
 * </ul>
 */
public final class SimProbes {
    /** Slots of the HDD scratch file (DriverProbes uses max(16, 4 * max concurrency) = 32 for the default plan). */
    public static final int HDD_SLOTS = 32;
    /** Slot spacing: twice the default plan's largest probe (4 MiB), so a probe never ends where another starts. */
    public static final long HDD_SLOT_STRIDE = 8L << 20;

    private static final NetworkParams FREE_NETWORK = new NetworkParams(0, 1e9, 1);
    private static final SsdParams FREE_SSD = new SsdParams(0, 1e12, 0, 1e12, 1);

    private final SimPfsConfig config;

    public SimProbes(SimPfsConfig config) {
        this.config = config;
    }

    /** One runner per target, each against its own single-server engine derived from {@code config}. */
    public Map<ProbeTarget, ProbeRunner> runners(long seed) {
        Map<ProbeTarget, ProbeRunner> m = new EnumMap<>(ProbeTarget.class);
        SimPfsConfig netOnly = config.toBuilder().hservers(0).sservers(1).ssd(FREE_SSD).extentLocks(false).build();
        m.put(ProbeTarget.NETWORK, fixedSlots(new TimingEngine(netOnly), false));
        // Without the drive cache: probes re-draw slots, and a re-read slot would be a cache hit, which the cost
        // model's per-request start-up a_h does not describe.
        SimPfsConfig hddOnly = config.toBuilder().hservers(1).sservers(0).network(FREE_NETWORK).extentLocks(false)
                .hdd(config.hdd().withCache(0, 1)).build();
        m.put(ProbeTarget.HDD, randomSlots(new TimingEngine(hddOnly), new SplittableRandom(seed)));
        SimPfsConfig ssdOnly = config.toBuilder().hservers(0).sservers(1).network(FREE_NETWORK).extentLocks(false).build();
        m.put(ProbeTarget.SSD_READ, fixedSlots(new TimingEngine(ssdOnly), false));
        m.put(ProbeTarget.SSD_WRITE, fixedSlots(new TimingEngine(ssdOnly), true));
        return m;
    }

    /**
     * The parameters read off sim-pfs's configuration by hand (the mapping documented in RESULTS-model-check.md):
     * e = network setup, v = 1/linkRate, b_h = 1/transferRate, a_h = half a revolution + the mean seek between
     * two uniform points of a span {@code hddSeekSpanBytes}, SSD pairs = the configured start-up and 1/rate.
     */
    public static ModelParameters derived(SimPfsConfig c, long hddSeekSpanBytes) {
        HddParams h = c.hdd();
        SsdParams s = c.ssd();
        return new ModelParameters(
                new io.pdla.costmodel.NetworkParameters(c.network().setupSeconds(), c.network().secondsPerByte()),
                new io.pdla.costmodel.DeviceParameters(h.revolutionSeconds() / 2 + h.meanRandomSeekSeconds(hddSeekSpanBytes),
                        h.secondsPerByte()),
                new io.pdla.costmodel.DeviceParameters(s.readStartupMs() / 1e3, 1 / (s.readMBps() * 1e6)),
                new io.pdla.costmodel.DeviceParameters(s.writeStartupMs() / 1e3, 1 / (s.writeMBps() * 1e6)));
    }

    /** The HDD probes' seek span: the distance between the first and the last slot. */
    public static long hddProbeSpan() {
        return (HDD_SLOTS - 1) * HDD_SLOT_STRIDE;
    }

    /** Rank i reads (or writes) slot i: no two requests of a probe touch the same bytes. */
    private static ProbeRunner fixedSlots(TimingEngine engine, boolean write) {
        return (size, c) -> engine.run(new SlotWorkload(c, size, write, i -> (long) i * Math.max(size, 1) * 2)).elapsedSeconds();
    }

    private static ProbeRunner randomSlots(TimingEngine engine, SplittableRandom random) {
        return (size, c) -> {
            if (size > HDD_SLOT_STRIDE / 2) {
                throw new IllegalArgumentException("HDD probe of " + size + " bytes exceeds half the slot stride " + HDD_SLOT_STRIDE);
            }
            if (c > HDD_SLOTS) {
                throw new IllegalArgumentException("HDD probe concurrency " + c + " exceeds the " + HDD_SLOTS + " slots");
            }
            int[] slots = distinct(random, c);
            return engine.run(new SlotWorkload(c, size, false, i -> slots[i] * HDD_SLOT_STRIDE)).elapsedSeconds();
        };
    }

    private static int[] distinct(SplittableRandom random, int c) {
        int[] all = new int[HDD_SLOTS];
        for (int i = 0; i < all.length; i++) all[i] = i;
        for (int i = 0; i < c; i++) {
            int j = i + random.nextInt(all.length - i);
            int t = all[i];
            all[i] = all[j];
            all[j] = t;
        }
        return java.util.Arrays.copyOf(all, c);
    }

    /** c ranks, one request each, at {@code offset.applyAsLong(rank)} of one file laid out on the one server. */
    private record SlotWorkload(int ranks, long size, boolean write, java.util.function.IntToLongFunction offset)
            implements Workload {
        @Override
        public String description() {
            return "probe " + ranks + " x " + size + (write ? " write" : " read");
        }

        @Override
        public List<Layout> files() {
            return List.of(Layout.oneDH(ServerClass.BOTH, 64 * 1024));
        }

        @Override
        public RequestStream stream(int rank) {
            return new RequestStream() {
                boolean done;

                @Override
                public boolean next(Request into) {
                    if (done) return false;
                    done = true;
                    into.set(write ? Request.Kind.WRITE : Request.Kind.READ, 0).add(offset.applyAsLong(rank), size);
                    return true;
                }
            };
        }
    }
}
