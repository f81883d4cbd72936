package io.pdla.patterns.online;

import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * Hands established patterns to the replicator: the pass goes as a compact {@link PassRecord} into the pattern
 * database's spool ({@link SpoolWriter}; the daemon drains it, {@code db.PatternSpool}), from which the running daemon makes and stores the entries
 * {@code pdla analyze} would store ({@link HandedInPasses}). The ranks neither open the Berkeley DB environment (that
 * took seconds per rank under MPJ's multicore device, where each rank loads its own JE) nor load the analysis and
 * JSON classes (0.7-0.9 s of CPU per rank): a record is a few hundred bytes written with the classes matching
 * already loaded. The write runs on one background thread of this rank, so the job never waits for it; at most
 * {@value #QUEUE} hand-offs wait, more are dropped and counted. A failure is reported once and counted, never thrown.
 */
final class PatternHandoff {
    private static final Logger LOG = Logger.getLogger(PatternHandoff.class.getName());
    static final int QUEUE = 32;
    static final long EXIT_WAIT_MILLIS = 5000;

    /** A pass to hand on to the pattern database {@code db}. */
    record Item(Path db, PassRecord pass) {
    }

    private final BlockingQueue<Item> queue = new ArrayBlockingQueue<>(QUEUE);
    /** Hand-offs queued or being written. */
    private final AtomicInteger pending = new AtomicInteger();
    private final OnlineStats stats;
    private Thread worker;
    private boolean warned;

    PatternHandoff(OnlineStats stats) {
        this.stats = stats;
    }

    /**
     * Starts the writer, idle until a hand-off comes; at most once. The interceptor calls it at the rank's first open
     * rather than at its first hand-off: started then, in the middle of a pass, the new thread took the CPU from the
     * rank's thread for 3-80 ms of that pass on two busy cores (bench/RESULTS-online.md, 2026-11-29).
     */
    synchronized void start() {
        if (worker != null) return;
        worker = new Thread(new Writer(), "pdla-online-handoff");
        worker.setDaemon(true);
        worker.start();
        // a job whose last pass repeated ends right after it: its hand-off gets a moment to be written, after the
        // job's own I/O is done; one that takes longer is lost, not waited for
        Runtime.getRuntime().addShutdownHook(new Thread(new ExitWait(), "pdla-online-handoff-exit"));
    }

    /*
     * The two threads' bodies are named classes, not lambdas: under the multicore device each rank would spin its own
     * copy of a lambda's class at its first open, on the rank's thread; these the rank's warm-up loads beforehand.
     */

    /** The writer's loop. */
    final class Writer implements Runnable {
        @Override
        public void run() {
            drain();
        }
    }

    /** At exit: queued hand-offs get {@value #EXIT_WAIT_MILLIS} ms. */
    final class ExitWait implements Runnable {
        @Override
        public void run() {
            awaitIdle(EXIT_WAIT_MILLIS);
        }
    }

    /** Queues the hand-off (starting the writer if nobody did); never blocks. */
    synchronized void handOn(Item item) {
        if (!queue.offer(item)) {
            stats.dropped.incrementAndGet();
            return;
        }
        pending.incrementAndGet();
        start();
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
                store(item);
                stats.stored.incrementAndGet();
            } catch (java.io.IOException | RuntimeException | LinkageError e) {
                stats.storeFailures.incrementAndGet();
                warnOnce("online PDLA: could not hand on the pattern of " + item.pass().file() + " in " + item.db() + " (" + e.getMessage()
                        + "); the job goes on reading its originals");
            } finally {
                stats.storeNanos.addAndGet(System.nanoTime() - t0);
                pending.decrementAndGet();
            }
        }
    }

    /** Writes the pass's record into the database's spool; returns the file. */
    static Path store(Item item) throws java.io.IOException {
        return SpoolWriter.write(item.db(), item.pass().encode());
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
