package io.pdla.replicator.daemon;

import io.pdla.bdb.JeEnvironments;
import io.pdla.catalog.Catalog;
import io.pdla.catalog.CatalogAccess;
import io.pdla.catalog.CatalogInAnotherProcess;
import io.pdla.catalog.TransientCatalogAccess;
import io.pdla.pattern.KeyedPattern;
import io.pdla.replicator.Fixture;
import io.pdla.replicator.queue.CatalogPatternQueue;
import io.pdla.replicator.queue.PatternQueue;
import io.pdla.replicator.queue.QueuedPattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The daemon holds a per-transaction catalog open over a pass's bookkeeping ({@link BookkeepingHold}) and lets it go
 * before a build copies. Real JE; the environment lock is looked at from another process.
 */
class DaemonCatalogHoldTest {
    private static final int JOB = 4;
    private static final int BLOCK = 64 << 10;

    @TempDir
    Path tmp;

    private Path db() {
        Path db = tmp.resolve("catalog");
        Catalog.open(db).close();
        return db;
    }

    private static Replication replication(DaemonOptions o, CatalogAccess access) {
        Replication r = new Replication(o, access, new CatalogPatternQueue(access), new PrintStream(new ByteArrayOutputStream(), true));
        r.daemon.gatherRanksFor(60_000);
        return r;
    }

    /** What the cli's transfer does before each pass: offers patterns through an access of its own of the same catalog. */
    private static ReplicatorDaemon.PassHook offering(Path db, List<KeyedPattern> patterns) {
        PatternQueue own = new CatalogPatternQueue(new TransientCatalogAccess(db, 10_000));
        return () -> own.offerAll(patterns);
    }

    /** A per-transaction access that cannot be held: the daemon as it was before holds. */
    private static CatalogAccess unholdable(CatalogAccess real) {
        return new CatalogAccess() {
            @Override
            public <T> T transact(Work<T> work) throws IOException {
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
        };
    }

    @Test
    void aPassOpensTheCatalogOnceForItsBookkeepingAndTheAcknowledgesOfItemsNotBuilt() throws Exception {
        Path db = db();
        DaemonOptions o = DaemonOptions.defaults(db);
        // file b: all ranks handed in, built once as one combined replica; file a: 2 of 4 ranks, gathered (not built)
        Fixture.RanksOfOneFile b = Fixture.ranksOfOneFile(tmp.resolve("b.dat"), JOB * BLOCK * 2, 1, JOB, JOB, BLOCK, 2);
        Fixture.RanksOfOneFile a = Fixture.ranksOfOneFile(tmp.resolve("a.dat"), JOB * BLOCK * 2, 2, JOB, 2, BLOCK, 2);
        Replication held = replication(o, new TransientCatalogAccess(db, 10_000));
        held.queue.offerAll(b.patterns());
        DaemonReport setUp = held.daemon.runOnce();
        assertEquals(1, setUp.published(), setUp.lines().toString());

        // the transfer offers a file's stored patterns again with each new one: b's come again (covered), a's are gathered
        List<KeyedPattern> handedIn = new ArrayList<>(b.patterns());
        handedIn.addAll(a.patterns());
        held.daemon.beforeEachPass(offering(db, handedIn));
        long before = JeEnvironments.opened();
        long t0 = System.nanoTime();
        DaemonReport r = held.daemon.pass(false, false);
        long heldNanos = System.nanoTime() - t0;
        long heldOpens = JeEnvironments.opened() - before;
        assertEquals(JOB, r.covered(), r.lines().toString());
        assertEquals(0, r.published(), r.lines().toString());
        assertFalse(TransientCatalogAccess.held(db), "the pass let the catalog go");

        // the same pass of a daemon that cannot hold: the hook's, the queue's, the look-ups' and the acknowledges' opens
        Replication unheld = replication(o, unholdable(new TransientCatalogAccess(db, 10_000)));
        unheld.daemon.runOnce();
        unheld.daemon.beforeEachPass(offering(db, handedIn));
        before = JeEnvironments.opened();
        t0 = System.nanoTime();
        DaemonReport u = unheld.daemon.pass(false, false);
        long unheldNanos = System.nanoTime() - t0;
        long unheldOpens = JeEnvironments.opened() - before;
        assertEquals(JOB, u.covered(), u.lines().toString());

        System.out.printf("DaemonCatalogHoldTest: a bookkeeping pass (transfer, queue, look-ups, space, %d acknowledges): held %d open(s) in %.0f ms;"
                + " unheld %d opens in %.0f ms%n", JOB, heldOpens, heldNanos / 1e6, unheldOpens, unheldNanos / 1e6);
        assertEquals(1, heldOpens, "one open for the whole pass");
        assertTrue(unheldOpens >= JOB + 4, "unheld, every transaction opens the environment: " + unheldOpens);
    }

    @Test
    void aScanOfCurrentReplicasOpensTheCatalogOnce() throws Exception {
        Path db = db();
        DaemonOptions o = DaemonOptions.defaults(db);
        Replication held = replication(o, new TransientCatalogAccess(db, 10_000));
        held.daemon.keepRanksApart();
        for (int n = 0; n < 3; n++) {
            held.queue.offerAll(Fixture.ranksOfOneFile(tmp.resolve("f" + n + ".dat"), BLOCK, n, 1, 1, BLOCK, 1).patterns());
        }
        assertEquals(3, held.daemon.runOnce().published());

        long before = JeEnvironments.opened();
        ReplicaScanner.Report r = held.scanner.scan();
        long heldOpens = JeEnvironments.opened() - before;
        assertEquals(0, r.removed() + r.requeued(), r.notes().toString());
        Replication unheld = replication(o, unholdable(new TransientCatalogAccess(db, 10_000)));
        before = JeEnvironments.opened();
        unheld.scanner.scan();
        long unheldOpens = JeEnvironments.opened() - before;
        System.out.printf("DaemonCatalogHoldTest: a scan of 3 current replicas: held %d opens, unheld %d%n", heldOpens, unheldOpens);
        assertEquals(1, heldOpens, "the scan's look-ups and probes, and the leftovers'");
        assertTrue(unheldOpens >= 3 + 4, "unheld, one per transaction: " + unheldOpens);
        assertFalse(TransientCatalogAccess.held(db));
    }

    /** One rank's pattern (built alone) or two ranks' of one file (built together from one read of the original). */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void theCatalogIsLetGoWhileABuildCopies(int ranks) throws Exception {
        Path db = db();
        // 6 MiB at 1 MiB/s: a copy of six seconds, long enough for another JVM to start and open the catalog
        DaemonOptions o = DaemonOptions.defaults(db).withRate(64 << 10, 1 << 20);
        int block = (6 << 20) / ranks;
        Fixture.RanksOfOneFile f = Fixture.ranksOfOneFile(tmp.resolve("big.dat"), 6 << 20, 3, ranks, ranks, block, 1);
        Replication r = replication(o, new TransientCatalogAccess(db, 30_000));
        r.daemon.keepRanksApart();
        r.daemon.beforeEachPass(offering(db, f.patterns()));
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread pass = new Thread(() -> {
            try {
                outcome.set(r.daemon.pass(false, false));
            } catch (IOException | RuntimeException e) {
                outcome.set(e);
            }
        }, "pass");
        pass.start();
        try {
            Path replicas = tmp.resolve(io.pdla.replicator.construct.ReplicaBuilder.DEFAULT_DIR);
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!copying(replicas) && pass.isAlive() && System.nanoTime() < deadline) Thread.sleep(10);
            assertTrue(copying(replicas), "the build began copying: " + outcome.get());
            assertEquals("OPENED", CatalogInAnotherProcess.tryOpen(db), "another process opens the catalog while the build copies");
            assertTrue(pass.isAlive(), "the copy was still under way when the other process had the catalog (slow it down more)");
        } finally {
            pass.join(60_000);
        }
        assertTrue(outcome.get() instanceof DaemonReport, String.valueOf(outcome.get()));
        DaemonReport report = (DaemonReport) outcome.get();
        assertEquals(ranks, report.published(), report.lines().toString());
        if (ranks > 1) assertTrue(report.lines().get(0).contains("from one read of the original"), report.lines().toString());
        assertFalse(TransientCatalogAccess.held(db));
    }

