package io.pdla.redirect;

import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.Fixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whatever is wrong with the replicas or the catalog, reads through redirect return the original's bytes. */
class RedirectBadInputTest {
    @TempDir
    Path tmp;

    private KeyedPattern replicate(Fixture fx, Path f) throws Exception {
        KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("app", 1), 0, f.toUri()), Geometry.strided(0, 4096, 8192, 16));
        fx.replication.queue.offer(p);
        assertEquals(1, fx.replication.daemon.runOnce().published());
        return p;
    }

    private static RedirectStats readAll(Path db, Path f, byte[] expect) throws Exception {
        RedirectInterceptor ri = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(db));
        try (ChainFile cf = new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(ri))) {
            for (int i = 0; i < 16; i++) {
                assertArrayEquals(Arrays.copyOfRange(expect, i * 8192, i * 8192 + 4096), cf.read(i * 8192L, 4096), "block " + i);
            }
        }
        return ri.stats();
    }

    @Test
    void replicaThatVanishedFallsBackToTheOriginal() throws Exception {
        Path f = tmp.resolve("a.dat");
        byte[] data = Fixture.writeRandomFile(f, 200_000, 1);
        try (Fixture fx = new Fixture(tmp)) {
            KeyedPattern p = replicate(fx, f);
            assertEquals(16, readAll(fx.db, f, data).readsFromReplica.get(), "sanity: replica used while present");
            Files.delete(Path.of(fx.catalog.transact(t -> t.entry(p.key())).orElseThrow().replica()));
            RedirectStats s = readAll(fx.db, f, data);
            assertEquals(0, s.bytesFromReplica.get(), s.toString());
            assertEquals(1, s.fallbacks.get(), s.toString());
        }
    }

    @Test
    void truncatedOrCorruptedReplicaSizeIsNotUsed() throws Exception {
        Path f = tmp.resolve("b.dat");
        byte[] data = Fixture.writeRandomFile(f, 200_000, 2);
        try (Fixture fx = new Fixture(tmp)) {
            KeyedPattern p = replicate(fx, f);
            Fixture.setLength(Path.of(fx.catalog.transact(t -> t.entry(p.key())).orElseThrow().replica()), 100);
            RedirectStats s = readAll(fx.db, f, data);
            assertEquals(0, s.bytesFromReplica.get(), s.toString());
        }
    }

    @Test
    void originalChangedOutsideTheShimIsNeverServedFromTheReplica() throws Exception {
        Path f = tmp.resolve("c.dat");
        byte[] data = Fixture.writeRandomFile(f, 200_000, 3);
        try (Fixture fx = new Fixture(tmp)) {
            replicate(fx, f);
            byte[] patch = new byte[100];
            Arrays.fill(patch, (byte) 7);
            Thread.sleep(5);
            Fixture.overwrite(f, 8192 * 3, patch);
            System.arraycopy(patch, 0, data, 8192 * 3, 100);
            RedirectStats s = readAll(fx.db, f, data);
            assertEquals(0, s.bytesFromReplica.get(), s.toString());
            // same size, same content length: a change that keeps the size is caught by the mtime
            Fixture.writeRandomFile(f, 200_000, 99);
            byte[] now = Files.readAllBytes(f);
            assertEquals(0, readAll(fx.db, f, now).bytesFromReplica.get());
        }
    }

    @Test
    void corruptCatalogFallsBackToTheOriginalWithoutFailingTheApplication() throws Exception {
        Path f = tmp.resolve("d.dat");
        byte[] data = Fixture.writeRandomFile(f, 200_000, 4);
        Path db = tmp.resolve("broken-catalog");
        Files.createDirectories(db);
        Files.write(db.resolve("00000000.jdb"), new byte[]{1, 2, 3, 4, 5, 6, 7, 8, 9});
        RedirectStats s = readAll(db, f, data);
        assertEquals(1, s.fallbacks.get(), s.toString());
        // writes still work and reach the original
        RedirectInterceptor ri = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(db));
        try (ChainFile cf = new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(ri))) {
            cf.write(10, new byte[]{42});
        }
        assertEquals(42, Files.readAllBytes(f)[10]);
    }

    @Test
    void noCatalogConfiguredMeansPassThrough() throws Exception {
        Path f = tmp.resolve("e.dat");
        byte[] data = Fixture.writeRandomFile(f, 200_000, 5);
        RedirectInterceptor ri = new RedirectInterceptor(new RedirectConfig(null, 0, 0));
        try (ChainFile cf = new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(ri))) {
            assertArrayEquals(Arrays.copyOfRange(data, 5, 105), cf.read(5, 100));
        }
        assertEquals(0, ri.stats().readsFromOriginal.get() + ri.stats().fallbacks.get(), "no bookkeeping at all without a catalog");
    }

    @Test
    void writeIntoAReplicatedRegionGoesIntoTheReplicaMarkedDirtyFirstAndSyncWritesItBack() throws Exception {
        Path f = tmp.resolve("w.dat");
        byte[] data = Fixture.writeRandomFile(f, 200_000, 6);
        try (Fixture fx = new Fixture(tmp)) {
            KeyedPattern p = replicate(fx, f);
            RedirectInterceptor ri = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db));
            try (ChainFile cf = new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(ri))) {
                cf.write(4096 + 100, new byte[]{9, 9}); // in a gap: replica stays valid
                assertEquals(0, ri.stats().replicasInvalidated.get());
                assertEquals(io.pdla.catalog.ReplicaState.VALID, fx.catalog.transact(t -> t.entry(p.key())).orElseThrow().state());
                cf.write(8192 + 5, new byte[]{1, 2, 3});
                assertEquals(io.pdla.catalog.ReplicaState.DIRTY, fx.catalog.transact(t -> t.entry(p.key())).orElseThrow().state(),
                        "the catalog says the replica holds the newest bytes before the write returns");
                assertEquals(3, ri.stats().bytesWrittenToReplica.get());
                assertArrayEquals(new byte[]{1, 2, 3}, cf.read(8192 + 5, 3));
            }
            byte[] onDisk = Files.readAllBytes(f);
            assertEquals(data[8197], onDisk[8197], "the write went into the replica, not the original");
            data[4196] = 9;
            data[4197] = 9;
            data[8197] = 1;
            data[8198] = 2;
            data[8199] = 3;
            RedirectStats before = readAll(fx.db, f, data);   // a new reader sees the write, from the DIRTY replica
            assertEquals(16, before.readsFromReplica.get(), before.toString());
            List<String> lines = new io.pdla.replicator.daemon.FileSync(fx.replication).sync(f.toUri());
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("wrote back")), lines.toString());
            assertArrayEquals(data, Files.readAllBytes(f), "sync brought the original up to date");
            assertEquals(io.pdla.catalog.ReplicaState.VALID, fx.catalog.transact(t -> t.entry(p.key())).orElseThrow().state());
            RedirectStats s = readAll(fx.db, f, data);
            assertEquals(16, s.readsFromReplica.get(), "the written-back replica serves again: " + s);
        }
    }

    @Test
    void aDirtyReplicaThatVanishedFailsTheOpenRatherThanServeTheOlderOriginal() throws Exception {
        Path f = tmp.resolve("d2.dat");
        Fixture.writeRandomFile(f, 200_000, 8);
        try (Fixture fx = new Fixture(tmp)) {
            KeyedPattern p = replicate(fx, f);
            RedirectInterceptor ri = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db));
            try (ChainFile cf = new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(ri))) {
                cf.write(8192 + 5, new byte[]{4, 5, 6});   // into the replica, which becomes DIRTY
            }
            Path replica = Path.of(fx.catalog.transact(t -> t.entry(p.key())).orElseThrow().replica());
            Files.delete(replica);   // lost behind pdla's back: the only copy of those three bytes
            RedirectInterceptor reader = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db));
            java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                    () -> new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(reader), true));
            assertTrue(e.getMessage().contains("newest bytes") && e.getMessage().contains(replica.getFileName().toString()), e.getMessage());
            // the way out is explicit: a plain drop refuses, dropping with discard loses the writes knowingly
            io.pdla.replicator.daemon.ReplicaAdmin admin = new io.pdla.replicator.daemon.ReplicaAdmin(fx.catalog);
            java.io.IOException refused = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class, () -> admin.drop(p.key()));
            assertTrue(refused.getMessage().contains("--discard-writes"), refused.getMessage());
            assertTrue(fx.catalog.transact(t -> t.entry(p.key())).isPresent(), "nothing dropped");
            assertTrue(admin.drop(p.key(), true));
            RedirectInterceptor after = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db));
            try (ChainFile cf = new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(after), true)) {
                assertEquals(3, cf.read(8192 + 5, 3).length, "the original serves again");
            }
        }
    }
}
