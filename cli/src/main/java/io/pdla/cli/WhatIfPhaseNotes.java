package io.pdla.cli;

import io.pdla.access.TraceRecord;
import io.pdla.bench.schemes.Piece;
import io.pdla.bench.schemes.Redirector;
import io.pdla.bench.schemes.Scheme;
import io.pdla.bench.schemes.SchemeComparison;
import io.pdla.pattern.KeyedPattern;
import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.ReplicaSelection;
import io.pdla.patterns.TraceSource;
import io.pdla.patterns.db.PatternEntries;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * What a phase's predicted times rest on that changes how to read them, as notes under the phase: replicas that hold
 * only part of the phase's bytes, and a phase so small that where the disk heads start decides the Original's time
 * (bench/RESULTS-schemes.md, "Small files, few ranks").
 */
final class WhatIfPhaseNotes {
    /** The Original's time moving by more than this share between the two start states is worth a note. */
    static final double START_STATE_SHARE = 0.25;
    /** How ReplicaSelection words a key that held several patterns, of which one got the key's one replica. */
    private static final String SEVERAL_UNDER_ONE_KEY = "patterns under one key";

    private WhatIfPhaseNotes() {}

    static List<String> of(SchemeComparison comparison, SchemeComparison.PhaseResult result, TraceSource phase, String name,
                           AnalysisReport analysis) {
        List<String> notes = new ArrayList<>();
        String coverage = replicaCoverage(result, phase, analysis);
        if (coverage != null) notes.add(coverage);
        String start = headStart(comparison, result, phase, name);
        if (start != null) notes.add(start);
        return notes;
    }

    /** Replicas that leave some of the phase's bytes on the original: how many, and why when the catalog's one-per-key rule did it. */
    static String replicaCoverage(SchemeComparison.PhaseResult result, TraceSource phase, AnalysisReport analysis) {
        if (result.chosen().isEmpty()) return null;
        Redirector routes = result.plans().get(Scheme.PD).redirector();
        long all = 0, inReplicas = 0;
        for (int rank : phase.ranks()) {
            for (Iterator<TraceRecord> it = phase.records(rank); it.hasNext(); ) {
                TraceRecord r = it.next();
                int original = routes.originalIndex(r.fileId());
                for (Piece p : routes.redirect(rank, r.fileId(), r.offset(), r.length())) {
                    all += p.length();
                    if (p.fileIndex() != original) inReplicas += p.length();
                }
            }
        }
        if (inReplicas == all) return null;
        List<String> crowded = new ArrayList<>();
        List<String> selectionNotes = ReplicaSelection.choose(PatternEntries.of(analysis)).notes();
        for (KeyedPattern p : result.chosen()) {
            String id = p.key().id() + ": ";
            if (selectionNotes.stream().anyMatch(n -> n.startsWith(id) && n.contains(SEVERAL_UNDER_ONE_KEY))) crowded.add(p.key().global() ? "the global key" : "rank " + p.key().rank() + "'s key");
        }
        return String.format(Locale.ROOT, "the replicas hold %.0f%% of these bytes (%d of %d); every replica scheme reads the rest from the original",
                100.0 * inReplicas / all, inReplicas, all)
                + (crowded.isEmpty() ? "" : ": the catalog keeps one replica per pattern key, the largest of its patterns, and "
                + String.join(", ", crowded) + (crowded.size() == 1 ? " holds" : " hold") + " several");
    }

    /**
     * A new engine's heads rest on the original's first byte: when the phase has replicas and parking the heads mid-disk
     * moves the Original's time by more than {@link #START_STATE_SHARE}, the phase is too small for the start to wash
     * out, and the note gives every scheme's time from the parked start beside the ones in the table. A phase without
     * replicas gets none: every scheme but S-ORIG reads the original there, and tiny files (an interpreter's own
     * reads) would each get one.
     */
    static String headStart(SchemeComparison comparison, SchemeComparison.PhaseResult result, TraceSource phase, String name) {
        if (result.chosen().isEmpty()) return null;
        SchemeComparison parked = comparison.headsParked();
        double fresh = result.results().get(Scheme.ORIGINAL).elapsedSeconds();
        double original = parked.run(Scheme.ORIGINAL, result.chosen(), phase, name).elapsedSeconds();
        if (!(Math.abs(original - fresh) > START_STATE_SHARE * fresh)) return null;
        StringBuilder times = new StringBuilder();
        for (Scheme s : Scheme.values()) {
            double t = s == Scheme.ORIGINAL ? original : parked.run(s, result.chosen(), phase, name).elapsedSeconds();
            times.append(times.length() == 0 ? "" : ", ").append(s.label()).append(String.format(Locale.ROOT, " %.4g s", t));
        }
        return String.format(Locale.ROOT, "a new engine's disk heads rest on the original's first byte, so the Original skips the"
                + " positioning (and starts the read-ahead) that each replica file pays on each HServer; in a phase this small that"
                + " start is much of the Original's time. From heads parked mid-disk, as other work leaves them (Original %.1fx its"
                + " time above): %s"
                + " (bench/RESULTS-schemes.md, \"Small files, few ranks\")", original / fresh, times);
    }
}
