package io.pdla.replicator;

import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.catalog.guard.PendingWrites;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.construct.BuildOutcome;
import io.pdla.replicator.construct.ReplicaBuilder;
import io.pdla.replicator.daemon.DaemonOptions;
import io.pdla.replicator.daemon.DaemonReport;
import io.pdla.storage.StorageDrivers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The replicas of several patterns of one original filled from one read of it (the ranks' interleaved patterns that
 * online PDLA hands in together): each replica holds exactly its pattern's bytes in its order and is marked in step,
 * a replica that fails leaves the others to be published, and the daemon's rate limit holds for all of them together.
 */
class SharedReadBuildTest {
    @TempDir
    Path tmp;
    private Path mount;

    @AfterEach
    void unmount() throws Exception {
        if (mount != null) new ProcessBuilder("umount", mount.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
    }

    private static KeyedPattern rank(Path f, int rank, Geometry g) {
        return KeyedPattern.of(new PatternKey(new AppIdentity("app", 4), rank, f.toUri()), g);
    }

    private static void assertReplicaHolds(Fixture fx, KeyedPattern p, byte[] original) throws IOException {
        ReplicaEntry e = fx.catalog.transact(t -> t.entry(p.key())).orElseThrow(() -> new AssertionError("no entry for " + p.key().id()));
        assertEquals(ReplicaState.VALID, e.state());
        assertArrayEquals(Fixture.patternBytes(p, original), Files.readAllBytes(Path.of(e.replica())), "replica of " + p.describe());
        // the in-step mark is the digest of this replica's own bytes, not of another's filled in the same read
        assertEquals(PendingWrites.Verdict.NONE, PendingWrites.of(StorageDrivers.installed().forUri(e.replica()), e.replica()), "mark of " + p.key().id());
    }

    private static void assertNothingLeft(Fixture fx, Path under) throws IOException {
        assertTrue(fx.catalog.transact(t -> t.journalRows()).isEmpty(), "journal empty");
        if (!Files.exists(under)) return;
        try (Stream<Path> files = Files.walk(under)) {
            assertFalse(files.anyMatch(p -> p.toString().endsWith(".tmp")), "no temporary replica left");
        }
    }

    @Test
    void theRanksInterleavedPatternsAreFilledFromOneReadEachWithExactlyItsBytesInItsOrder() throws Exception {
        // pieces of 6000 bytes straddle the 64 KiB windows; the file's end is not a multiple of anything
        Fixture.RanksOfOneFile job = Fixture.ranksOfOneFile(tmp.resolve("data.bin"), 4 * 6000 * 50 + 123, 11, 4, 4, 6000, 50);
        List<KeyedPattern> ps = job.patterns();
        byte[] data = job.data();
        assertTrue(ReplicaBuilder.readOnceFor(ps), "interleaved ascending patterns of one file share the read");
        try (Fixture fx = new Fixture(tmp)) {
            job.offerTo(fx);
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(4, r.published(), r.lines().toString());
            assertTrue(r.lines().get(0).contains("4 replicas filled from one read of the original"), r.lines().toString());
            for (KeyedPattern p : ps) assertReplicaHolds(fx, p, data);
            assertTrue(fx.replication.queue.pending().isEmpty());
            assertNothingLeft(fx, tmp.resolve(".pdla-replicas"));
            // the same patterns again: up to date, nothing rebuilt
            job.offerTo(fx);
            assertEquals(4, fx.replication.daemon.runOnce().upToDate());
        }
    }

    /**
     * A pattern queued twice (the scanner re-queues one still queued) is built once: its second item finds the first's
     * replica current. Built in the same shared read, the second publication replaced the first's replica and left
     * it, and a journal row, behind (CrashSafetyTest, 2026-11-29).
     */
    @Test
    void aPatternQueuedTwiceIsBuiltOnceAndNothingIsLeftBehind() throws Exception {
        Fixture.RanksOfOneFile job = Fixture.ranksOfOneFile(tmp.resolve("twice.bin"), 2 * 16384 * 32, 18, 4, 2, 16384, 32);
        List<KeyedPattern> ps = job.patterns();
        byte[] data = job.data();
        assertFalse(ReplicaBuilder.readOnceFor(List.of(ps.get(0), ps.get(1), ps.get(0))), "the same key twice is not read for together");
        try (Fixture fx = new Fixture(tmp)) {
            fx.replication.queue.offer(ps.get(0));
            fx.replication.queue.offer(ps.get(1));
            fx.replication.queue.offer(ps.get(0));
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(2, r.published(), r.lines().toString());
            assertEquals(1, r.upToDate(), r.lines().toString());
            for (KeyedPattern p : ps) assertReplicaHolds(fx, p, data);
            assertNothingLeft(fx, tmp.resolve(".pdla-replicas"));
            try (Stream<Path> files = Files.walk(tmp.resolve(".pdla-replicas"))) {
                assertEquals(2, files.filter(Files::isRegularFile).count(), "one replica file per pattern");
            }
        }
    }

    @Test
    void overlappingPatternsHolesWiderThanAWindowAndPiecesLongerThanOneAreEachCopiedExactly() throws Exception {
        Path f = tmp.resolve("mixed.bin");
        byte[] data = Fixture.writeRandomFile(f, 1 << 20, 12);
        List<KeyedPattern> ps = List.of(
                rank(f, 0, Geometry.contiguous(1000, 700_000)),               // longer than ten windows
                rank(f, 1, Geometry.strided(500, 3000, 7000, 100)),           // overlaps the first
                rank(f, 2, Geometry.strided(0, 4096, 300_000, 3)),            // holes wider than a window
                rank(f, 3, Geometry.of(new Geometry.Spec(800_000,              // two segments a cycle, ascending
                        new long[]{0, 5000}, new long[]{1000, 2000}, new long[]{8000}, new long[]{20}, 20 * 3000))));
        assertTrue(ReplicaBuilder.readOnceFor(ps));
        try (Fixture fx = new Fixture(tmp)) {
            List<ReplicaBuilder.Attempt> as = fx.replication.builder.buildTogether(ps, fx.replication.builder.planner().plan(ps, 0, q -> 0));
            for (ReplicaBuilder.Attempt a : as) {
                assertNull(a.failure());
                assertEquals(BuildOutcome.Kind.PUBLISHED, a.outcome().kind(), a.outcome().message());
            }
            for (KeyedPattern p : ps) assertReplicaHolds(fx, p, data);
            assertNothingLeft(fx, tmp.resolve(".pdla-replicas"));
        }
    }

    @Test
    void patternsThatDoNotAscendOrLieSparselyAreBuiltOneByOneAsBefore() throws Exception {
        Path f = tmp.resolve("other.bin");
        byte[] data = Fixture.writeRandomFile(f, 1 << 20, 13);
        KeyedPattern backwards = rank(f, 0, Geometry.of(new Geometry.Spec(900_000, new long[]{0}, new long[]{100},
                new long[]{-1000}, new long[]{50}, 100 * 50)));
        KeyedPattern forwards = rank(f, 1, Geometry.strided(0, 4096, 8192, 64));
        KeyedPattern sparse = rank(f, 2, Geometry.strided(0, 512, 65536, 16));
        KeyedPattern sparse2 = rank(f, 3, Geometry.strided(512, 512, 65536, 16));
        assertFalse(ReplicaBuilder.readOnceFor(List.of(backwards, forwards)), "a pattern going backwards");
        assertFalse(ReplicaBuilder.readOnceFor(List.of(sparse, sparse2)), "holes many times the bytes wanted");
        assertFalse(ReplicaBuilder.readOnceFor(List.of(forwards)), "a single pattern");
        try (Fixture fx = new Fixture(tmp)) {
            for (KeyedPattern p : List.of(backwards, forwards, sparse, sparse2)) fx.replication.queue.offer(p);
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(4, r.published(), r.lines().toString());
            assertTrue(r.lines().stream().noneMatch(l -> l.contains("one read")), r.lines().toString());
            for (KeyedPattern p : List.of(backwards, forwards, sparse, sparse2)) assertReplicaHolds(fx, p, data);
        }
    }

    @Test
    void aPatternPastTheEndOfTheOriginalIsRejectedAloneAndTheOthersArePublished() throws Exception {
        Fixture.RanksOfOneFile job = Fixture.ranksOfOneFile(tmp.resolve("short.bin"), 4 * 4096 * 64, 14, 4, 3, 4096, 64);
        byte[] data = job.data();
        List<KeyedPattern> ps = new ArrayList<>(job.patterns());
        KeyedPattern tooLong = rank(job.file(), 3, Geometry.strided(3 * 4096, 4096, 4 * 4096, 100));   // 36 segments past the end
        ps.add(1, tooLong);
        try (Fixture fx = new Fixture(tmp)) {
            for (KeyedPattern p : ps) fx.replication.queue.offer(p);
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(3, r.published(), r.lines().toString());
            assertEquals(1, r.rejected(), r.lines().toString());
            assertTrue(r.lines().stream().anyMatch(l -> l.startsWith("REJECTED") && l.contains("reaches past the end of original")), r.lines().toString());
            for (KeyedPattern p : ps) if (p != tooLong) assertReplicaHolds(fx, p, data);
            assertTrue(fx.catalog.transact(t -> t.entry(tooLong.key())).isEmpty());
            assertNothingLeft(fx, tmp.resolve(".pdla-replicas"));
        }
    }

    @Test
    void aReplicaWhoseDirectoryCannotBeMadeFailsAloneAndTheOthersArePublished() throws Exception {
        Fixture.RanksOfOneFile job = Fixture.ranksOfOneFile(tmp.resolve("blocked.bin"), 4 * 4096 * 64, 15, 4, 4, 4096, 64);
        List<KeyedPattern> ps = job.patterns();
        byte[] data = job.data();
        try (Fixture fx = new Fixture(tmp)) {
            // a plain file where rank 2's replica directory goes
            URI blocked = fx.replication.builder.replicaDir(ps.get(2));
            Path blockedPath = Path.of(blocked);
            Files.createDirectories(blockedPath.getParent());
            Files.write(blockedPath, new byte[]{1});
            List<ReplicaBuilder.Attempt> as = fx.replication.builder.buildTogether(ps, fx.replication.builder.planner().plan(ps, 0, q -> 0));
            assertTrue(as.get(2).failure() != null || as.get(2).outcome().kind() != BuildOutcome.Kind.PUBLISHED, "rank 2's build cannot succeed");
            for (int k : new int[]{0, 1, 3}) {
                assertEquals(BuildOutcome.Kind.PUBLISHED, as.get(k).outcome().kind(), as.get(k).outcome().message());
                assertReplicaHolds(fx, ps.get(k), data);
            }
            assertTrue(fx.catalog.transact(t -> t.entry(ps.get(2).key())).isEmpty());
            assertNothingLeft(fx, tmp.resolve(".pdla-replicas"));
        }
    }

    /**
     * A replica that fills its store mid-copy is put off (nothing of it left) and the others, which fit, are published:
     * whichever replica's write meets the full store is dropped from the shared read and its space given back at once,
     * and each one dropped for its writes is built again alone (a 1 MiB tmpfs the test mounts for the replicas; skipped
     * where mounting is not permitted).
     */
    @Test
    void aReplicaThatFillsItsStoreMidCopyIsPutOffAndTheOthersArePublished() throws Exception {
        Path small = Files.createDirectories(tmp.resolve("small"));
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m,mode=755", "tmpfs", small.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        boolean mounted = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        if (!mounted) System.out.println("SKIPPED " + getClass().getSimpleName() + " full store: cannot mount a 1 MiB tmpfs: " + out.strip());
        assumeTrue(mounted, "cannot mount a 1 MiB tmpfs: " + out.strip());
        mount = small;
        Path f = tmp.resolve("big.bin");
        byte[] data = Fixture.writeRandomFile(f, 8 << 20, 16);
        KeyedPattern whole = rank(f, 0, Geometry.contiguous(0, 8 << 20));            // 8 MiB: cannot fit
        KeyedPattern a = rank(f, 1, Geometry.strided(0, 4096, 65536, 64));          // 256 KiB each: fit
        KeyedPattern b = rank(f, 2, Geometry.strided(4096, 4096, 65536, 64));
        List<KeyedPattern> ps = List.of(whole, a, b);
        DaemonOptions o = DaemonOptions.defaults(tmp.resolve("catalog")).withRate(64 << 10, 0).withReplicaRoot(small.toUri());
        try (Fixture fx = new Fixture(tmp, o)) {
            for (KeyedPattern q : ps) fx.replication.queue.offer(q);
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(2, r.published(), r.lines().toString());
            assertEquals(1, r.deferred(), r.lines().toString());
            assertTrue(r.lines().stream().anyMatch(l -> l.startsWith("DEFERRED") && l.contains("no space left")), r.lines().toString());
            assertReplicaHolds(fx, a, data);
            assertReplicaHolds(fx, b, data);
            assertTrue(fx.catalog.transact(t -> t.entry(whole.key())).isEmpty(), "nothing published for the replica that did not fit");
            assertEquals(1, fx.replication.queue.pending().size(), "it stays queued");
            assertNothingLeft(fx, small);
        }
    }

    @Test
    void theRateLimitCountsTheBytesOfAllTheReplicasFilledTogether() throws Exception {
        Fixture.RanksOfOneFile job = Fixture.ranksOfOneFile(tmp.resolve("rated.bin"), 1 << 20, 17, 4, 4, 4096, 64);   // 256 KiB each, 1 MiB together
        List<KeyedPattern> ps = job.patterns();
        byte[] data = job.data();
        DaemonOptions o = DaemonOptions.defaults(tmp.resolve("catalog")).withRate(64 << 10, 2 << 20);
        try (Fixture fx = new Fixture(tmp, o)) {
            long t0 = System.nanoTime();
            List<ReplicaBuilder.Attempt> as = fx.replication.builder.buildTogether(ps, fx.replication.builder.planner().plan(ps, 0, q -> 0));
            double s = (System.nanoTime() - t0) / 1e9;
            for (ReplicaBuilder.Attempt a : as) assertEquals(BuildOutcome.Kind.PUBLISHED, a.outcome().kind());
            // 1 MiB at 2 MiB/s: half a second at least (each replica alone would be allowed it in an eighth)
            assertTrue(s >= 0.45, "1 MiB at 2 MiB/s took only " + s + " s");
            for (KeyedPattern p : ps) assertReplicaHolds(fx, p, data);
        }
    }
}
