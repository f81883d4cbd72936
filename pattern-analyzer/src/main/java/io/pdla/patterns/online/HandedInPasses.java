package io.pdla.patterns.online;

import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.RuntimeInfo;
import io.pdla.patterns.TracedJob;
import io.pdla.patterns.db.PatternDatabase;
import io.pdla.patterns.db.PatternEntries;
import io.pdla.patterns.db.PatternEntry;
import io.pdla.patterns.db.PatternSpool;
import io.pdla.patterns.global.GlobalMerger;
import io.pdla.patterns.template.MatchResult;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The daemon's side of the hand-off: each spooled {@link PassRecord} becomes the entries {@code pdla analyze} stores
 * for the same requests (a one-rank analysis of the file: its locals, then the global merge as the analyzer runs it),
 * stored in one transaction with their queue items. Runs in the process that follows the pattern database, whose
 * analysis and JSON codec classes load once, never in the ranks.
 */
public final class HandedInPasses {
    private HandedInPasses() {
    }

    /** Stores every spooled pass into {@code db}; damaged or foreign records are set aside and reported. */
    public static int drainInto(PatternDatabase db, Consumer<String> problems) throws IOException {
        return PatternSpool.drainInto(db, HandedInPasses::entries, problems);
    }

    /** The entries of one record's bytes; an {@link IllegalArgumentException} when they are no pass this pdla can store. */
    static List<PatternEntry> entries(byte[] record) {
        PassRecord r = PassRecord.decode(record);
        try {
            return entries(r);
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            // a record that decodes but that the analysis cannot take must be set aside, not retried at every pass
            throw new IllegalArgumentException("its pass of " + r.file() + " cannot be made into entries: " + e, e);
        }
    }

    public static List<PatternEntry> entries(PassRecord r) {
        return PatternEntries.of(report(r));
    }

    /**
     * The daemon's intake of a hand-off, run once over a made-up pass at its start, storing nothing: the record's
     * decoding, the analysis and the database's JSON codec load and initialise their classes before the first job hands
     * a pass in (a fresh daemon spent 1-1.5 s on that between a job's hand-off and its first copy). Returns the entries
     * as read back through the codec.
     */
    public static List<PatternEntry> warmUp() {
        java.util.UUID.randomUUID();   // the builder's replica names: the JDK's secure random, initialised once
        MatchResult pass = MatcherWarmup.stridedPass();
        PassRecord made = new PassRecord(new io.pdla.intercept.AppIdentity("pdla daemon warm-up", 4),
                java.net.URI.create("file:///pdla-daemon-warm-up/data.dat"), Map.of(), pass);
        return io.pdla.patterns.db.EntryCodecWarmup.roundTrip(entries(made.encode()));
    }

    /** What {@code Analyzer.analyze} makes of this rank's requests to the file: the locals, then the global merge. */
    static AnalysisReport report(PassRecord r) {
        TracedJob job = new TracedJob(r.app(), Map.of(r.pass().fileId(), r.file().toString()), r.hints(),
                new RuntimeInfo(r.file().getScheme(), null, null, null, List.of(), Map.of()));
        AnalysisReport prelim = new AnalysisReport(job, List.of(r.pass()), List.of(), List.of(), 0, false, List.of());
        GlobalMerger.Result merged = new GlobalMerger().merge(prelim.localsByRankAndFile());
        return new AnalysisReport(job, List.of(r.pass()), merged.globals(), merged.unmergedLocals(), 0, false, List.of());
    }
}
