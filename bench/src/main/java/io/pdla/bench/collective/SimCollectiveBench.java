package io.pdla.bench.collective;

import io.pdla.mpiio.launch.MpjJob;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.simpfs.store.RecordedStreams;
import io.pdla.simpfs.store.SimPfs;
import io.pdla.simpfs.timing.SimResult;
import io.pdla.simpfs.timing.TimingEngine;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Collective against independent I/O on sim-pfs in virtual time, measured on the production path: an MPJ
 * job runs the shim (two-phase engine included) against sim-pfs and records each phase's request streams;
 * the timing engine replays them. Only the storage requests are timed, so the figure is what the access
 * pattern costs the servers, free of this machine's CPU noise.
 */
public final class SimCollectiveBench {
    public record Row(String phase, double independentMiBps, double collectiveMiBps, long independentRequests, long collectiveRequests,
                      long independentSeeks, long collectiveSeeks) {
        public double ratio() {
            return collectiveMiBps / independentMiBps;
        }
    }

    private SimCollectiveBench() {
    }

    /** The session a phase is recorded under: what the launcher replays. */
    static String session(boolean collective, boolean write) {
        return (collective ? "collective-" : "independent-") + (write ? "write" : "read");
    }

    public static List<Row> run(int np, int transfer, int segments, boolean view, Map<String, String> hints, Path root, PrintStream out)
            throws IOException, InterruptedException {
        Files.createDirectories(root);
        SimPfs fs = SimPfs.open(root, SimPfsConfig.builder().build());
        for (boolean c : new boolean[]{false, true}) {
            for (boolean w : new boolean[]{true, false}) RecordedStreams.clear(fs, session(c, w));
        }
        List<String> args = new ArrayList<>(List.of(root.toString(), Integer.toString(transfer), Integer.toString(segments), view ? "view" : "calls"));
        hints.forEach((k, v) -> args.add(k + "=" + v));
        MpjJob.Result r = MpjJob.builder(SimCollectiveMain.class.getName()).processes(np)
                .classPath(MpjJob.currentClassPath()).args(args).build().run(3600);
        long done = r.output().lines().filter(l -> l.startsWith("DONE ")).count();
        if (r.timedOut() || done != np || r.output().contains("FAIL ")) {
            throw new IOException("the recorded run did not finish cleanly (" + done + " of " + np + " ranks):\n" + r.output());
        }
        List<Row> rows = new ArrayList<>();
        TimingEngine engine = new TimingEngine(fs.config());
        for (boolean write : new boolean[]{true, false}) {
            SimResult ind = engine.run(RecordedStreams.load(fs, session(false, write)));
            SimResult col = engine.run(RecordedStreams.load(fs, session(true, write)));
            double bi = write ? ind.writeBandwidthMiBps() : ind.readBandwidthMiBps();
            double bc = write ? col.writeBandwidthMiBps() : col.readBandwidthMiBps();
            rows.add(new Row(write ? "write" : "read", bi, bc, ind.requests(), col.requests(), ind.totalSeeks(), col.totalSeeks()));
        }
        out.printf("sim-pfs (virtual time), %d ranks, %d B transfers x %d segments, %s, hints %s, root %s%n",
                np, transfer, segments, view ? "one call per rank through a strided view" : "one call per transfer (IOR)", hints, root);
        out.printf("%-6s %14s %14s %8s %10s %10s %10s %10s%n", "phase", "indep MiB/s", "coll MiB/s", "ratio", "indep req", "coll req", "indep seek", "coll seek");
        for (Row row : rows) {
            out.printf("%-6s %14.1f %14.1f %8.2f %10d %10d %10d %10d%n", row.phase(), row.independentMiBps(), row.collectiveMiBps(), row.ratio(),
                    row.independentRequests(), row.collectiveRequests(), row.independentSeeks(), row.collectiveSeeks());
        }
        return rows;
    }
}
