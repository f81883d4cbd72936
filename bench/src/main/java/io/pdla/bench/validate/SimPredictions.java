package io.pdla.bench.validate;

import io.pdla.costmodel.DeviceParameters;
import io.pdla.costmodel.ModelParameters;
import io.pdla.simpfs.config.FlowParams;
import io.pdla.simpfs.config.NetworkParams;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.simpfs.config.SsdParams;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.ServerClass;
import io.pdla.simpfs.timing.SimResult;
import io.pdla.simpfs.timing.TimingEngine;
import io.pdla.simpfs.timing.Workload;
import io.pdla.simpfs.workload.IorWorkload;
import io.pdla.simpfs.workload.TileIoWorkload;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * sim-pfs's predictions for the five validation workloads (bench/validate-sim.sh), on one SSD-class server
 * calibrated to this machine's disk: the SSD read and write pairs come from {@code pdla cost calibrate --device ssd
 * --hint posix_direct_io=true --save FILE}; the ranks run on the machine holding the disk, so the network costs
 * nothing and there are no flows (the shim calls the driver directly). The workloads are the ones the script runs
 * for real, with the same sizes. Usage: {@code SimPredictions PARAMS.properties NP} prints one line per workload
 * and phase: {@code name<TAB>read|write<TAB>MiB/s}.
 */
public final class SimPredictions {
    private SimPredictions() {
    }

    /** The SSD-class server of the calibrated disk, {@code np} ranks on its one node. */
    public static SimPfsConfig config(ModelParameters p, int np) { return config(p, np, 1); }

    /** As {@link #config(ModelParameters, int)} with {@code channels} commands in service at once on the disk. */
    public static SimPfsConfig config(ModelParameters p, int np, int channels) {
        DeviceParameters r = p.ssdRead(), w = p.ssdWrite();
        SsdParams ssd = new SsdParams(r.startupSeconds() * 1e3, 1 / (r.secondsPerByte() * 1e6),
                w.startupSeconds() * 1e3, 1 / (w.secondsPerByte() * 1e6), channels);
        return SimPfsConfig.builder().hservers(0).sservers(1).defaultLayout("1dh,stripe=64k,space=ssd").ssd(ssd)
                .network(new NetworkParams(0, 1e9, np)).flow(FlowParams.WHOLE).extentLocks(false).build();
    }

    /** Workload name -> (read, write) workloads; the sizes match bench/validate-sim.sh's real runs. */
    public static Map<String, Workload[]> workloads(int np, long perRank) {
        Layout one = Layout.oneDH(ServerClass.SSD, 64 << 10);
        Map<String, Workload[]> m = new LinkedHashMap<>();
        long k16 = 16 << 10, k256 = 256 << 10, m1 = 1 << 20;
        m.put("ior-16k-strided", ior(np, k16, k16, (int) (perRank / k16), one));
        m.put("ior-256k-strided", ior(np, k256, k256, (int) (perRank / k256), one));
        m.put("ior-1m-segmented", ior(np, perRank, m1, 1, one));
        // pdla bench tile -np 4: a 2 x 2 grid (--nx-tiles 2) of 512 x 512 tiles of 8-byte elements, one call per tile
        int side = (int) Math.round(Math.sqrt(np));
        m.put("tile-io", new Workload[]{new TileIoWorkload(side, np / side, 512, 512, 8, 0, 0, false, 1, one),
                new TileIoWorkload(side, np / side, 512, 512, 8, 0, 0, true, 1, one)});
        // pdla bench direct run 2 with read-ahead: each rank reads its replica region (perRank bytes) sequentially in
        // read-ahead windows of 4 MiB
        m.put("replica-read-readahead", new Workload[]{new IorWorkload(np, perRank, 4L << 20, 1, false, false, false, 1, one), null});
        return m;
    }

    private static Workload[] ior(int np, long block, long transfer, int segments, Layout l) {
        return new Workload[]{new IorWorkload(np, block, transfer, segments, false, false, false, 1, l),
                new IorWorkload(np, block, transfer, segments, false, true, false, 1, l)};
    }

    public static double mibps(SimPfsConfig c, Workload w) {
        SimResult r = new TimingEngine(c).run(w);
        return w instanceof IorWorkload i && i.write() || w instanceof TileIoWorkload t && t.write()
                ? r.writeBandwidthMiBps() : r.readBandwidthMiBps();
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: SimPredictions PARAMS.properties NP [PER_RANK_BYTES]");
            System.exit(2);
        }
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(args[0]))) {
            props.load(in);
        }
        int np = Integer.parseInt(args[1]);
        long perRank = args.length > 2 ? Long.parseLong(args[2]) : 32L << 20;
        ModelParameters p = ModelParameters.fromProperties(props);
        int channels = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        SimPfsConfig c = config(p, np, channels);
        System.out.printf(Locale.ROOT, "# SSD-class server from %s: read %.3f ms + 1/(%.1f MB/s), write %.3f ms + 1/(%.1f MB/s)%n",
                args[0], c.ssd().readStartupMs(), c.ssd().readMBps(), c.ssd().writeStartupMs(), c.ssd().writeMBps());
        for (Map.Entry<String, Workload[]> e : workloads(np, perRank).entrySet()) {
            System.out.printf(Locale.ROOT, "%s\tread\t%.1f%n", e.getKey(), mibps(c, e.getValue()[0]));
            if (e.getValue()[1] != null) System.out.printf(Locale.ROOT, "%s\twrite\t%.1f%n", e.getKey(), mibps(c, e.getValue()[1]));
        }
    }
}
