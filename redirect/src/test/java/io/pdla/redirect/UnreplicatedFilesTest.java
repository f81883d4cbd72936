package io.pdla.redirect;

import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicatedOriginals;
import io.pdla.catalog.UnreplicatedWriters;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.Fixture;
import io.pdla.replicator.daemon.DaemonReport;
import io.pdla.replicator.daemon.FileSync;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

    /**
     * The SoakTest loss of 2026-11-26 (seed 4069399952000: every write of application A's session 8 gone): a writer
     * that opened the file before its first replica was indexed registers no session, so only the original's identity
     * shows its writes. One that wrote after the builder's copy and closed before the builder looked for markers left
     * no trace the builder checked: the replica was published with the older bytes, the next writer of the pattern's
     * region claimed it DIRTY, and the write-back copied those older bytes over the first writer's.
     */
    @Test
    void aWriterThatSkippedTheCatalogAndClosedDuringPublicationLosesNoWrite() throws Exception {
        Path f = tmp.resolve("race.dat");
        byte[] model = Fixture.writeRandomFile(f, 128 << 10, 4);
        try (Fixture fx = new Fixture(tmp)) {
            KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("app", 1), 0, f.toUri()), Geometry.strided(0, 4096, 8192, 16));
            RedirectConfig cfg = RedirectConfig.from(Map.of()).withCatalog(fx.db);
            byte[] first = filled(4096, (byte) 1);
            io.pdla.replicator.construct.BuilderTestSeams.onceBeforeIndexing(fx.replication.builder, () -> {
                // the replica's bytes are copied and in place; the original is not indexed yet, so this writer takes the
                // marker path, writes a block of the pattern and is gone before the builder looks for markers
                try (ChainFile cf = new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(new RedirectInterceptor(cfg)))) {
                    cf.write(16384, first);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            fx.replication.queue.offer(p);
            DaemonReport pass = fx.replication.daemon.runOnce();
            System.arraycopy(first, 0, model, 16384, first.length);
            Optional<ReplicaEntry> published = fx.catalog.transact(t -> t.entry(p.key()));
            byte[] replicaBytes = published.isPresent() ? Files.readAllBytes(Path.of(published.get().replica())) : null;
            byte[] atPublication = model.clone();

            byte[] second = filled(4096, (byte) 2);
            try (ChainFile cf = new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(new RedirectInterceptor(cfg)))) {
                cf.write(0, second);   // the pattern's first block: claims whatever replica the pass left
            }
            System.arraycopy(second, 0, model, 0, second.length);
            new FileSync(fx.replication).sync(f.toUri());

            assertArrayEquals(model, Files.readAllBytes(f), "an acknowledged write was lost by the write-back (pass: " + pass.lines() + ")");
            assertTrue(replicaBytes == null || Arrays.equals(Fixture.patternBytes(p, atPublication), replicaBytes),
                    "a replica was published without the bytes its original had at publication: " + pass.lines());
        }
    }

    private static byte[] filled(int n, byte value) {
        byte[] b = new byte[n];
        Arrays.fill(b, value);
        return b;
    }

    @Test
    void markersOfProcessesThatAreGoneAreIgnoredAndRemoved() throws Exception {
        Path f = tmp.resolve("g.dat");
        Fixture.writeRandomFile(f, 4096, 3);
        Path marker = UnreplicatedWriters.register(tmp.resolve("catalog"), f.toUri());
        Path dead = marker.resolveSibling(io.pdla.catalog.WriterSession.thisHost() + "@" + Integer.MAX_VALUE + "@x");
        Files.move(marker, dead);
        assertEquals(0, UnreplicatedWriters.alive(tmp.resolve("catalog"), f.toUri()));
        assertFalse(Files.exists(dead));
    }
}
