package io.pdla.patterns.db;

import io.pdla.pattern.PatternKey;
import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.RuntimeInfo;
import io.pdla.patterns.TracedJob;
import io.pdla.patterns.global.GlobalPattern;
import io.pdla.patterns.global.MemberRef;
import io.pdla.patterns.template.LocalPattern;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An analysis as pattern-database entries: every rank's local patterns under its rank, global patterns under
 * "all"; locals that belong to a global pattern carry the global's index. What the database stores, and what the
 * scheme benchmarks select replicas from without a database in between.
 */
public final class PatternEntries {
    private PatternEntries() {
    }

    public static List<PatternEntry> of(AnalysisReport report) {
        TracedJob job = report.job();
        Map<Integer, Map<Integer, List<LocalPattern>>> locals = report.localsByRankAndFile();
        Map<Integer, List<GlobalPattern>> globalsByFile = new TreeMap<>();
        Map<Integer, Map<MemberRef, Integer>> memberOf = new HashMap<>();   // file -> member -> global index
        for (GlobalPattern g : report.globals()) {
            List<GlobalPattern> list = globalsByFile.computeIfAbsent(g.fileId(), f -> new ArrayList<>());
            for (MemberRef m : g.members()) memberOf.computeIfAbsent(g.fileId(), f -> new HashMap<>()).put(m, list.size());
            list.add(g);
        }
        List<PatternEntry> entries = new ArrayList<>();
        new TreeMap<>(locals).forEach((rank, files) -> new TreeMap<>(files).forEach((file, list) -> {
            if (list.isEmpty()) return;
            if (rank >= job.app().processes()) return;   // a stray rank's trace (the analysis warned): no key to store it under
            List<StoredPattern> stored = new ArrayList<>();
            TreeSet<Long> sizes = new TreeSet<>();
            for (int i = 0; i < list.size(); i++) {
                Integer gi = memberOf.getOrDefault(file, Map.of()).get(new MemberRef(rank, i));
                stored.add(StoredPattern.of(list.get(i), gi));
                for (long s : list.get(i).requestSizes()) sizes.add(s);
            }
            entries.add(new PatternEntry(PatternKey.local(job.app(), rank, job.uri(file)), stored, runtime(job, sizes)));
        }));
        globalsByFile.forEach((file, list) -> {
            TreeSet<Long> sizes = new TreeSet<>();
            list.forEach(g -> Arrays.stream(g.requestSizes()).forEach(sizes::add));
            entries.add(new PatternEntry(PatternKey.global(job.app(), job.uri(file)),
                    list.stream().map(StoredPattern::of).toList(), runtime(job, sizes)));
        });
        return entries;
    }

    private static RuntimeInfo runtime(TracedJob job, TreeSet<Long> sizes) {
        RuntimeInfo r = job.runtime();
        Map<String, String> extra = new HashMap<>(r.extra());
        job.hints().forEach((k, v) -> extra.put("hint." + k, v));
        return new RuntimeInfo(r.fileSystem(), r.servers(), r.stripeSize(), r.stripeCount(), List.copyOf(sizes), extra);
    }
}
