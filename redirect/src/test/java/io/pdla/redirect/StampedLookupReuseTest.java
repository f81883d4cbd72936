package io.pdla.redirect;

import io.pdla.catalog.Catalog;
import io.pdla.catalog.ReplicaState;
import io.pdla.catalog.StampedLookups;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.Fixture;
import io.pdla.replicator.daemon.ReplicaAdmin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Redirect's read-only opens reuse the process's last look-up of a file through the catalog's change stamp
 * ({@link StampedLookups}), with real catalogs, a real daemon and real files: reused when nothing changed (counted),
 * never after the catalog changed (a write made a replica DIRTY, the daemon published or dropped one) or the original
 * changed outside pdla; the bytes read are the newest in every case.
 */
class StampedLookupReuseTest {
    static final int SIZE = 128 << 10, REQ = 4096, STRIDE = 2 * REQ, COUNT = 16;

    @TempDir
    Path tmp;
    Path f;
    byte[] data;

    @BeforeEach
    void setUp() throws Exception {
        StampedLookups.clear();
        f = tmp.resolve("data.bin");
        data = Fixture.writeRandomFile(f, SIZE, 7);
    }

    @AfterEach
    void tearDown() {
        StampedLookups.clear();
    }

    /** Rank {@code rank}'s pattern of a 2-rank job: every other request, rank 1 offset by one request. */
    KeyedPattern pattern(int rank) {
        return KeyedPattern.of(new PatternKey(new AppIdentity("app", 2), rank, f.toUri()), Geometry.strided((long) rank * REQ, REQ, STRIDE, COUNT));
    }

    /** A read-only open as rank {@code rank}, reading {@code length} bytes at {@code offset}. */
    byte[] readOnlyOpen(RedirectInterceptor redirect, int rank, long offset, int length) throws Exception {
        try (ChainFile cf = new ChainFile(f.toUri(), "app", 2, rank, Map.of(), List.of(redirect), true)) {
            return cf.read(offset, length);
        }
    }

