package io.pdla.replicator;

import io.pdla.replicator.build.BuildOutcome;
import io.pdla.replicator.catalog.ReplicaEntry;
import io.pdla.replicator.catalog.ReplicaState;
import io.pdla.replicator.daemon.DaemonReport;
import io.pdla.replicator.pattern.NestedStridedPattern;
import io.pdla.replicator.pattern.PatternKey;
import io.pdla.replicator.pattern.ReplicablePattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplicaBuilderTest {
    @TempDir
    Path tmp;

    @Test
    void daemonBuildsReplicasHoldingExactlyThePatternBytesInPatternOrder() throws Exception {
        Path f = tmp.resolve("data.bin");
        byte[] data = Fixture.writeRandomFile(f, 1 << 20, 7);
        try (Fixture fx = new Fixture(tmp)) {
            // negative stride, nested tile and plain stride patterns of three ranks
            ReplicablePattern a = NestedStridedPattern.strided(new PatternKey("app", 4, 0, f.toUri()), 0, 16384, 65536, 16);
            ReplicablePattern b = new NestedStridedPattern(new PatternKey("app", 4, 1, f.toUri()), 600_000, 100,
                    List.of(new NestedStridedPattern.Level(-1000, 50), new NestedStridedPattern.Level(100_000, 3)));
            ReplicablePattern c = NestedStridedPattern.strided(new PatternKey("app", 4, 2, f.toUri()), 12345, 4096, 4097, 100);
            for (ReplicablePattern p : List.of(a, b, c)) fx.replication.queue.offer(p);
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(3, r.published(), r.lines().toString());
            assertTrue(fx.replication.queue.pending().isEmpty());
            for (ReplicablePattern p : List.of(a, b, c)) {
                Optional<ReplicaEntry> e = fx.catalog.transact(t -> t.entry(p.key()));
                assertTrue(e.isPresent(), "catalog entry for " + p.key());
                assertEquals(ReplicaState.VALID, e.get().state());
                assertEquals("HServers", e.get().space());
                assertArrayEquals(Fixture.patternBytes(p, data), Files.readAllBytes(Path.of(e.get().replica())), "replica of " + p.describe());
                assertEquals(f.toFile().length(), e.get().identity().size());
            }
            assertTrue(fx.catalog.transact(t -> t.journalRows()).isEmpty(), "journal empty after publication");
            try (Stream<Path> files = Files.walk(tmp.resolve(".pdla-replicas"))) {
                assertFalse(files.anyMatch(p -> p.toString().endsWith(".tmp")), "no temporary files left");
            }
            // a second pass has nothing to do; re-offering a current pattern finds it up to date
            fx.replication.queue.offer(a);
            assertEquals(1, fx.replication.daemon.runOnce().upToDate());
        }
    }

    @Test
    void globalPatternsComeFirstAndCoveredLocalPatternsAreNotReplicatedAgain() throws Exception {
        Path f = tmp.resolve("g.bin");
        Fixture.writeRandomFile(f, 256 << 10, 3);
        try (Fixture fx = new Fixture(tmp)) {
            ReplicablePattern local = NestedStridedPattern.strided(new PatternKey("app", 2, 1, f.toUri()), 4096, 4096, 8192, 8);
            ReplicablePattern global = NestedStridedPattern.contiguous(new PatternKey("app", 2, -1, f.toUri()), 0, 128 << 10);
            ReplicablePattern uncovered = NestedStridedPattern.strided(new PatternKey("app", 2, 0, f.toUri()), 200 << 10, 1024, 2048, 8);
            fx.replication.queue.offer(local);
            fx.replication.queue.offer(uncovered);
            fx.replication.queue.offer(global);
            assertTrue(fx.replication.queue.pending().get(0).global(), "globals first");
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(2, r.published(), r.lines().toString());
            assertEquals(1, r.covered(), r.lines().toString());
            assertTrue(fx.catalog.transact(t -> t.entry(local.key())).isEmpty());
            assertTrue(fx.catalog.transact(t -> t.entry(uncovered.key())).isPresent());
        }
    }

    @Test
    void originalChangedOutsideTheShimIsDetectedRemovedAndRebuilt() throws Exception {
        Path f = tmp.resolve("c.bin");
        byte[] data = Fixture.writeRandomFile(f, 64 << 10, 5);
        try (Fixture fx = new Fixture(tmp)) {
            ReplicablePattern p = NestedStridedPattern.strided(new PatternKey("app", 1, 0, f.toUri()), 0, 1000, 3000, 20);
            fx.replication.queue.offer(p);
            assertEquals(1, fx.replication.daemon.runOnce().published());
            byte[] patch = {1, 2, 3, 4};
            Thread.sleep(5); // mtime granularity
            Fixture.overwrite(f, 3000, patch);
            System.arraycopy(patch, 0, data, 3000, 4);
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(1, r.published(), "the scanner re-queued the changed replica: " + r.lines());
            ReplicaEntry e = fx.catalog.transact(t -> t.entry(p.key())).orElseThrow();
            assertArrayEquals(Fixture.patternBytes(p, data), Files.readAllBytes(Path.of(e.replica())));
            try (Stream<Path> s = Files.list(Path.of(e.replica()).getParent())) {
                assertEquals(1, s.count(), "the old replica file was deleted");
            }
        }
    }

    @Test
    void placementFollowsTheCostModelAndAlgorithm1() throws Exception {
        Path f = tmp.resolve("s.bin");
        Fixture.writeRandomFile(f, 2 << 20, 9);
        io.pdla.replicator.build.PlacementConfig cfg = io.pdla.replicator.build.PlacementConfig.hddOnly(8).withSsd(4, 300 << 10);
        try (Fixture fx = new Fixture(tmp, io.pdla.replicator.daemon.DaemonOptions.defaults(tmp.resolve("catalog")).withPlacement(cfg).withRate(64 << 10, 0))) {
            // 16 KiB requests of 64 processes: small requests, SSDs win (critical); the space fits only one
            ReplicablePattern big = NestedStridedPattern.strided(new PatternKey("ior", 64, -1, f.toUri()), 0, 16384, 16384, 64);
            ReplicablePattern small = NestedStridedPattern.strided(new PatternKey("ior", 64, -1, tmp.resolve("t.bin").toUri()), 0, 16384, 16384, 32);
            Fixture.writeRandomFile(tmp.resolve("t.bin"), 1 << 20, 1);
            var plan = fx.replication.builder.planner().plan(List.of(big, small), 0);
            long onSsd = plan.values().stream().filter(pl -> !pl.space().label().equals("HServers")).count();
            assertEquals(1, onSsd, "SSD space for one replica only: " + plan);
            assertTrue(plan.values().stream().anyMatch(pl -> pl.why() != null && pl.why().contains("SSD space is full")), plan.toString());
            fx.replication.queue.offer(big);
            fx.replication.queue.offer(small);
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(2, r.published(), r.lines().toString());
            List<ReplicaEntry> all = fx.catalog.transact(t -> {
                List<ReplicaEntry> l = new java.util.ArrayList<>();
                t.forEachEntry(l::add, k -> { });
                return l;
            });
            assertTrue(all.stream().anyMatch(e -> e.space().startsWith("SServers") || e.space().startsWith("HServers+")), all.toString());
            assertTrue(all.stream().allMatch(e -> !e.layoutNote().isEmpty()), "POSIX records the layout as not applied");
        }
    }

    @Test
    void sameProcessReusesReplicaWhenNothingChanged() throws Exception {
        Path f = tmp.resolve("u.bin");
        Fixture.writeRandomFile(f, 8192, 2);
        try (Fixture fx = new Fixture(tmp)) {
            ReplicablePattern p = NestedStridedPattern.contiguous(new PatternKey("x", 1, 0, f.toUri()), 100, 1000);
            var placement = fx.replication.builder.planner().onHServers(p, null);
            assertEquals(BuildOutcome.Kind.PUBLISHED, fx.replication.builder.build(p, placement).kind());
            assertEquals(BuildOutcome.Kind.UP_TO_DATE, fx.replication.builder.build(p, placement).kind());
        }
    }
}
