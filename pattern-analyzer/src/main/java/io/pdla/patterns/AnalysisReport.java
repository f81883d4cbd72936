package io.pdla.patterns;

import io.pdla.patterns.global.GlobalPattern;
import io.pdla.patterns.template.LocalPattern;
import io.pdla.patterns.template.MatchResult;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@link Analyzer#analyze} found in one job.
 *
 * @param results         per (rank, file): the local patterns and their coverage
 * @param globals         global patterns (members are (rank, index into that rank's list for the file))
 * @param localOnly       local patterns that are part of no global pattern
 * @param metadataRecords records that move no data (open, close, seek, ...), skipped by the matcher
 * @param partial         true when some input was missing or damaged: see warnings
 */
public record AnalysisReport(TracedJob job, List<MatchResult> results, List<GlobalPattern> globals,
                             List<LocalPattern> localOnly, long metadataRecords, boolean partial, List<String> warnings) {
    public AnalysisReport {
        results = List.copyOf(results);
        globals = List.copyOf(globals);
        localOnly = List.copyOf(localOnly);
        warnings = List.copyOf(warnings);
    }

    public Coverage total() {
        Coverage c = Coverage.NONE;
        for (MatchResult r : results) c = c.plus(coverage(r));
        return c;
    }

    public Map<Integer, Coverage> byRank() {
        Map<Integer, Coverage> m = new TreeMap<>();
        for (MatchResult r : results) m.merge(r.rank(), coverage(r), Coverage::plus);
        return m;
    }

    public Map<Integer, Coverage> byFile() {
        Map<Integer, Coverage> m = new TreeMap<>();
        for (MatchResult r : results) m.merge(r.fileId(), coverage(r), Coverage::plus);
        return m;
    }

    public List<LocalPattern> locals() {
        return results.stream().flatMap(r -> r.patterns().stream()).toList();
    }

    /** rank -> file -> local patterns, the indexing {@link io.pdla.patterns.global.MemberRef} uses. */
    public Map<Integer, Map<Integer, List<LocalPattern>>> localsByRankAndFile() {
        Map<Integer, Map<Integer, List<LocalPattern>>> m = new TreeMap<>();
        for (MatchResult r : results) m.computeIfAbsent(r.rank(), k -> new TreeMap<>()).put(r.fileId(), r.patterns());
        return m;
    }

    static Coverage coverage(MatchResult r) {
        return new Coverage(r.requests(), r.bytes(), r.explainedRequests(), r.explainedBytes());
    }
}
