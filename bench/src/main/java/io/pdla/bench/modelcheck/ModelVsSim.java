package io.pdla.bench.modelcheck;

import io.pdla.size.ByteSize;
import io.pdla.costmodel.AccessPattern;
import io.pdla.costmodel.LayoutChoice;
import io.pdla.costmodel.LayoutCostModel;
import io.pdla.costmodel.ModelParameters;
import io.pdla.costmodel.Op;
import io.pdla.costmodel.calibration.CalibrationResult;
import io.pdla.costmodel.calibration.Calibrator;
import io.pdla.costmodel.calibration.LinearFit;
import io.pdla.costmodel.calibration.ProbePlan;
import io.pdla.costmodel.calibration.ProbeTarget;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.ServerClass;
import io.pdla.simpfs.timing.TimingEngine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The "later check" of issue 6: over a grid of (n HServers, p processes, request size s, op), the cost model's
 * predicted time of every candidate layout (1-DH, 1-DV, 2-D for every group count 1 &lt; g &lt; n) against
 * sim-pfs's virtual time of the same workload ({@link RoundsWorkload}: p ranks, each its own region, one
 * request of s bytes per round, {@code rounds} rounds separated by barriers, m = 1).
 *
 * <p>Layouts are built in sim-pfs as the cost model assumes them: a 1-DH request is striped over all n servers
 * (strip s/n), a 2-D request over its group of n/g servers (strip s/(n/g); sim-pfs's {@code 2d:G} takes the
 * group SIZE G = n/g), 1-DV and 2-D regions are one rank's region. Model parameters come from calibrating the
 * cost model against sim-pfs with virtual-time probes ({@link SimProbes}).
 *
 * <p>Run: see {@code bench/RESULTS-model-check.md} ({@link #main}).
 */
public final class ModelVsSim {

    /** The grid and the workload shape. */
    public record Grid(List<Integer> servers, List<Integer> processes, List<Long> sizes, List<Op> ops, int rounds,
                       RoundsWorkload.Order order, boolean barriers, int ranksPerNode, long seed) {
        public Grid {
            servers = List.copyOf(servers);
            processes = List.copyOf(processes);
            sizes = List.copyOf(sizes);
            ops = List.copyOf(ops);
        }

        public static Grid standard(RoundsWorkload.Order order) {
            return new Grid(List.of(4, 8, 16), List.of(1, 2, 4, 8, 12, 16, 32, 64),
                    List.of(16L << 10, 64L << 10, 256L << 10, 1L << 20, 4L << 20, 16L << 20),
                    List.of(Op.READ, Op.WRITE), 8, order, true, 1, 1);
        }

        public Grid withServers(List<Integer> n) {
            return new Grid(n, processes, sizes, ops, rounds, order, barriers, ranksPerNode, seed);
        }

        public Grid withOrder(RoundsWorkload.Order o) {
            return new Grid(servers, processes, sizes, ops, rounds, o, barriers, ranksPerNode, seed);
        }

        public Grid withBarriers(boolean b) {
            return new Grid(servers, processes, sizes, ops, rounds, order, b, ranksPerNode, seed);
        }

        /** m ranks per client node (consecutive ranks share a node, as sim-pfs assigns them). */
        public Grid withRanksPerNode(int m) {
            return new Grid(servers, processes, sizes, ops, rounds, order, barriers, m, seed);
        }
    }

    /** One candidate layout at one grid point: the model's time and sim-pfs's. */
    public record Candidate(String name, io.pdla.storage.Layout.Distribution layout, int groups, double predicted, double simulated) {
        public double ratio() {
            return predicted / simulated;
        }

        /** 1-DH, 1-DV or 2-D (group COUNT g; the sim-pfs spec is 2d:n/g). */
        public String kind() {
            return layout.label();
        }
    }

    /** One grid point with all its candidates and both winners. */
    public record Point(int n, int p, long s, Op op, List<Candidate> candidates) {
        /** The model's best, with LayoutCostModel.best's tie rule (earliest candidate). */
        public Candidate modelBest() {
            Candidate b = candidates.get(0);
            for (Candidate c : candidates) if (c.predicted < b.predicted) b = c;
            return b;
        }

        public Candidate simBest() {
            Candidate b = candidates.get(0);
            for (Candidate c : candidates) if (c.simulated < b.simulated) b = c;
            return b;
        }

        public boolean agrees() {
            return modelBest().name.equals(simBest().name);
        }

        /** Simulated time of the model's pick over the simulated best: 1 when they agree. */
        public double regret() {
            return modelBest().simulated / simBest().simulated;
        }

        /** Simulated gap between the fastest and the second-fastest layout (how clear the sim's winner is). */
        public double simMargin() {
            double[] t = candidates.stream().mapToDouble(Candidate::simulated).sorted().toArray();
            return t.length < 2 ? Double.POSITIVE_INFINITY : t[1] / t[0];
        }
    }

    /** The whole comparison. */
    public record Report(Grid grid, ModelParameters parameters, List<Point> points) {
        public double agreement() {
            return points.stream().filter(Point::agrees).count() / (double) points.size();
        }

        /** Fraction of points where the model's pick is within {@code tolerance} (e.g. 0.05) of sim's fastest. */
        public double agreementWithin(double tolerance) {
            return points.stream().filter(pt -> pt.regret() <= 1 + tolerance).count() / (double) points.size();
        }

        public List<Point> mismatches() {
            return points.stream().filter(pt -> !pt.agrees()).toList();
        }

        /** predicted/simulated of every candidate of one kind (1-DH, 1-DV, 2-D) over the grid, sorted. */
        public double[] ratios(io.pdla.storage.Layout.Distribution kind) {
            return points.stream().flatMap(pt -> pt.candidates.stream()).filter(c -> c.layout == kind)
                    .mapToDouble(Candidate::ratio).sorted().toArray();
        }

        public double[] allRatios() {
            return points.stream().flatMap(pt -> pt.candidates.stream()).mapToDouble(Candidate::ratio).sorted().toArray();
        }

        /** predicted/simulated of the model's chosen layout at each point. */
        public double[] chosenRatios() {
            return points.stream().mapToDouble(pt -> pt.modelBest().ratio()).sorted().toArray();
        }
    }

    private ModelVsSim() {
    }

    /** The sim-pfs configuration with n HServers and no SServers (the HDD model's setting), locks not counted. */
    public static SimPfsConfig simConfig(SimPfsConfig base, int n, int ranksPerNode) {
        var net = base.network();
        return base.toBuilder().hservers(n).sservers(0).extentLocks(false)
                .network(new io.pdla.simpfs.config.NetworkParams(net.setupUs(), net.linkMBps(), ranksPerNode)).build();
    }

    /** Calibrates all four probe targets against sim-pfs in virtual time with the default probe plan. */
    public static CalibrationResult calibrate(SimPfsConfig base, long seed) {
        try {
            return new Calibrator().calibrate(new SimProbes(base).runners(seed), ProbePlan.defaults(), ModelParameters.defaults());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Report run(SimPfsConfig base, ModelParameters params, Grid grid) {
        List<Point> points = new ArrayList<>();
        for (int n : grid.servers()) {
            SimPfsConfig config = simConfig(base, n, grid.ranksPerNode());
            LayoutCostModel model = LayoutCostModel.hdd(params, n);
            for (int p : grid.processes()) {
                for (long s : grid.sizes()) {
                    for (Op op : grid.ops()) {
                        points.add(point(config, model, grid, n, p, s, op));
                    }
                }
            }
        }
        return new Report(grid, params, points);
    }

    static Point point(SimPfsConfig config, LayoutCostModel model, Grid grid, int n, int p, long s, Op op) {
        // with p < m the p ranks share one client node: the model's m is then p
        AccessPattern pattern = AccessPattern.of(p, Math.min(p, grid.ranksPerNode()), s, grid.rounds(), op);
        long region = s * grid.rounds();
        List<Candidate> out = new ArrayList<>();
        for (LayoutChoice choice : model.rank(pattern)) {
            Layout simLayout = simLayout(choice.layout(), choice.groups(), n, s, region);
            RoundsWorkload w = new RoundsWorkload(p, s, grid.rounds(), op == Op.WRITE, grid.order(), grid.barriers(), grid.seed(), simLayout);
            double simulated = new TimingEngine(config).run(w).elapsedSeconds();
            out.add(new Candidate(choice.describe(), choice.layout(), choice.groups(), choice.seconds(), simulated));
        }
        return new Point(n, p, s, op, out);
    }

    /** The sim-pfs layout the cost model's (layout, group count g) stands for. */
    public static Layout simLayout(io.pdla.storage.Layout.Distribution layout, int groups, int n, long s, long region) {
        switch (layout) {
            case ONE_DH:
                return Layout.oneDH(ServerClass.HDD, stripe(s, n));
            case ONE_DV:
                return Layout.oneDV(ServerClass.HDD, region);
            case TWO_D: {
                int groupSize = n / groups;
                return Layout.twoD(ServerClass.HDD, groupSize, stripe(s, groupSize), region);
            }
            default:
                throw new AssertionError(layout);
        }
    }

    private static long stripe(long s, int servers) {
        if (s % servers != 0) {
            throw new IllegalArgumentException("request size " + s + " must divide evenly over " + servers + " servers");
        }
        return s / servers;
    }

    // ---------------------------------------------------------------- statistics and printing

    /** Linear-interpolated percentile of sorted values, q in [0, 1]. */
    public static double percentile(double[] sorted, double q) {
        if (sorted.length == 0) return Double.NaN;
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(sorted.length - 1, lo + 1);
        return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
    }


    static String fmt(String f, Object... a) {
        return String.format(Locale.ROOT, f, a);
    }

    static String ratioLine(String label, double[] sorted) {
        return fmt("| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f |", label, sorted.length, sorted[0],
                percentile(sorted, 0.05), percentile(sorted, 0.5), percentile(sorted, 0.95), sorted[sorted.length - 1]);
    }

    static String calibrationTable(CalibrationResult cal, ModelParameters derived) {
        StringBuilder b = new StringBuilder();
        b.append("| target | fitted start-up | derived start-up | fitted per-byte (MB/s) | configured (MB/s) | RMS rel. residual | max rel. residual |\n");
        b.append("|---|---|---|---|---|---|---|\n");
        for (ProbeTarget t : ProbeTarget.values()) {
            LinearFit f = cal.fits().get(t);
            if (f == null) continue;
            var d = Calibrator.pairOf(derived, t);
            b.append(fmt("| %s | %.4f ms | %.4f ms | %.2f | %.2f | %.2e | %.2e |%n", t.label(), f.startupSeconds() * 1e3,
                    d.startupSeconds() * 1e3, 1e-6 / f.secondsPerByte(), 1e-6 / d.secondsPerByte(),
                    f.rmsRelativeResidual(), f.maxRelativeResidual()));
        }
        return b.toString();
    }

    static String summary(String title, Report r) {
        StringBuilder b = new StringBuilder();
        b.append(fmt("%s: %d points, model's best = sim's fastest at %d (%.1f %%); model's pick within 5 %% of sim's fastest at %.1f %%, within 10 %% at %.1f %%%n",
                title, r.points().size(), r.points().size() - r.mismatches().size(), 100 * r.agreement(),
                100 * r.agreementWithin(0.05), 100 * r.agreementWithin(0.10)));
        long close = r.points().stream().filter(pt -> pt.simMargin() < 1.05).count();
        long sameRw = r.points().stream().filter(pt -> pt.op() == Op.WRITE).filter(w -> r.points().stream()
                .anyMatch(x -> x.op() == Op.READ && x.n() == w.n() && x.p() == w.p() && x.s() == w.s()
                        && sameSimTimes(x, w))).count();
        b.append(fmt("    sim's winner within 5 %% of the runner-up (near-ties) at %d points; write points with the same simulated times as the read point: %d of %d%n",
                close, sameRw, r.points().stream().filter(pt -> pt.op() == Op.WRITE).count()));
        return b.toString();
    }

    private static boolean sameSimTimes(Point a, Point b) {
        for (int i = 0; i < a.candidates().size(); i++) {
            if (Math.abs(a.candidates().get(i).simulated() / b.candidates().get(i).simulated() - 1) > 1e-9) return false;
        }
        return true;
    }

    static String ratioTable(Report r) {
        StringBuilder b = new StringBuilder();
        b.append("| layout | values | min | 5th pct | median | 95th pct | max |\n|---|---|---|---|---|---|---|\n");
        for (io.pdla.storage.Layout.Distribution l : io.pdla.costmodel.LayoutCostModel.PRICED) b.append(ratioLine(l.label(), r.ratios(l))).append('\n');
        b.append(ratioLine("all", r.allRatios())).append('\n');
        b.append(ratioLine("model's pick", r.chosenRatios())).append('\n');
        return b.toString();
    }

    static String mismatchTable(Report r) {
        StringBuilder b = new StringBuilder();
        b.append("| n | p | s | op | model's best | sim's fastest | regret (sim time of model's pick / fastest) | model's margin | sim margin |\n");
        b.append("|---|---|---|---|---|---|---|---|---|\n");
        for (Point pt : r.mismatches()) {
            Candidate mb = pt.modelBest(), sb = pt.simBest();
            b.append(fmt("| %d | %d | %s | %s | %s | %s | %.3f | %.3f | %.3f |%n", pt.n(), pt.p(), ByteSize.formatIorStyle(pt.s()),
                    pt.op().name().toLowerCase(Locale.ROOT), mb.name(), sb.name(), pt.regret(),
                    sb.predicted() / mb.predicted(), pt.simMargin()));
        }
        return b.toString();
    }

    /** The {@code k} candidates with the lowest and the {@code k} with the highest predicted/simulated ratio. */
    static String extremes(Report r, int k) {
        record Row(Point pt, Candidate c) {
        }
        List<Row> rows = new ArrayList<>();
        for (Point pt : r.points()) for (Candidate c : pt.candidates()) rows.add(new Row(pt, c));
        rows.sort(java.util.Comparator.comparingDouble(x -> x.c().ratio()));
        StringBuilder b = new StringBuilder("| n | p | s | op | layout | predicted (s) | simulated (s) | ratio |\n|---|---|---|---|---|---|---|---|\n");
        List<Row> pick = new ArrayList<>(rows.subList(0, Math.min(k, rows.size())));
        pick.addAll(rows.subList(Math.max(k, rows.size() - k), rows.size()));
        for (Row x : pick) {
            b.append(fmt("| %d | %d | %s | %s | %s | %.4f | %.4f | %.3f |%n", x.pt().n(), x.pt().p(), ByteSize.formatIorStyle(x.pt().s()),
                    x.pt().op().name().toLowerCase(Locale.ROOT), x.c().name(), x.c().predicted(), x.c().simulated(), x.c().ratio()));
        }
        return b.toString();
    }

    /** Choice tables: "model / sim" per (p, s) for each n and op. */
    static String choiceTables(Report r) {
        StringBuilder b = new StringBuilder();
        for (int n : r.grid().servers()) {
            for (Op op : r.grid().ops()) {
                b.append(fmt("%n*n = %d HServers, %s: model's best / sim-pfs's fastest (`=` agree)*%n%n", n, op.name().toLowerCase(Locale.ROOT)));
                b.append("| p \\ s |");
                for (long s : r.grid().sizes()) b.append(' ').append(ByteSize.formatIorStyle(s)).append(" |");
                b.append('\n').append("|---|");
                for (long ignored : r.grid().sizes()) b.append("---|");
                b.append('\n');
                for (int p : r.grid().processes()) {
                    b.append("| ").append(p).append(" |");
                    for (long s : r.grid().sizes()) {
                        Point pt = r.points().stream().filter(x -> x.n() == n && x.p() == p && x.s() == s && x.op() == op)
                                .findFirst().orElseThrow();
                        String m = shortName(pt.modelBest()), sim = shortName(pt.simBest());
                        b.append(' ').append(m.equals(sim) ? "= " + m : m + " / **" + sim + "**").append(" |");
                    }
                    b.append('\n');
                }
            }
        }
        return b.toString();
    }

    private static String shortName(Candidate c) {
        return c.layout() == io.pdla.storage.Layout.Distribution.TWO_D ? "2D g" + c.groups() : c.kind();
    }

    /**
     * Prints the calibration against sim-pfs, the grid comparison with calibrated parameters (random order
     * within each rank's region), and for comparison the same grid with sequential order, with the parameters
     * derived by hand, and with the cost model's defaults. Argument {@code --quick}: n = 8 only.
     */
    public static void main(String[] args) {
        boolean quick = Arrays.asList(args).contains("--quick");
        long t0 = System.nanoTime();
        SimPfsConfig base = SimPfsConfig.DEFAULT;
        CalibrationResult cal = calibrate(base, 1);
        ModelParameters derived = SimProbes.derived(base, SimProbes.hddProbeSpan());
        System.out.println("## Calibration against sim-pfs (virtual-time probes, default plan)\n");
        System.out.println("calibrated: " + cal.parameters().describe());
        System.out.println("derived:    " + derived.describe() + "\n");
        System.out.println(calibrationTable(cal, derived));

        Map<String, Report> variants = new LinkedHashMap<>();
        Grid random = Grid.standard(RoundsWorkload.Order.RANDOM);
        if (quick) random = random.withServers(List.of(8));
        Grid sequential = random.withOrder(RoundsWorkload.Order.SEQUENTIAL);
        Report main = run(base, cal.parameters(), random);
        variants.put("calibrated, random order (primary)", main);
        variants.put("derived, random order", run(base, derived, random));
        variants.put("cost-model defaults, random order", run(base, ModelParameters.defaults(), random));
        variants.put("calibrated, sequential order", run(base, cal.parameters(), sequential));
        variants.put("calibrated, random order, no barriers", run(base, cal.parameters(), random.withBarriers(false)));
        variants.put("calibrated, sequential order, no barriers", run(base, cal.parameters(), sequential.withBarriers(false)));
        variants.put("calibrated, random order, m = 4", run(base, cal.parameters(), random.withRanksPerNode(4)));

        System.out.println("## Agreement\n");
        variants.forEach((k, v) -> System.out.print(summary(k, v)));
        System.out.println();
        Map<io.pdla.storage.Layout.Distribution, Integer> byModelChoice = new EnumMap<>(io.pdla.storage.Layout.Distribution.class);
        for (Point pt : main.mismatches()) byModelChoice.merge(pt.modelBest().layout(), 1, Integer::sum);
        System.out.println("primary mismatches by the model's choice: " + byModelChoice + "\n");
        System.out.println("## predicted / simulated (primary)\n");
        System.out.println(ratioTable(main));
        System.out.println("lowest and highest ratios:\n");
        System.out.println(extremes(main, 4));
        System.out.println("## Mismatches (primary)\n");
        System.out.println(mismatchTable(main));
        System.out.println("## Choices (primary)");
        System.out.println(choiceTables(main));
        for (Map.Entry<String, Report> e : variants.entrySet()) {
            if (e.getValue() == main) continue;
            System.out.println("## " + e.getKey() + ": predicted / simulated\n");
            System.out.println(ratioTable(e.getValue()));
            System.out.println(extremes(e.getValue(), 3));
            System.out.println("## " + e.getKey() + ": mismatches\n");
            System.out.println(mismatchTable(e.getValue()));
        }
        System.out.printf(Locale.ROOT, "elapsed %.1f s wall clock%n", (System.nanoTime() - t0) / 1e9);
    }
}
