package io.pdla.replicator;

import io.pdla.catalog.Catalog;
import io.pdla.catalog.CatalogException;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.daemon.DaemonMain;
import io.pdla.replicator.daemon.DaemonReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BadInputTest {
    @TempDir
    Path tmp;

    @Test
    void patternWhoseOriginalIsMissingIsRejectedWithTheFileNamed() throws Exception {
        try (Fixture fx = new Fixture(tmp)) {
            Path missing = tmp.resolve("nope.dat");
            fx.replication.queue.offer(KeyedPattern.of(new PatternKey(new AppIdentity("a", 1), 0, missing.toUri()), Geometry.contiguous(0, 100)));
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(1, r.rejected());
            assertTrue(r.lines().get(0).contains(missing.toUri().toString()) && r.lines().get(0).contains("does not exist"), r.lines().toString());
            assertTrue(fx.replication.queue.pending().isEmpty(), "a rejected pattern leaves the queue");
        }
    }

    @Test
    void patternReachingPastTheEndOfItsOriginalIsRejectedAndLeavesNothing() throws Exception {
        Path f = tmp.resolve("short.dat");
        Fixture.writeRandomFile(f, 10_000, 1);
        try (Fixture fx = new Fixture(tmp)) {
            KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("a", 1), 0, f.toUri()), Geometry.strided(0, 1000, 2000, 8));
            fx.replication.queue.offer(p);
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(1, r.rejected(), r.lines().toString());
            assertTrue(r.lines().get(0).contains("past the end of original"), r.lines().toString());
            assertTrue(fx.catalog.transact(t -> t.entry(p.key())).isEmpty());
            assertTrue(fx.catalog.transact(t -> t.journalRows()).isEmpty());
            try (var s = Files.walk(tmp.resolve(".pdla-replicas"))) {
                assertEquals(0, s.filter(Files::isRegularFile).count(), "no temporary or final file left");
            }
        }
    }

    @Test
    void entryWhoseReplicaVanishedIsRemovedAndRebuilt() throws Exception {
        Path f = tmp.resolve("v.dat");
        byte[] data = Fixture.writeRandomFile(f, 50_000, 2);
        try (Fixture fx = new Fixture(tmp)) {
            KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("a", 1), 0, f.toUri()), Geometry.strided(0, 1000, 2000, 20));
            fx.replication.queue.offer(p);
            assertEquals(1, fx.replication.daemon.runOnce().published());
            Path replica = Path.of(fx.catalog.transact(t -> t.entry(p.key())).orElseThrow().replica());
            Files.delete(replica);
            var scan = fx.replication.scanner.scan();
            assertEquals(1, scan.removed());
            assertTrue(scan.notes().get(0).contains("missing"), scan.notes().toString());
            assertEquals(1, fx.replication.daemon.runOnce().published());
            Path rebuilt = Path.of(fx.catalog.transact(t -> t.entry(p.key())).orElseThrow().replica());
            assertEquals(java.util.Arrays.toString(Fixture.patternBytes(p, data)), java.util.Arrays.toString(Files.readAllBytes(rebuilt)));
        }
    }

    @Test
    void undecodableQueueItemIsDroppedWithAReason() throws Exception {
        try (Fixture fx = new Fixture(tmp)) {
            fx.catalog.transact(t -> t.enqueue(new byte[]{1, 2, 3}, true));
            DaemonReport r = fx.replication.daemon.runOnce();
            assertEquals(1, r.rejected());
            assertTrue(r.lines().get(0).contains("undecodable"), r.lines().toString());
            assertTrue(fx.replication.queue.pending().isEmpty());
        }
    }

    @Test
    void fullSsdSpaceKeepsEveryPatternOnHServers() throws Exception {
        Path f = tmp.resolve("s.dat");
        Fixture.writeRandomFile(f, 1 << 20, 3);
        var cfg = io.pdla.replicator.construct.PlacementConfig.hddOnly(8).withSsd(4, 0);
        try (Fixture fx = new Fixture(tmp, io.pdla.replicator.daemon.DaemonOptions.defaults(tmp.resolve("catalog")).withPlacement(cfg))) {
            KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("ior", 64), -1, f.toUri()), Geometry.strided(0, 16384, 16384, 64));
            var placement = fx.replication.builder.planner().plan(java.util.List.of(p), 0, q -> 0).get(p.key());
            assertEquals("HServers", placement.space().label());
            assertTrue(placement.why().contains("SSD space is full"), placement.why());
            fx.replication.queue.offer(p);
            assertEquals(1, fx.replication.daemon.runOnce().published());
        }
    }

    @Test
    void corruptDatabaseIsAClearErrorNamingTheDirectory() throws Exception {
        Path db = tmp.resolve("catalog");
        try (Catalog c = Catalog.open(db)) {
            c.transact(t -> t.enqueue(new byte[10], true));
        }
        try (var files = Files.list(db)) {
            for (Path jdb : files.filter(p -> p.toString().endsWith(".jdb")).toList()) {
                byte[] junk = new byte[(int) Files.size(jdb)];
                new java.util.Random(4).nextBytes(junk);
                Files.write(jdb, junk, StandardOpenOption.TRUNCATE_EXISTING);
            }
        }
        CatalogException e = assertThrows(CatalogException.class, () -> Catalog.open(db).close());
        assertTrue(e.getMessage().contains(db.toString()), e.getMessage());
        assertEquals(1, DaemonMain.run(new String[]{"--db", db.toString(), "--once"}), "the daemon fails with exit 1");
        assertEquals(2, DaemonMain.run(new String[]{"--db"}), "bad arguments exit 2");
        CatalogException missing = assertThrows(CatalogException.class, () -> Catalog.openExisting(tmp.resolve("none")));
        assertTrue(missing.getMessage().contains("no replica catalog"), missing.getMessage());
    }
}
