package io.pdla.patterns.online;

import io.pdla.intercept.AppIdentity;
import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.RuntimeInfo;
import io.pdla.patterns.TracedJob;
import io.pdla.patterns.db.PatternDatabase;
import io.pdla.patterns.db.PatternEntries;
import io.pdla.patterns.db.PatternSpool;
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
 * Hands established patterns to the replicator: the entries {@code pdla analyze} would store for the pass
 * ({@link PatternEntries#of}) go into the pattern database's spool ({@link PatternSpool}), from which the running
 * daemon stores them exactly as {@link PatternDatabase#storeReport} does (entry and queue item in one transaction)
 * and takes them at its next pass. The ranks never open the Berkeley DB environment: that took seconds per rank
 * under MPJ's multicore device (each rank loads its own JE, and one process at a time may write it). The write runs
 * on one background thread of this rank, so the job never waits for it; at most {@value #QUEUE} hand-offs wait, more
 * are dropped and counted. A failure is reported once and counted, never thrown.
 */
final class PatternHandoff {
    private static final Logger LOG = Logger.getLogger(PatternHandoff.class.getName());
    static final int QUEUE = 32;

    /** A pass to hand on ({@code warmUp}: only encode it, see {@link #warmUp}). */
    record Item(Path db, AppIdentity app, URI file, Map<String, String> hints, MatchResult pass, boolean warmUp) {
        Item(Path db, AppIdentity app, URI file, Map<String, String> hints, MatchResult pass) {
            this(db, app, file, hints, pass, false);
        }
    }

    static final long EXIT_WAIT_MILLIS = 5000;
    private final BlockingQueue<Item> queue = new ArrayBlockingQueue<>(QUEUE);
    /** Hand-offs queued or being written. */
    private final java.util.concurrent.atomic.AtomicInteger pending = new java.util.concurrent.atomic.AtomicInteger();
    private final OnlineStats stats;
    private Thread worker;
    private boolean warned, warm;

    PatternHandoff(OnlineStats stats) {
        this.stats = stats;
    }

    /**
     * Encodes a candidate pass in the background without writing it, ahead of the first hand-off: under MPJ's
     * multicore device each rank loads its own copy of the analysis and JSON codec classes, CPU that would otherwise
     * lie between a pattern's repetition and its hand-off. Called when a file's first candidate pass ends, so it
     * overlaps the pass that may repeat it; once per rank.
     */
    synchronized void warmUp(Item first) {
        if (warm) return;
        warm = true;
        handOn(new Item(first.db(), first.app(), first.file(), first.hints(), first.pass(), true));
    }

    /** Queues the hand-off; never blocks. */
    synchronized void handOn(Item item) {
        if (!queue.offer(item)) {
            stats.dropped.incrementAndGet();
            return;
        }
        pending.incrementAndGet();
        if (worker == null) {
            worker = new Thread(this::drain, "pdla-online-handoff");
            worker.setDaemon(true);
            worker.start();
            // a job whose last pass repeated ends right after it: its hand-off gets a moment to be written, after the
            // job's own I/O is done; one that takes longer is lost, not waited for
            Runtime.getRuntime().addShutdownHook(new Thread(() -> awaitIdle(EXIT_WAIT_MILLIS), "pdla-online-handoff-exit"));
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
                if (item.warmUp()) {
                    PatternSpool.encode(PatternEntries.of(report(item.app(), item.file(), item.hints(), item.pass())));
                    stats.warmUpNanos.addAndGet(System.nanoTime() - t0);
                    pending.decrementAndGet();
                    continue;
                }
                if (store(item) > 0) stats.stored.incrementAndGet();
            } catch (java.io.IOException | RuntimeException | LinkageError e) {
                stats.storeFailures.incrementAndGet();
                warnOnce("online PDLA: could not hand on the pattern of " + item.file() + " in " + item.db() + " (" + e.getMessage()
                        + "); the job goes on reading its originals");
            } finally {
                if (!item.warmUp()) stats.storeNanos.addAndGet(System.nanoTime() - t0);
                pending.decrementAndGet();
            }
        }
    }

    /** The pass as a one-rank analysis of the file, its entries written into the database's spool; how many. */
    static int store(Item item) throws java.io.IOException {
        var entries = PatternEntries.of(report(item.app(), item.file(), item.hints(), item.pass()));
        PatternSpool.write(item.db(), entries);
        return entries.size();
    }

    /** What {@code Analyzer.analyze} makes of this rank's requests to the file: the locals, then the global merge. */
    static AnalysisReport report(AppIdentity app, URI file, Map<String, String> hints, MatchResult pass) {
        TracedJob job = new TracedJob(app, Map.of(pass.fileId(), file.toString()), hints,
                new RuntimeInfo(file.getScheme(), null, null, null, List.of(), Map.of()));
        AnalysisReport prelim = new AnalysisReport(job, List.of(pass), List.of(), List.of(), 0, false, List.of());
        GlobalMerger.Result merged = new GlobalMerger().merge(prelim.localsByRankAndFile());
        return new AnalysisReport(job, List.of(pass), merged.globals(), merged.unmergedLocals(), 0, false, List.of());
    }

    /** Waits until nothing is queued or being written, at most {@code millis}; whether it got there. */
    boolean awaitIdle(long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (pending.get() > 0) {
            if (System.nanoTime() - deadline >= 0) return false;
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    private synchronized void warnOnce(String message) {
        if (warned) return;
        warned = true;
        LOG.warning(message);
    }
}
