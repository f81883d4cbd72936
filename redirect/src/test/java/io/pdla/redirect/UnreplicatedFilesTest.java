package io.pdla.redirect;

import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.Fixture;
import io.pdla.replicator.catalog.ReplicatedOriginals;
import io.pdla.replicator.catalog.UnreplicatedWriters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Files no replica was ever built for skip the catalog: readers look nothing up, writers leave a marker instead
 * of a catalog session, and no replica is published while such a writer has the file open.
 */
class UnreplicatedFilesTest {
    @TempDir
    Path tmp;

    @Test
    void aNeverReplicatedFileIsReadAndWrittenWithoutTheCatalog() throws Exception {
        Path f = tmp.resolve("plain.dat");
        byte[] data = Fixture.writeRandomFile(f, 64 << 10, 1);
        try (Fixture fx = new Fixture(tmp)) {
            assertFalse(ReplicatedOriginals.mayHave(fx.db, f.toUri()), "a new catalog lists no original");
            RedirectInterceptor reader = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db));
            try (ChainFile cf = new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(reader), true)) {
                assertArrayEquals(java.util.Arrays.copyOf(data, 100), cf.read(0, 100));
            }
            assertEquals(1, reader.stats().opensWithoutReplicas.get());
            RedirectInterceptor writer = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db));
            try (ChainFile cf = new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(writer))) {
                cf.write(10, new byte[]{1, 2, 3});
                assertEquals(1, UnreplicatedWriters.alive(fx.db, f.toUri()), "the writer's marker is there while it writes");
                assertTrue(fx.catalog.transact(t -> t.writers(f.toUri())).isEmpty(), "and no catalog session was needed");
            }
            assertEquals(0, UnreplicatedWriters.alive(fx.db, f.toUri()), "the marker goes with the close");
        }
    }

    @Test
    void noReplicaIsPublishedUnderAWriterThatSkippedTheCatalog() throws Exception {
        Path f = tmp.resolve("w.dat");
        byte[] data = Fixture.writeRandomFile(f, 128 << 10, 2);
        try (Fixture fx = new Fixture(tmp)) {
            KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("app", 1), 0, f.toUri()), Geometry.strided(0, 4096, 8192, 16));
            RedirectInterceptor writer = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db));
            try (ChainFile cf = new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(writer))) {
                fx.replication.queue.offer(p);
                fx.replication.daemon.runOnce();
                assertTrue(fx.catalog.transact(t -> t.entry(p.key())).isEmpty(), "deferred while the writer has it open");
                assertTrue(ReplicatedOriginals.mayHave(fx.db, f.toUri()), "but the original is indexed now");
                cf.write(8192, new byte[]{7, 7, 7});
            }
            data[8192] = 7;
            data[8193] = 7;
            data[8194] = 7;
            assertEquals(1, fx.replication.daemon.runOnce().published(), "published once the writer closed");
            Path replica = Path.of(fx.catalog.transact(t -> t.entry(p.key())).orElseThrow().replica());
            assertArrayEquals(Fixture.patternBytes(p, data), Files.readAllBytes(replica), "with the writer's bytes");
        }
    }

    @Test
    void markersOfProcessesThatAreGoneAreIgnoredAndRemoved() throws Exception {
        Path f = tmp.resolve("g.dat");
        Fixture.writeRandomFile(f, 4096, 3);
        Path marker = UnreplicatedWriters.register(tmp.resolve("catalog"), f.toUri());
        Path dead = marker.resolveSibling(io.pdla.replicator.catalog.WriterSession.thisHost() + "@" + Integer.MAX_VALUE + "@x");
        Files.move(marker, dead);
        assertEquals(0, UnreplicatedWriters.alive(tmp.resolve("catalog"), f.toUri()));
        assertFalse(Files.exists(dead));
    }
}
