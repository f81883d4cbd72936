package io.pdla.replicator;

import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.catalog.guard.PendingWrites;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.daemon.DaemonReport;
import io.pdla.replicator.daemon.RankMajorGroups;
import io.pdla.storage.StorageDrivers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A job's ranks' patterns of one file combined into one replica holding rank after rank: which patterns combine, the
 * replica's bytes (each rank's in its order, rank after rank), the ranks' own items covered by it, and the running
 * daemon waiting for the rest of a job's ranks before building any of them.
 */
class RankMajorReplicaTest {
    private static final long WAIT_SECONDS = 60;

    @TempDir
    Path tmp;

    private static KeyedPattern rank(Path f, int np, int rank, Geometry g) {
        return KeyedPattern.of(new PatternKey(new AppIdentity("app", np), rank, f.toUri()), g);
    }

    /** The bytes of the ranks' patterns, rank after rank (by start): what a combined replica must hold. */
    private static byte[] rankAfterRank(List<KeyedPattern> ps, byte[] original) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ps.stream().sorted(java.util.Comparator.comparingLong(p -> p.geometry().start()))
                .forEach(p -> out.writeBytes(Fixture.patternBytes(p, original)));
        return out.toByteArray();
    }

    @Test
    void stridedRanksCombineIntoOneGlobalPatternRankAfterRank() {
        Path f = tmp.resolve("a.bin");
        List<KeyedPattern> ps = Fixture.stridedRanks(f, 4, 4, 16384, 8);
        KeyedPattern c = RankMajorGroups.combine(List.of(ps.get(2), ps.get(0), ps.get(3), ps.get(1))).orElseThrow();
        assertTrue(c.key().global());
        assertEquals(4, c.geometry().groups());
        assertEquals(4 * 8 * 16384, c.totalBytes());
        assertEquals(8 * 16384, c.processRun(), "each rank's region");
        assertEquals(4 * 8, c.requests());
        // rank 1's first byte opens the second region; rank 0's second block follows its first
        assertEquals(8 * 16384, c.geometry().positionOf(16384));
        assertEquals(16384, c.geometry().positionOf(4 * 16384));
        assertEquals(RankMajorGroups.SERVED_WINDOW_BYTES, RankMajorGroups.servedWindow(c));
        assertEquals(0, RankMajorGroups.servedWindow(ps.get(0)));
    }

    @Test
    void patternsThatDoNotFormOneRankMajorGeometryStayApart() {
        Path f = tmp.resolve("b.bin");
        List<KeyedPattern> ps = Fixture.stridedRanks(f, 4, 4, 16384, 8);
        assertTrue(RankMajorGroups.combine(List.of(ps.get(0))).isEmpty(), "one rank");
        assertTrue(RankMajorGroups.combine(List.of(ps.get(0), ps.get(0))).isEmpty(), "the same rank twice");
        assertTrue(RankMajorGroups.combine(List.of(ps.get(0), ps.get(1), ps.get(3))).isEmpty(), "starts not equally spaced");
        KeyedPattern otherShape = rank(f, 4, 2, Geometry.strided(2 * 16384, 16384, 4 * 16384, 7));
        assertTrue(RankMajorGroups.combine(List.of(ps.get(0), ps.get(1), otherShape)).isEmpty(), "another shape");
        KeyedPattern otherFile = rank(tmp.resolve("c.bin"), 4, 1, ps.get(1).geometry());
        assertTrue(RankMajorGroups.combine(List.of(ps.get(0), otherFile)).isEmpty(), "another file");
        KeyedPattern otherJob = rank(f, 8, 1, ps.get(1).geometry());
        assertTrue(RankMajorGroups.combine(List.of(ps.get(0), otherJob)).isEmpty(), "another job");
        // ranks whose blocks would overlap: 16 KiB blocks 8 KiB apart
        List<KeyedPattern> overlapping = List.of(rank(f, 4, 0, Geometry.strided(0, 16384, 65536, 4)),
                rank(f, 4, 1, Geometry.strided(8192, 16384, 65536, 4)));
        assertTrue(RankMajorGroups.combine(overlapping).isEmpty(), "copies sharing bytes");
    }

    @Test
    void aDaemonThatCombinesBuildsOneReplicaRankAfterRankAndTheRanksItemsAreCovered() throws Exception {
        Fixture.RanksOfOneFile job = Fixture.ranksOfOneFile(tmp.resolve("data.bin"), 4 * 6000 * 50 + 123, 31, 4, 4, 6000, 50);
        List<KeyedPattern> ps = job.patterns();
        try (Fixture fx = new Fixture(tmp)) {
            fx.replication.daemon.gatherRanksFor(0);
            job.offerTo(fx);
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(1, r.published(), r.lines().toString());
            assertEquals(4, r.covered(), r.lines().toString());
            assertTrue(fx.replication.queue.pending().isEmpty(), "every item done");
            ReplicaEntry e = fx.catalog.transact(t -> t.entry(ps.get(0).key().asGlobal())).orElseThrow();
            assertEquals(ReplicaState.VALID, e.state());
            assertEquals(4, e.pattern().geometry().groups());
            assertArrayEquals(rankAfterRank(ps, job.data()), Files.readAllBytes(Path.of(e.replica())));
            assertEquals(PendingWrites.Verdict.NONE, PendingWrites.of(StorageDrivers.installed().forUri(e.replica()), e.replica()));
            for (KeyedPattern p : ps) assertTrue(fx.catalog.transact(t -> t.entry(p.key())).isEmpty(), "no replica of rank " + p.key().rank() + " alone");
            // handed in again (the job's next run): covered by the combined replica, nothing built
            job.offerTo(fx);
            DaemonReport again = fx.replication.daemon.runOnce();
            assertEquals(0, again.published(), again.lines().toString());
            assertEquals(4, again.covered(), again.lines().toString());
        }
    }

    /**
     * The combined replica's global key is not in the pattern database (the ranks handed in their own keys): the scanner
     * keeps it while any of its ranks' patterns is known there, and drops it once none is. It dropped it at the first
     * scan (OnlinePdlaSimPfsTest, 2026-11-29).
     */
    @Test
    void theScannerKeepsACombinedReplicaWhileItsRanksPatternsAreKnown() throws Exception {
        List<KeyedPattern> ps = Fixture.ranksOfOneFile(tmp.resolve("known.bin"), 4 * 4096 * 16, 35, 4, 4, 4096, 16).patterns();
        java.util.Set<PatternKey> known = java.util.concurrent.ConcurrentHashMap.newKeySet();
        for (KeyedPattern p : ps) known.add(p.key());
        io.pdla.catalog.Catalog catalog = io.pdla.catalog.Catalog.open(tmp.resolve("catalog"));
        try {
            io.pdla.catalog.CatalogAccesses.register(tmp.resolve("catalog"), catalog);
            io.pdla.replicator.daemon.Replication r = new io.pdla.replicator.daemon.Replication(
                    io.pdla.replicator.daemon.DaemonOptions.defaults(tmp.resolve("catalog")).withRate(64 << 10, 0), catalog,
                    new io.pdla.replicator.queue.CatalogPatternQueue(catalog), new java.io.PrintStream(new ByteArrayOutputStream()), known::contains);
            r.daemon.gatherRanksFor(0);
            for (KeyedPattern p : ps) r.queue.offer(p);
            assertEquals(1, r.daemon.runOnce().published());
            PatternKey global = ps.get(0).key().asGlobal();
            r.scanner.scan();
            assertTrue(catalog.transact(t -> t.entry(global)).isPresent(), "kept: its ranks' patterns are known");
            known.remove(ps.get(0).key());
            known.remove(ps.get(1).key());
            r.scanner.scan();
            assertTrue(catalog.transact(t -> t.entry(global)).isPresent(), "kept while any rank's is");
            known.clear();
            r.scanner.scan();
            assertTrue(catalog.transact(t -> t.entry(global)).isEmpty(), "dropped once none is");
        } finally {
            io.pdla.catalog.CatalogAccesses.unregister(tmp.resolve("catalog"));
            catalog.close();
        }
    }

    /** Ranks whose blocks leave most of the file unread are copied in the replica's order rather than in one pass: the same bytes. */
    @Test
    void sparseRanksAreCopiedRankAfterRankWithTheSameResult() throws Exception {
        Path f = tmp.resolve("sparse.bin");
        byte[] data = Fixture.writeRandomFile(f, 32768 * 40, 36);
        List<KeyedPattern> ps = List.of(rank(f, 2, 0, Geometry.strided(0, 4096, 32768, 40)), rank(f, 2, 1, Geometry.strided(4096, 4096, 32768, 40)));
        try (Fixture fx = new Fixture(tmp)) {
            fx.replication.daemon.gatherRanksFor(0);
            for (KeyedPattern p : ps) fx.replication.queue.offer(p);
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(1, r.published(), r.lines().toString());
            ReplicaEntry e = fx.catalog.transact(t -> t.entry(ps.get(0).key().asGlobal())).orElseThrow();
            assertArrayEquals(rankAfterRank(ps, data), Files.readAllBytes(Path.of(e.replica())));
            assertEquals(PendingWrites.Verdict.NONE, PendingWrites.of(StorageDrivers.installed().forUri(e.replica()), e.replica()));
        }
    }

    @Test
    void aSingleRunOnceKeepsOneReplicaPerRankUnlessToldToCombine() throws Exception {
        Fixture.RanksOfOneFile job = Fixture.ranksOfOneFile(tmp.resolve("once.bin"), 2 * 4096 * 16, 32, 2, 2, 4096, 16);
        List<KeyedPattern> ps = job.patterns();
        try (Fixture fx = new Fixture(tmp)) {
            job.offerTo(fx);
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(2, r.published(), r.lines().toString());
            for (KeyedPattern p : ps) assertTrue(fx.catalog.transact(t -> t.entry(p.key())).isPresent());
            assertTrue(fx.catalog.transact(t -> t.entry(ps.get(0).key().asGlobal())).isEmpty());
        }
    }

    @Test
    void theRunningDaemonWaitsForTheRestOfTheRanksAndBuildsOneReplicaForAll() throws Exception {
        Fixture.RanksOfOneFile job = Fixture.ranksOfOneFile(tmp.resolve("gather.bin"), 4 * 8192 * 32, 33, 4, 4, 8192, 32);
        List<KeyedPattern> ps = job.patterns();
        try (Fixture fx = new Fixture(tmp)) {
            fx.replication.daemon.gatherRanksFor(30_000);
            fx.replication.queue.offer(ps.get(0));
            fx.replication.queue.offer(ps.get(1));
            // two of four: held, nothing built, both still queued
            DaemonReport first = fx.replication.daemon.runOnce();
            assertEquals(0, first.published(), first.lines().toString());
            assertTrue(first.lines().stream().anyMatch(l -> l.startsWith("GATHERING") && l.contains("2 of 4")), first.lines().toString());
            assertEquals(2, fx.replication.queue.pending().size());
            fx.replication.queue.offer(ps.get(2));
            fx.replication.queue.offer(ps.get(3));
            Thread loop = fx.runDaemonInBackground(600_000);   // a poll of ten minutes: only wake-ups and waits' ends start passes
            try {
                ReplicaEntry e = await(fx, ps.get(0).key().asGlobal());
                assertEquals(4, e.pattern().geometry().groups(), "all four ranks in one replica");
                assertArrayEquals(rankAfterRank(ps, job.data()), Files.readAllBytes(Path.of(e.replica())));
            } finally {
                fx.replication.daemon.stop();
                loop.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            }
            assertFalse(loop.isAlive());
        }
    }

    /**
     * The transfer from the pattern database offers a file's stored patterns again with each new one, so held ranks come
     * twice. Counted twice, the group did not combine and every rank got a replica of its own (review, 2026-11-29).
     */
    @Test
    void ranksHandedInAgainBesideTheNewOnesStillCombine() throws Exception {
        Fixture.RanksOfOneFile job = Fixture.ranksOfOneFile(tmp.resolve("again.bin"), 4 * 8192 * 32, 37, 4, 4, 8192, 32);
        List<KeyedPattern> ps = job.patterns();
        try (Fixture fx = new Fixture(tmp)) {
            fx.replication.daemon.gatherRanksFor(30_000);
            fx.replication.queue.offer(ps.get(0));
            assertEquals(0, fx.replication.daemon.runOnce().published(), "a lone rank of four is held too");
            fx.replication.queue.offer(ps.get(1));
            DaemonReport held = fx.replication.daemon.runOnce();
            assertEquals(0, held.published(), held.lines().toString());
            job.offerTo(fx);   // ranks 0 and 1 again, with 2 and 3
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(1, r.published(), r.lines().toString());
            assertEquals(6, r.covered(), "every rank's items, the repeated ones too: " + r.lines());
            assertTrue(fx.replication.queue.pending().isEmpty());
            ReplicaEntry e = fx.catalog.transact(t -> t.entry(ps.get(0).key().asGlobal())).orElseThrow();
            assertEquals(4, e.pattern().geometry().groups());
            assertArrayEquals(rankAfterRank(ps, job.data()), Files.readAllBytes(Path.of(e.replica())));
            for (KeyedPattern p : ps) assertTrue(fx.catalog.transact(t -> t.entry(p.key())).isEmpty(), "no replica of rank " + p.key().rank() + " alone");
        }
    }

    /**
     * A combined replica of some of a job's ranks is replaced by one of all of them once they come; ranks it already holds
     * are covered by it, nothing built. Kept, it blocked every later combination of that job and file (review, 2026-11-29).
     */
    @Test
    void aCombinedReplicaThatLacksRanksIsReplacedByOneOfAllOfThem() throws Exception {
        Fixture.RanksOfOneFile job = Fixture.ranksOfOneFile(tmp.resolve("grow.bin"), 4 * 8192 * 32, 38, 4, 4, 8192, 32);
        List<KeyedPattern> ps = job.patterns();
        try (Fixture fx = new Fixture(tmp)) {
            fx.replication.daemon.gatherRanksFor(0);
            fx.replication.queue.offer(ps.get(1));
            fx.replication.queue.offer(ps.get(2));
            assertEquals(1, fx.replication.daemon.runOnce().published());
            PatternKey global = ps.get(0).key().asGlobal();
            assertEquals(2, fx.catalog.transact(t -> t.entry(global)).orElseThrow().pattern().geometry().groups());
            fx.replication.queue.offer(ps.get(1));
            fx.replication.queue.offer(ps.get(2));
            DaemonReport covered = fx.replication.daemon.runOnce();
            assertEquals(0, covered.published(), covered.lines().toString());
            assertEquals(2, covered.covered(), covered.lines().toString());
            job.offerTo(fx);
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(1, r.published(), r.lines().toString());
            ReplicaEntry e = fx.catalog.transact(t -> t.entry(global)).orElseThrow();
            assertEquals(4, e.pattern().geometry().groups());
            assertArrayEquals(rankAfterRank(ps, job.data()), Files.readAllBytes(Path.of(e.replica())));
        }
    }

    @Test
    void ranksThatNeverAllComeAreCombinedAsTheyAreOnceTheWaitEnds() throws Exception {
        Fixture.RanksOfOneFile job = Fixture.ranksOfOneFile(tmp.resolve("late.bin"), 4 * 8192 * 32, 34, 4, 4, 8192, 32);
        List<KeyedPattern> ps = job.patterns();
        try (Fixture fx = new Fixture(tmp)) {
            fx.replication.daemon.gatherRanksFor(300);
            fx.replication.queue.offer(ps.get(1));
            fx.replication.queue.offer(ps.get(2));
            Thread loop = fx.runDaemonInBackground(600_000);   // a poll of ten minutes: only wake-ups and waits' ends start passes
            try {
                ReplicaEntry e = await(fx, ps.get(0).key().asGlobal());
                assertEquals(2, e.pattern().geometry().groups());
                assertArrayEquals(rankAfterRank(List.of(ps.get(1), ps.get(2)), job.data()), Files.readAllBytes(Path.of(e.replica())));
            } finally {
                fx.replication.daemon.stop();
                loop.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            }
        }
    }

    private static ReplicaEntry await(Fixture fx, PatternKey key) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (System.nanoTime() < end) {
            Optional<ReplicaEntry> e = fx.catalog.transact(t -> t.entry(key));
            if (e.isPresent()) return e.get();
            Thread.sleep(50);
        }
        throw new AssertionError("no replica of " + key.id() + " within " + WAIT_SECONDS + " s");
    }
}
