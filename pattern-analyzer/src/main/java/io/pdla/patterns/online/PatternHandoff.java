package io.pdla.patterns.online;

import io.pdla.intercept.AppIdentity;
import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.RuntimeInfo;
import io.pdla.patterns.TracedJob;
import io.pdla.patterns.db.PatternDatabase;
import io.pdla.patterns.global.GlobalMerger;
import io.pdla.patterns.template.MatchResult;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.logging.Logger;

/**
 * Hands established patterns to the replicator: stores them in the pattern database exactly as {@code pdla analyze}
 * stores an analysis ({@link PatternDatabase#storeReport}: the entry, and its key queued for replication in the
 * same transaction), where the running daemon takes them at its next pass. The store runs on one background thread
 * of this rank, so the job never waits for the database (another process may hold it); at most {@value #QUEUE}
 * hand-offs wait, more are dropped and counted. A failure is reported once and counted, never thrown.
 */
final class PatternHandoff {
    private static final Logger LOG = Logger.getLogger(PatternHandoff.class.getName());
    static final int QUEUE = 32;

    record Item(Path db, AppIdentity app, URI file, Map<String, String> hints, MatchResult pass) {
    }

    private final BlockingQueue<Item> queue = new ArrayBlockingQueue<>(QUEUE);
    private final OnlineStats stats;
    private Thread worker;
    private boolean warned;

    PatternHandoff(OnlineStats stats) {
        this.stats = stats;
    }

    /** Queues the hand-off; never blocks. */
    synchronized void handOn(Item item) {
        if (!queue.offer(item)) {
            stats.dropped.incrementAndGet();
            return;
        }
        if (worker == null) {
            worker = new Thread(this::drain, "pdla-online-handoff");
            worker.setDaemon(true);   // best-effort: a job that ends first loses the hand-off, not its I/O
            worker.start();
        }
    }

    private void drain() {
        while (true) {
            Item item;
            try {
                item = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            long t0 = System.nanoTime();
            try {
                if (store(item) > 0) stats.stored.incrementAndGet();
            } catch (RuntimeException | LinkageError e) {
                stats.storeFailures.incrementAndGet();
                warnOnce("online PDLA: could not store the pattern of " + item.file() + " in " + item.db() + " (" + e.getMessage()
                        + "); the job goes on reading its originals");
            } finally {
                stats.storeNanos.addAndGet(System.nanoTime() - t0);
            }
        }
    }

    /** The pass as a one-rank analysis of the file, stored as the analyzer stores a report; entries new or changed. */
    static int store(Item item) {
        AnalysisReport report = report(item.app(), item.file(), item.hints(), item.pass());
        try (PatternDatabase db = PatternDatabase.open(item.db())) {
            return db.storeReport(report);
        }
    }

    /** What {@code Analyzer.analyze} makes of this rank's requests to the file: the locals, then the global merge. */
    static AnalysisReport report(AppIdentity app, URI file, Map<String, String> hints, MatchResult pass) {
        TracedJob job = new TracedJob(app, Map.of(pass.fileId(), file.toString()), hints,
                new RuntimeInfo(file.getScheme(), null, null, null, List.of(), Map.of()));
        AnalysisReport prelim = new AnalysisReport(job, List.of(pass), List.of(), List.of(), 0, false, List.of());
        GlobalMerger.Result merged = new GlobalMerger().merge(prelim.localsByRankAndFile());
        return new AnalysisReport(job, List.of(pass), merged.globals(), merged.unmergedLocals(), 0, false, List.of());
    }

    private synchronized void warnOnce(String message) {
        if (warned) return;
        warned = true;
        LOG.warning(message);
    }
}
