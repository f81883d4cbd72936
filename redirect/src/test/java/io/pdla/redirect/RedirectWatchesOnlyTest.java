package io.pdla.redirect;

import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.Fixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Redirect only watches an open it has nothing to do in (no replica to serve, no write session to keep), so that a
 * chain of it and watchers (online PDLA, the tracer) takes the shim's straight path; an open a replica serves, or a
 * writer of a replicated file, keeps every call going through it.
 */
class RedirectWatchesOnlyTest {
    @TempDir
    Path tmp;

    @Test
    void opensWithNothingToRedirectOnlyWatchAndOpensWithReplicasDoNot() throws Exception {
        Path f = tmp.resolve("data.dat");
        byte[] data = Fixture.writeRandomFile(f, 128 << 10, 3);
        try (Fixture fx = new Fixture(tmp)) {
            RedirectConfig cfg = RedirectConfig.from(Map.of()).withCatalog(fx.db);
            try (ChainFile cf = new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(new RedirectInterceptor(cfg)), true)) {
                assertTrue(cf.chain.observersOnly(), "a reader of a never-replicated file: every call passes through unchanged");
            }
            try (ChainFile cf = new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(new RedirectInterceptor(cfg)))) {
                assertTrue(cf.chain.observersOnly(), "a writer of a never-replicated file: its marker is all it needs");
            }
            RedirectInterceptor noCatalog = new RedirectInterceptor(RedirectConfig.from(Map.of()));
            try (ChainFile cf = new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(noCatalog), true)) {
                assertTrue(cf.chain.observersOnly(), "no catalog at all");
            }

            KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("app", 1), 0, f.toUri()), Geometry.strided(0, 4096, 8192, 16));
            fx.replication.queue.offer(p);
            assertEquals(1, fx.replication.daemon.runOnce().published());

            RedirectInterceptor reader = new RedirectInterceptor(cfg);
            try (ChainFile cf = new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(reader), true)) {
                assertFalse(cf.chain.observersOnly(), "an open its replica serves must see every read");
                assertArrayEquals(Arrays.copyOf(data, 4096), cf.read(0, 4096));
                assertEquals(1, reader.stats().readsFromReplica.get(), "and is served from the replica");
            }
            try (ChainFile cf = new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(new RedirectInterceptor(cfg)))) {
                assertFalse(cf.chain.observersOnly(), "a writer of a replicated file claims replicas before its writes land");
            }
        }
    }
}
