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
    /** One phase's figures; {@code delegates} is the replay of the delegated run, null without one. */
    public record Row(String phase, double independentMiBps, double collectiveMiBps, long independentRequests, long collectiveRequests,
                      long independentSeeks, long collectiveSeeks, SimResult independent, SimResult collective, SimResult delegates) {
        public double ratio() {
            return collectiveMiBps / independentMiBps;
        }
    }

    private SimCollectiveBench() {
    }

    /** The session the delegates' storage requests of a phase are recorded under. */
    static String delegateSession(boolean write) {
        return "delegates-" + (write ? "write" : "read");
    }

    /** The session a phase is recorded under: what the launcher replays. */
    static String session(boolean collective, boolean write) {
        return (collective ? "collective-" : "independent-") + (write ? "write" : "read");
    }

    /**
     * What each rank's calls look like. {@code CALLS}: IOR, one call per transfer, rank r's transfer i at
     * (i·np + r)·t (also a FLASH-I/O-like checkpoint of {@code segments} small variables per rank). {@code VIEW}:
     * the same bytes in one call through a strided view. {@code TILE}: MPI-Tile-IO, one call through a subarray
     * view of the rank's tile of {@code segments} rows of {@code t} bytes in a 2-D array of tiles.
     */
    public enum Shape {
        CALLS("one call per transfer (IOR)"), VIEW("one call per rank through a strided view"),
        TILE("one call per rank through a subarray view of its tile (MPI-Tile-IO)");

        final String description;

        Shape(String description) {
            this.description = description;
        }
    }

    /** Tiles across (x) of the {@code np} tiles of {@link Shape#TILE}: the largest divisor of np not above its square root. */
    static int tilesAcross(int np) {
        int x = (int) Math.sqrt(np);
        while (np % x != 0) x--;
        return np / x;
    }

    /**
     * With {@code delegates} &gt; 0 a second job runs the independent phase with that many I/O delegates
     * ({@code pdla run --delegates}), and the table gains its columns: bandwidth, storage requests, lock
     * conflicts and clients per server per call for independent, two-phase and delegated I/O.
     */
    public static List<Row> run(int np, int delegates, int transfer, int segments, Shape shape, Map<String, String> hints, Path root, PrintStream out)
            throws IOException, InterruptedException {
        Files.createDirectories(root);
        SimPfs fs = SimPfs.open(root, SimPfsConfig.builder().build());
        for (boolean c : new boolean[]{false, true}) {
            for (boolean w : new boolean[]{true, false}) RecordedStreams.clear(fs, session(c, w));
        }
        for (boolean w : new boolean[]{true, false}) RecordedStreams.clear(fs, delegateSession(w));
        List<String> args = new ArrayList<>(List.of(root.toString(), Integer.toString(transfer), Integer.toString(segments), shape.name().toLowerCase()));
        hints.forEach((k, v) -> args.add(k + "=" + v));
        MpjJob.Result r = MpjJob.builder(SimCollectiveMain.class.getName()).processes(np)
                .classPath(MpjJob.currentClassPath()).args(args).build().run(3600);
        long done = r.output().lines().filter(l -> l.startsWith("DONE ")).count();
        if (r.timedOut() || done != np || r.output().contains("FAIL ")) {
            throw new IOException("the recorded run did not finish cleanly (" + done + " of " + np + " ranks):\n" + r.output());
        }
        if (delegates > 0) {
            MpjJob.Result d = MpjJob.builder(io.pdla.mpiio.launch.RankMain.class.getName()).processes(np).delegates(delegates)
                    .env(io.pdla.mpiio.launch.RankMain.ENV_MAIN_CLASS, SimCollectiveMain.class.getName())
                    .classPath(MpjJob.currentClassPath()).args(args).build().run(3600);
            long ok = d.output().lines().filter(l -> l.startsWith("DONE ")).count();
            if (d.timedOut() || ok != np || d.output().contains("FAIL ")) {
                throw new IOException("the delegated run did not finish cleanly (" + ok + " of " + np + " ranks):\n" + d.output());
            }
        }
        List<Row> rows = new ArrayList<>();
        TimingEngine engine = new TimingEngine(fs.config());
        for (boolean write : new boolean[]{true, false}) {
            SimResult ind = engine.run(RecordedStreams.load(fs, session(false, write)));
            SimResult col = engine.run(RecordedStreams.load(fs, session(true, write)));
            double bi = write ? ind.writeBandwidthMiBps() : ind.readBandwidthMiBps();
            double bc = write ? col.writeBandwidthMiBps() : col.readBandwidthMiBps();
            SimResult del = delegates > 0 ? engine.run(RecordedStreams.load(fs, delegateSession(write))) : null;
            rows.add(new Row(write ? "write" : "read", bi, bc, ind.requests(), col.requests(), ind.totalSeeks(), col.totalSeeks(), ind, col, del));
        }
        if (shape == Shape.TILE) {
            out.printf("sim-pfs (virtual time), %d ranks, tiles of %d rows x %d B (%d x %d tiles), %s, hints %s, root %s%n",
                    np, segments, transfer, tilesAcross(np), np / tilesAcross(np), shape.description, hints, root);
        } else {
            out.printf("sim-pfs (virtual time), %d ranks, %d B transfers x %d segments, %s, hints %s, root %s%n",
                    np, transfer, segments, shape.description, hints, root);
        }
        out.printf("%-6s %14s %14s %8s %10s %10s %10s %10s%n", "phase", "indep MiB/s", "coll MiB/s", "ratio", "indep req", "coll req", "indep seek", "coll seek");
        for (Row row : rows) {
            out.printf("%-6s %14.1f %14.1f %8.2f %10d %10d %10d %10d%n", row.phase(), row.independentMiBps(), row.collectiveMiBps(), row.ratio(),
                    row.independentRequests(), row.collectiveRequests(), row.independentSeeks(), row.collectiveSeeks());
        }
        if (delegates > 0) {
            out.printf("%nwith %d I/O delegates (independent calls shipped to them; their storage requests replayed):%n", delegates);
            out.printf("%-6s %-12s %12s %10s %16s %16s %8s%n", "phase", "path", "MiB/s", "requests", "max lock confl.", "mean clients/srv", "vs indep");
            for (Row row : rows) {
                SimResult[] r3 = {row.independent(), row.collective(), row.delegates()};
                String[] names = {"independent", "two-phase", "delegates"};
                for (int i = 0; i < 3; i++) {
                    SimResult x = r3[i];
                    double bw = row.phase().equals("write") ? x.writeBandwidthMiBps() : x.readBandwidthMiBps();
                    double base = row.phase().equals("write") ? r3[0].writeBandwidthMiBps() : r3[0].readBandwidthMiBps();
                    out.printf("%-6s %-12s %12.1f %10d %16d %16.2f %8.2f%n", row.phase(), names[i], bw, x.requests(),
                            x.maxLockConflictsPerServerPerCall(), x.meanClientsPerServerPerCall(), bw / base);
                }
            }
        }
        return rows;
    }
}
