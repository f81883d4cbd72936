package io.pdla.patterns.rootcause;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The critical path of a job (sweep line) and the contributing factors of IOMiner sec. II-D, each averaged over
 * the critical files weighted by their exclusive time: share of small requests, share of non-consecutive
 * requests, collective I/O, processes per storage target (contention), metadata share of a file's I/O time;
 * plus job-wide: storage targets used, I/O mode, rank imbalance.
 */
public final class RootCauseAnalyzer {
    private RootCauseAnalyzer() {
    }

    /** @param bytesByRank bytes moved per rank when traces are present; null otherwise */
    public static RootCauseReport analyze(List<FileIoStats> files, Map<Integer, Long> bytesByRank) {
        CriticalPath cp = SweepLine.run(files);
        Map<String, FileIoStats> byName = new HashMap<>();
        for (FileIoStats f : files) {
            if (byName.put(f.file(), f) != null) throw new IllegalArgumentException("file " + f.file() + " has two intervals; give one per file");
        }
        long bytes = 0;
        boolean anyBytes = false;
        for (FileIoStats f : files) {
            bytes += f.bytes();
            anyBytes |= f.hasBytes();
        }
        Double cpBw = anyBytes && cp.seconds() > 0 ? bytes / cp.seconds() : null;
        Double spanBw = anyBytes && cp.span() > 0 ? bytes / cp.span() : null;

        List<RootCauseReport.FileShare> dominant = new ArrayList<>();
        for (Share s : cp.shares()) dominant.add(new RootCauseReport.FileShare(s.file(), s.seconds(), cp.seconds() > 0 ? s.seconds() / cp.seconds() : 0));
        dominant.sort((a, b) -> Double.compare(b.exclusiveSeconds(), a.exclusiveSeconds()));

        List<Factor> factors = new ArrayList<>();
        factors.add(weighted("small requests", "share of requests below the small-request size", cp, byName,
                f -> ratio(f.smallRequests(), f.requests())));
        factors.add(weighted("non-consecutive requests", "share of requests not continuing the previous one", cp, byName,
                f -> ratio(f.nonConsecutiveRequests(), f.requests())));
        factors.add(weighted("collective I/O", "1 when the file used collective I/O", cp, byName,
                f -> f.collective() == null ? null : f.collective() ? 1.0 : 0.0));
        factors.add(weighted("processes per storage target", "processes accessing the file / its stripe count", cp, byName,
                f -> processes(f) == null || f.stripeCount() == null || f.stripeCount() == 0 ? null : (double) processes(f) / f.stripeCount()));
        factors.add(weighted("storage targets per file", "stripe count of the file", cp, byName,
                f -> f.stripeCount() == null ? null : (double) f.stripeCount()));
        factors.add(weighted("metadata time share", "metadata seconds / the file's I/O interval", cp, byName,
                f -> f.metadataSeconds() == null || f.end() <= f.start() ? null : f.metadataSeconds() / (f.end() - f.start())));

        Set<Integer> targets = new HashSet<>();
        boolean anyTargets = false;
        for (FileIoStats f : files) {
            if (f.storageTargets() != null) {
                anyTargets = true;
                targets.addAll(f.storageTargets());
            }
        }
        Double imbalance = null;
        if (bytesByRank != null && !bytesByRank.isEmpty()) {
            long max = 0, sum = 0;
            for (long b : bytesByRank.values()) {
                max = Math.max(max, b);
                sum += b;
            }
            imbalance = sum == 0 ? 1.0 : max / ((double) sum / bytesByRank.size());
        }
        return new RootCauseReport(cp, files.size(), bytes, cpBw, spanBw, dominant, factors, ioMode(files),
                anyTargets ? targets.size() : null, imbalance);
    }

    private static Integer processes(FileIoStats f) {
        return f.ranks() == null ? null : f.ranks().size();
    }

    private static Double ratio(Long part, Long whole) {
        if (part == null || whole == null || whole == 0) return null;
        return (double) part / whole;
    }

    private static Factor weighted(String name, String meaning, CriticalPath cp, Map<String, FileIoStats> byName,
                                   Function<FileIoStats, Double> value) {
        double sum = 0, weight = 0;
        for (Share s : cp.shares()) {
            Double v = value.apply(byName.get(s.file()));
            if (v == null) continue;
            sum += v * s.seconds();
            weight += s.seconds();
        }
        return new Factor(name, weight > 0 ? sum / weight : null, cp.seconds() > 0 ? weight / cp.seconds() : 0, meaning);
    }

    /** 1-1 / 1-M: one rank did all I/O; N-1: one shared file; N-N: every file by one rank; N-M otherwise. */
    static String ioMode(List<FileIoStats> files) {
        Set<Integer> ranks = new HashSet<>();
        boolean allSingle = true;
        for (FileIoStats f : files) {
            if (f.ranks() == null || f.ranks().isEmpty()) return null;
            ranks.addAll(f.ranks());
            allSingle &= f.ranks().size() == 1;
        }
        if (files.isEmpty()) return null;
        if (ranks.size() == 1) return files.size() == 1 ? "1-1" : "1-M";
        if (files.size() == 1) return "N-1";
        if (allSingle) return "N-N";
        return "N-M";
    }
}
