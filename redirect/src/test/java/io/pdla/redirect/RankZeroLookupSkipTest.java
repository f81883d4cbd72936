package io.pdla.redirect;

import io.pdla.intercept.AppIdentity;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.Fixture;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Redirect wants rank 0's catalog look-up at an open only when this rank's index of replicated originals names the
 * file ({@code wantsRankZeroAtOpen}); when the open tells it no rank wanted it, it meets nobody, and a replica
 * published between that answer and its {@code opened} hook is still found and served (the rank looks for itself).
 * Driven as the shim's read-only open does: the chain is asked, the ranks' answers are set, then the hooks run.
 */
class RankZeroLookupSkipTest {
    @TempDir
    Path tmp;

    /** One rank's read-only open of {@code f}; {@code othersWanted}: whether another rank of the open asked. */
    private static final class Open implements AutoCloseable {
        final AtomicInteger shares = new AtomicInteger();
        final FileContext ctx;
        final InterceptorChain chain;
        final boolean wanted;

        Open(Path f, RedirectInterceptor redirect, Runnable beforeHooks, boolean othersWanted) throws Exception {
            StorageDriver d = StorageDrivers.installed().forUri(f.toUri());
            ctx = new FileContext(f.toString(), f.toUri(), FileContext.MODE_RDONLY, 0, 4, new AppIdentity("app", 4), Map.of(), d,
                    d.open(f.toUri(), OpenOptions.readOnly()), compute -> {
                        shares.incrementAndGet();
                        return compute.get();
                    });
            chain = new InterceptorChain(List.of(redirect));
            wanted = chain.wantsRankZeroAtOpen(ctx);
            beforeHooks.run();
            ctx.ranksWantedRankZero(wanted || othersWanted);
            chain.opened(ctx);
        }

        byte[] read(long offset, int length) throws Exception {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(length);
            chain.execute(io.pdla.intercept.IoCall.data(ctx, io.pdla.access.IoOp.READ, io.pdla.access.Positioning.EXPLICIT_OFFSET, false,
                    io.pdla.access.ExtentList.of(offset, length), b));
            return b.array();
        }

        @Override
        public void close() throws Exception {
            chain.closing(ctx);
            ctx.file().close();
            chain.closed(ctx);
        }
    }

    @Test
    void noRankWantingTheLookUpMeetsNobodyAndAReplicaPublishedMeanwhileStillServes() throws Exception {
        Path f = tmp.resolve("data.dat");
        byte[] data = Fixture.writeRandomFile(f, 128 << 10, 5);
        try (Fixture fx = new Fixture(tmp)) {
            RedirectConfig cfg = RedirectConfig.from(Map.of()).withCatalog(fx.db);
            RedirectInterceptor redirect = new RedirectInterceptor(cfg);
            try (Open o = new Open(f, redirect, () -> { }, false)) {
                assertFalse(o.wanted, "a file the catalog never replicated needs no look-up");
                assertEquals(0, o.shares.get(), "so the open meets nobody");
                assertTrue(o.chain.observersOnly(), "and redirect only watches it");
            }
            try (Open o = new Open(f, redirect, () -> { }, true)) {
                assertEquals(1, o.shares.get(), "another rank wanted it: this rank meets too, so the ranks stay in step");
            }

            // the first replica is published after every rank answered and before the hooks run
            KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("app", 4), 0, f.toUri()), Geometry.strided(0, 4096, 8192, 16));
            Runnable publish = () -> {
                try {
                    fx.replication.queue.offer(p);
                    assertEquals(1, fx.replication.daemon.runOnce().published());
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            };
            long before = redirect.stats().readsFromReplica.get();
            try (Open o = new Open(f, redirect, publish, false)) {
                assertFalse(o.wanted, "answered before the replica existed");
                assertEquals(0, o.shares.get(), "no rank wanted the look-up: nobody meets");
                assertFalse(o.chain.observersOnly(), "yet the rank found the replica published meanwhile itself");
                assertArrayEquals(Arrays.copyOf(data, 4096), o.read(0, 4096));
                assertEquals(before + 1, redirect.stats().readsFromReplica.get(), "and serves from it");
            }
            try (Open o = new Open(f, redirect, () -> { }, false)) {
                assertTrue(o.wanted, "a replicated file wants rank 0's look-up");
                assertEquals(1, o.shares.get(), "which the ranks share");
                assertArrayEquals(Arrays.copyOfRange(data, 8192, 8192 + 4096), o.read(8192, 4096));
            }
        }
    }

    @Test
    void anOpenThatGatheredNoAnswersSharesAsBefore() throws Exception {
        Path f = tmp.resolve("plain.dat");
        Fixture.writeRandomFile(f, 64 << 10, 6);
        try (Fixture fx = new Fixture(tmp)) {
            RedirectInterceptor redirect = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db));
            AtomicInteger shares = new AtomicInteger();
            StorageDriver d = StorageDrivers.installed().forUri(f.toUri());
            FileContext ctx = new FileContext(f.toString(), f.toUri(), FileContext.MODE_RDONLY, 0, 4, new AppIdentity("app", 4), Map.of(), d,
                    d.open(f.toUri(), OpenOptions.readOnly()), compute -> {
                        shares.incrementAndGet();
                        return compute.get();
                    });
            assertTrue(ctx.rankZeroWantedAtOpen(), "an opener that did not gather the ranks' answers (creates, several JVMs) says wanted");
            InterceptorChain chain = new InterceptorChain(List.of(redirect));
            chain.opened(ctx);
            assertEquals(1, shares.get(), "so every rank meets, as before");
            chain.closing(ctx);
            ctx.file().close();
            chain.closed(ctx);
        }
    }
}
