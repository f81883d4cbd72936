package io.pdla.bench.ior;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** Builds the report from raw points: summaries per backend and operation, and the shim/baseline ratios. */
public final class Reports {
    public static final String SHIM = "mpiio";
    public static final String BASELINE = "posix-baseline";
    public static final String TRACED = "mpiio-traced";
    public static final String REDIRECTED = "mpiio-redirect";
    /** With -c: the shim's independent calls on the same pattern, the collective calls' yardstick. */
    public static final String INDEPENDENT = "mpiio-independent";

    private Reports() {
    }

    public static IorReport build(RunInfo info, List<IterationPoint> points, List<String> errors,
                                  boolean verify, long checked, long bad) {
        Map<String, List<IterationPoint>> groups = new LinkedHashMap<>();
        for (IterationPoint p : points) groups.computeIfAbsent(p.backend() + "\u0000" + p.operation(), k -> new ArrayList<>()).add(p);
        List<Summary> summaries = new ArrayList<>();
        // backend by backend, write before read, as IOR lists them
        for (String backend : info.backends()) {
            for (String op : List.of("write", "read")) {
                List<IterationPoint> g = groups.get(backend + "\u0000" + op);
                if (g != null) summaries.add(Summary.of(backend, op, g));
            }
        }
        return new IorReport(info, List.copyOf(points), summaries,
                ratio(summaries, "write", Summary::meanMiBps), ratio(summaries, "read", Summary::meanMiBps),
                ratio(summaries, "write", Summary::maxMiBps), ratio(summaries, "read", Summary::maxMiBps),
                ratio(summaries, "write", Summary::meanTransferMiBps), ratio(summaries, "read", Summary::meanTransferMiBps),
                ratio(summaries, TRACED, SHIM, "write", Summary::meanMiBps), ratio(summaries, TRACED, SHIM, "read", Summary::meanMiBps),
                ratio(summaries, TRACED, SHIM, "write", Summary::meanTransferMiBps), ratio(summaries, TRACED, SHIM, "read", Summary::meanTransferMiBps),
                ratio(summaries, REDIRECTED, SHIM, "write", Summary::meanMiBps), ratio(summaries, REDIRECTED, SHIM, "read", Summary::meanMiBps),
                ratio(summaries, SHIM, INDEPENDENT, "write", Summary::meanMiBps), ratio(summaries, SHIM, INDEPENDENT, "read", Summary::meanMiBps),
                paired(points),
                new IorReport.Verification(verify, checked, bad), List.copyOf(errors));
    }

    /** The comparisons a run allows (shim/baseline, traced/untraced, redirected/plain, collective/independent), iteration by iteration. */
    static List<IorReport.PairedRatio> paired(List<IterationPoint> points) {
        String[][] pairs = {{SHIM, BASELINE}, {TRACED, SHIM}, {REDIRECTED, SHIM}, {SHIM, INDEPENDENT}};
        List<IorReport.PairedRatio> out = new ArrayList<>();
        for (String[] pair : pairs) {
            for (String op : List.of("write", "read")) {
                Map<Integer, Double> num = new LinkedHashMap<>(), den = new LinkedHashMap<>();
                for (IterationPoint p : points) {
                    if (!p.operation().equals(op)) continue;
                    if (p.backend().equals(pair[0])) num.put(p.iteration(), p.mibPerSec());
                    if (p.backend().equals(pair[1])) den.put(p.iteration(), p.mibPerSec());
                }
                List<Double> ratios = new ArrayList<>();
                num.forEach((it, n) -> {
                    Double d = den.get(it);
                    if (d != null && d > 0 && Double.isFinite(n) && Double.isFinite(d)) ratios.add(n / d);
                });
                if (ratios.isEmpty()) continue;
                ratios.sort(null);
                int k = ratios.size();
                double median = k % 2 == 1 ? ratios.get(k / 2) : (ratios.get(k / 2 - 1) + ratios.get(k / 2)) / 2;
                out.add(new IorReport.PairedRatio(pair[0], pair[1], op, median, ratios.get(0), ratios.get(k - 1), k));
            }
        }
        return out;
    }

    /** Shim over baseline of one bandwidth statistic, or null if either is missing. */
    static Double ratio(List<Summary> summaries, String op, ToDoubleFunction<Summary> statistic) {
        return ratio(summaries, SHIM, BASELINE, op, statistic);
    }

    /** {@code numerator} over {@code denominator} backend of one statistic, or null if either is missing. */
    static Double ratio(List<Summary> summaries, String numerator, String denominator, String op, ToDoubleFunction<Summary> statistic) {
        Summary shim = find(summaries, numerator, op), base = find(summaries, denominator, op);
        if (shim == null || base == null) return null;
        double b = statistic.applyAsDouble(base);
        return b > 0 ? statistic.applyAsDouble(shim) / b : null;
    }

    private static Summary find(List<Summary> summaries, String backend, String op) {
        for (Summary s : summaries) if (s.backend().equals(backend) && s.operation().equals(op)) return s;
        return null;
    }
}