    private static boolean copying(Path replicas) throws IOException {
        if (!Files.isDirectory(replicas)) return false;
        try (Stream<Path> s = Files.walk(replicas)) {
            return s.anyMatch(p -> p.getFileName().toString().endsWith(".tmp"));
        }
    }

    @Test
    void aPassThatFailsLetsTheCatalogGo() throws Exception {
        Path db = db();
        TransientCatalogAccess access = new TransientCatalogAccess(db, 10_000);
        PatternQueue real = new CatalogPatternQueue(access);
        PatternQueue failing = new PatternQueue() {
            @Override
            public long offer(KeyedPattern pattern) throws IOException {
                return real.offer(pattern);
            }

            @Override
            public List<Long> offerAll(List<KeyedPattern> patterns) throws IOException {
                return real.offerAll(patterns);
            }

            @Override
            public List<QueuedPattern> pending() throws IOException {
                real.pending();
                throw new IOException("the queue cannot be read");
            }

            @Override
            public boolean acknowledge(QueuedPattern item) throws IOException {
                return real.acknowledge(item);
            }
        };
        Replication r = new Replication(DaemonOptions.defaults(db), access, failing, new PrintStream(new ByteArrayOutputStream(), true));
        Fixture.RanksOfOneFile f = Fixture.ranksOfOneFile(tmp.resolve("f.dat"), 1 << 20, 4, 1, 1, 1 << 20, 1);
        r.daemon.beforeEachPass(offering(db, f.patterns()));
        IOException e = assertThrows(IOException.class, () -> r.daemon.pass(false, false));
        assertEquals("the queue cannot be read", e.getMessage());
        assertFalse(TransientCatalogAccess.held(db), "the failed pass let the catalog go");
        assertEquals("OPENED", CatalogInAnotherProcess.tryOpen(db));
    }
}