    @Test
    void readOnlyOpensOfAnUnchangedFileReuseTheLookUpWithoutTheCatalog() throws Exception {
        Path db;
        try (Fixture fx = new Fixture(tmp)) {
            db = fx.db;
            fx.replication.queue.offer(pattern(0));
            assertEquals(1, fx.replication.daemon.runOnce().published());
        }
        // the daemon gone, opens reach the catalog per transaction as a job's rank 0 does
        RedirectInterceptor redirect = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(db));
        long reads = StampedLookups.catalogReads();
        for (int pass = 0; pass < 5; pass++) {
            assertArrayEquals(Arrays.copyOfRange(data, 0, REQ), readOnlyOpen(redirect, 0, 0, REQ), "pass " + pass);
        }
        RedirectStats s = redirect.stats();
        assertEquals(5, s.catalogLookups.get(), s.toString());
        assertEquals(4, s.catalogLookupsReused.get(), "passes 2-5 reuse pass 1's look-up");
        assertEquals(reads + 1, StampedLookups.catalogReads(), "one catalog transaction for five opens");
        assertEquals(5, s.readsFromReplica.get(), "every pass served from the replica");
        // a writable open always reads the catalog
        try (ChainFile cf = new ChainFile(f.toUri(), "app", 2, 0, Map.of(), List.of(redirect), false)) {
            cf.read(0, REQ);
        }
        assertEquals(4, s.catalogLookupsReused.get(), "a writable open reused a look-up");
    }

    @Test
    void aWriteThatMadeAReplicaDirtyIsSeenByTheNextOpenOfAnotherRank() throws Exception {
        try (Fixture fx = new Fixture(tmp)) {
            fx.replication.queue.offer(pattern(0));
            assertEquals(1, fx.replication.daemon.runOnce().published());
            RedirectInterceptor redirect = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db));
            // rank 1 reads rank 0's first request from the original (not its replica), twice: the second reuses
            for (int i = 0; i < 2; i++) assertArrayEquals(Arrays.copyOfRange(data, 0, REQ), readOnlyOpen(redirect, 1, 0, REQ));
            assertEquals(1, redirect.stats().catalogLookupsReused.get());

            // rank 0 writes its first request: its replica, whose identity vouches, becomes DIRTY and takes the
            // bytes; the original keeps its old bytes and its identity
            FileTime before = Files.getLastModifiedTime(f);
            byte[] mine = new byte[REQ];
            Arrays.fill(mine, (byte) 9);
            try (ChainFile cf = new ChainFile(f.toUri(), "app", 2, 0, Map.of(), List.of(new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db))))) {
                cf.write(0, mine);
            }
            assertEquals(ReplicaState.DIRTY, fx.catalog.transact(t -> t.entry(pattern(0).key())).orElseThrow().state());
            assertEquals(before, Files.getLastModifiedTime(f), "the original is untouched: only the catalog says where the bytes are");

            // rank 1's next open must see the DIRTY replica (every rank reads a DIRTY region from it)
            assertArrayEquals(mine, readOnlyOpen(redirect, 1, 0, REQ), "the old look-up was reused: stale bytes from the original");
            assertEquals(1, redirect.stats().catalogLookupsReused.get(), "a look-up was reused after the claim");
        }
    }

    @Test
    void replicasPublishedOrDroppedByTheDaemonAreSeenAtTheNextOpen() throws Exception {
        try (Fixture fx = new Fixture(tmp)) {
            fx.replication.queue.offer(pattern(0));
            assertEquals(1, fx.replication.daemon.runOnce().published());
            RedirectInterceptor redirect = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db));
            RedirectStats s = redirect.stats();
            readOnlyOpen(redirect, 1, REQ, REQ);
            readOnlyOpen(redirect, 1, REQ, REQ);
            assertEquals(1, s.catalogLookupsReused.get());
            assertEquals(0, s.readsFromReplica.get(), "rank 1 has no replica yet");

            fx.replication.queue.offer(pattern(1));
            assertEquals(1, fx.replication.daemon.runOnce().published());
            assertArrayEquals(Arrays.copyOfRange(data, REQ, 2 * REQ), readOnlyOpen(redirect, 1, REQ, REQ));
            assertEquals(1, s.readsFromReplica.get(), "the replica published between two opens serves the second");
            assertEquals(1, s.catalogLookupsReused.get());
            readOnlyOpen(redirect, 1, REQ, REQ);
            assertEquals(2, s.catalogLookupsReused.get());
            assertEquals(2, s.readsFromReplica.get());

            assertTrue(new ReplicaAdmin(fx.catalog).drop(pattern(1).key()));
            assertArrayEquals(Arrays.copyOfRange(data, REQ, 2 * REQ), readOnlyOpen(redirect, 1, REQ, REQ));
            assertEquals(2, s.readsFromReplica.get(), "the dropped replica still served");
            assertEquals(2, s.catalogLookupsReused.get(), "a look-up was reused after the drop");
            assertEquals(0, s.fallbacks.get(), s.toString());
        }
    }

    @Test
    void anOriginalChangedOutsidePdlaBetweenOpensIsReadNotTheReplica() throws Exception {
        try (Fixture fx = new Fixture(tmp)) {
            fx.replication.queue.offer(pattern(0));
            assertEquals(1, fx.replication.daemon.runOnce().published());
        }
        Path db = tmp.resolve("catalog");
        RedirectInterceptor redirect = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(db));
        readOnlyOpen(redirect, 0, 0, REQ);
        readOnlyOpen(redirect, 0, 0, REQ);
        assertEquals(1, redirect.stats().catalogLookupsReused.get());
        String stamp = Files.readString(db.resolve(Catalog.STAMP_FILE));

        // rewritten in place, same size, time put back: no catalog change, only the original's identity moved
        FileTime mtime = Files.getLastModifiedTime(f);
        Thread.sleep(20);
        byte[] restored = new byte[SIZE];
        new java.util.Random(99).nextBytes(restored);
        Files.write(f, restored);
        Files.setLastModifiedTime(f, mtime);
        assertEquals(stamp, Files.readString(db.resolve(Catalog.STAMP_FILE)), "nothing wrote the catalog");
        assertArrayEquals(Arrays.copyOfRange(restored, 0, REQ), readOnlyOpen(redirect, 0, 0, REQ), "the replica's old bytes were served");
        assertEquals(1, redirect.stats().catalogLookupsReused.get());
        assertEquals(2, redirect.stats().readsFromReplica.get(), redirect.stats().toString());
    }
}
