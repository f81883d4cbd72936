package io.pdla.replicator;

import io.pdla.catalog.CatalogAccess;
import io.pdla.catalog.TransientCatalogAccess;
import io.pdla.replicator.daemon.DaemonOptions;
import io.pdla.replicator.daemon.Replication;
import io.pdla.replicator.daemon.ReplicatorDaemon;
import io.pdla.replicator.queue.CatalogPatternQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A long-running daemon polling often scans the catalog at most every {@code SCAN_EVERY_MILLIS} (2 s), not every
 * pass: an idle pass is one catalog transaction (the queue), where a scanning pass is more. {@code runOnce} still
 * scans every time (the other tests rely on it).
 */
class DaemonScanCadenceTest {
    @TempDir
    Path tmp;

    /** Counts the transactions made through a real per-transaction catalog. */
    private static final class Counting implements CatalogAccess {
        final CatalogAccess real;
        final AtomicInteger transactions = new AtomicInteger();

        Counting(CatalogAccess real) {
            this.real = real;
        }

        @Override
        public <T> T transact(Work<T> work) throws IOException {
            transactions.incrementAndGet();
            return real.transact(work);
        }

        @Override
        public String location() {
            return real.location();
        }

        @Override
        public Path directory() {
            return real.directory();
        }
    }

    private static Replication open(DaemonOptions o, Counting c) {
        return new Replication(o, c, new CatalogPatternQueue(c), new PrintStream(new ByteArrayOutputStream(), true));
    }

    @Test
    void aDaemonPollingOftenScansAtMostEveryTwoSeconds() throws Exception {
        DaemonOptions o = DaemonOptions.defaults(tmp.resolve("catalog")).withPollMillis(20);
        // what one pass that scans costs here (the first pass also cleans leftovers): the bound's unit
        Counting once = new Counting(new TransientCatalogAccess(o.db(), 10_000));
        open(o, once).daemon.runOnce();
        int scanningPass = once.transactions.get();
        Counting c = new Counting(new TransientCatalogAccess(o.db(), 10_000));
        Replication r = open(o, c);
        AtomicInteger passes = new AtomicInteger();
        r.daemon.beforeEachPass(passes::incrementAndGet);
        long t0 = System.nanoTime();
        Thread loop = new Thread(() -> {
            try {
                r.daemon.runUntilStopped(20);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "daemon-loop");
        loop.start();
        try {
            // at least 30 passes, bounded in time: a loaded machine runs fewer in the same seconds
            for (int i = 0; i < 600 && passes.get() < 30; i++) Thread.sleep(50);
        } finally {
            r.daemon.stop();
            loop.join(TimeUnit.SECONDS.toMillis(60));
        }
        assertFalse(loop.isAlive(), "stop ends the loop");
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        int n = passes.get();
        assertTrue(n >= 30, "30 passes ran within 30 s: " + n);
        assertTrue(scanningPass >= 2, "a scanning pass reads the catalog more than once: " + scanningPass);
        long scans = 2 + elapsedMillis / 2000;   // the first pass, one per 2 s, and the one running when stopped
        long bound = n + scans * scanningPass;
        assertTrue(c.transactions.get() <= bound, c.transactions.get() + " catalog transactions in " + n + " passes over " + elapsedMillis
                + " ms; a scan every pass would make about " + (long) n * scanningPass + ", at most one per 2 s allows " + bound);
    }
}
