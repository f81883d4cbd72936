package io.pdla.replicator;

import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.construct.BuildOutcome;
import io.pdla.replicator.daemon.DaemonReport;
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

    /**
     * The builder's publication seam (a step run inside the daemon's publication) is for tests only: no public or
     * protected member of the builder takes a step to run, so a program linking the replicator cannot set one.
     */
    @Test
    void noPublicMemberOfTheBuilderTakesAStepToRun() {
        for (java.lang.reflect.Method m : io.pdla.replicator.construct.ReplicaBuilder.class.getDeclaredMethods()) {
            int mod = m.getModifiers();
            if (!java.lang.reflect.Modifier.isPublic(mod) && !java.lang.reflect.Modifier.isProtected(mod)) continue;
            for (Class<?> t : m.getParameterTypes()) {
                assertFalse(Runnable.class.isAssignableFrom(t) || java.util.function.Consumer.class.isAssignableFrom(t),
                        "public test hook on ReplicaBuilder: " + m);
            }
        }
    }

    @Test
    void daemonBuildsReplicasHoldingExactlyThePatternBytesInPatternOrder() throws Exception {
        Path f = tmp.resolve("data.bin");
        byte[] data = Fixture.writeRandomFile(f, 1 << 20, 7);
        try (Fixture fx = new Fixture(tmp)) {
            // negative stride, nested tile and plain stride patterns of three ranks
            KeyedPattern a = KeyedPattern.of(new PatternKey(new AppIdentity("app", 4), 0, f.toUri()), Geometry.strided(0, 16384, 65536, 16));
            KeyedPattern b = KeyedPattern.of(new PatternKey(new AppIdentity("app", 4), 1, f.toUri()), Geometry.of(new Geometry.Spec(600_000,
                    new long[]{0}, new long[]{100}, new long[]{-1000, 100_000}, new long[]{50, 3}, 100 * 50 * 3)));
            KeyedPattern c = KeyedPattern.of(new PatternKey(new AppIdentity("app", 4), 2, f.toUri()), Geometry.strided(12345, 4096, 4097, 100));
            for (KeyedPattern p : List.of(a, b, c)) fx.replication.queue.offer(p);
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(3, r.published(), r.lines().toString());
            assertTrue(fx.replication.queue.pending().isEmpty());
            for (KeyedPattern p : List.of(a, b, c)) {
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
            KeyedPattern local = KeyedPattern.of(new PatternKey(new AppIdentity("app", 2), 1, f.toUri()), Geometry.strided(4096, 4096, 8192, 8));
            KeyedPattern global = KeyedPattern.of(new PatternKey(new AppIdentity("app", 2), -1, f.toUri()), Geometry.contiguous(0, 128 << 10));
            KeyedPattern uncovered = KeyedPattern.of(new PatternKey(new AppIdentity("app", 2), 0, f.toUri()), Geometry.strided(200 << 10, 1024, 2048, 8));
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
            KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("app", 1), 0, f.toUri()), Geometry.strided(0, 1000, 3000, 20));
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
        io.pdla.replicator.construct.PlacementConfig cfg = io.pdla.replicator.construct.PlacementConfig.hddOnly(8).withSsd(4, 300 << 10);
        try (Fixture fx = new Fixture(tmp, io.pdla.replicator.daemon.DaemonOptions.defaults(tmp.resolve("catalog")).withPlacement(cfg).withRate(64 << 10, 0))) {
            // 16 KiB requests of 64 processes: small requests, SSDs win (critical); the space fits only one
            KeyedPattern big = KeyedPattern.of(new PatternKey(new AppIdentity("ior", 64), -1, f.toUri()), Geometry.strided(0, 16384, 16384, 64));
            KeyedPattern small = KeyedPattern.of(new PatternKey(new AppIdentity("ior", 64), -1, tmp.resolve("t.bin").toUri()), Geometry.strided(0, 16384, 16384, 32));
            Fixture.writeRandomFile(tmp.resolve("t.bin"), 1 << 20, 1);
            var plan = fx.replication.builder.planner().plan(List.of(big, small), 0, q -> 0);
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
            KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("x", 1), 0, f.toUri()), Geometry.contiguous(100, 1000));
            var placement = fx.replication.builder.planner().onHServers(p, null, 0);
            assertEquals(BuildOutcome.Kind.PUBLISHED, fx.replication.builder.build(p, placement).kind());
            assertEquals(BuildOutcome.Kind.UP_TO_DATE, fx.replication.builder.build(p, placement).kind());
        }
    }
}
