package io.pdla.patterns;

import io.pdla.access.TraceRecord;
import io.pdla.patterns.db.PatternDatabase;
import io.pdla.patterns.global.GlobalMerger;
import io.pdla.patterns.template.MatchResult;
import io.pdla.patterns.template.MatcherConfig;
import io.pdla.patterns.template.StreamMatcher;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The analyzer: local patterns per rank and file (template matching, streaming), then global patterns, then
 * coverage. Memory holds one matcher per file of the rank being read, never the trace.
 */
public final class Analyzer {
    private final MatcherConfig config;

    public Analyzer() {
        this(MatcherConfig.defaults());
    }

    public Analyzer(MatcherConfig config) {
        this.config = config;
    }

    /**
     * @throws TraceInputException when the traces cannot be one job (different jobs mixed, no ranks)
     */
    public AnalysisReport analyze(TraceSource source) {
        TracedJob job = source.job();
        List<String> warnings = new ArrayList<>(source.warnings());
        boolean partial = !warnings.isEmpty();
        if (source.ranks().isEmpty()) throw new TraceInputException("no rank traces found for job '" + job.app().command() + "'");
        for (int rank : source.ranks()) {
            TracedJob other = source.jobOf(rank);
            if (!Objects.equals(other.app().command(), job.app().command()) || other.app().processes() != job.app().processes()) {
                throw new TraceInputException("traces of different jobs mixed: rank " + rank + " was traced for '"
                        + other.app().command() + "' with " + other.app().processes() + " processes, the job is '"
                        + job.app().command() + "' with " + job.app().processes() + " processes");
            }
        }
        List<Integer> missing = new ArrayList<>();
        for (int r = 0; r < job.app().processes(); r++) if (!source.ranks().contains(r)) missing.add(r);
        if (!missing.isEmpty()) {
            warnings.add("missing traces for " + missing.size() + " of " + job.app().processes() + " ranks: " + abbreviate(missing));
            partial = true;
        }
        for (int r : source.ranks()) {
            if (r >= job.app().processes()) {
                warnings.add("trace of rank " + r + " is outside the job's " + job.app().processes() + " processes");
                partial = true;
            }
        }
        List<MatchResult> results = new ArrayList<>();
        long metadata = 0;
        for (int rank : source.ranks()) {
            Map<Integer, StreamMatcher> matchers = new TreeMap<>();
            Iterator<TraceRecord> it = source.records(rank);
            try {
                while (it.hasNext()) {
                    TraceRecord rec = it.next();
                    if (!rec.op().movesData()) {
                        metadata++;
                        continue;
                    }
                    if (rec.rank() != rank) {
                        throw new TraceInputException("trace of rank " + rank + " holds a record of rank " + rec.rank());
                    }
                    if (!job.files().isEmpty() && !job.files().containsKey(rec.fileId())) {
                        if (!matchers.containsKey(rec.fileId())) {
                            warnings.add("rank " + rank + " accesses file id " + rec.fileId() + " that the job's file map does not name");
                        }
                    }
                    matchers.computeIfAbsent(rec.fileId(), f -> new StreamMatcher(rank, f, config))
                            .accept(rec.op(), rec.offset(), rec.length(), rec.startNanos(), rec.endNanos());
                }
            } catch (TruncatedTraceException e) {
                warnings.add("trace of rank " + rank + " is truncated, kept what came before: " + e.getMessage());
                partial = true;
            }
            for (StreamMatcher m : matchers.values()) results.add(m.finish());
        }
        AnalysisReport prelim = new AnalysisReport(job, results, List.of(), List.of(), metadata, partial, warnings);
        GlobalMerger.Result merged = new GlobalMerger().merge(prelim.localsByRankAndFile());
        return new AnalysisReport(job, results, merged.globals(), merged.unmergedLocals(), metadata, partial, warnings);
    }

    /** Stores every pattern of the report with the job's runtime info; see {@link PatternDatabase#storeReport}. */
    public int store(AnalysisReport report, PatternDatabase db) {
        return db.storeReport(report);
    }

    private static String abbreviate(List<Integer> ranks) {
        if (ranks.size() <= 10) return ranks.toString();
        return ranks.subList(0, 10) + " and " + (ranks.size() - 10) + " more";
    }
}
