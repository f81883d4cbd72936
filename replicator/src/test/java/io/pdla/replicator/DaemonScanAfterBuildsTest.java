package io.pdla.replicator;

import io.pdla.catalog.ReplicaEntry;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.daemon.ReplicatorDaemon;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A long-running daemon runs its periodic scan after the pass's builds (so a job's replicas do not wait for the
 * janitor), and what that scan queues again is built at once: with a ten-minute poll, the replica of an original
 * changed outside pdla is rebuilt within seconds of the pass that found the change, and it holds the new bytes.
 */
class DaemonScanAfterBuildsTest {
    private static final long WAIT_SECONDS = 60;

    @TempDir
    Path tmp;

    private static Optional<ReplicaEntry> entry(Fixture fx, KeyedPattern p) throws Exception {
        return fx.catalog.transact(t -> t.entry(p.key()));
    }

    /** The entry once it satisfies {@code ok}, or fails after the wait. */
    private static ReplicaEntry await(Fixture fx, KeyedPattern p, java.util.function.Predicate<ReplicaEntry> ok, String what) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (System.nanoTime() < end) {
            Optional<ReplicaEntry> e = entry(fx, p);
            if (e.isPresent() && ok.test(e.get())) return e.get();
            Thread.sleep(50);
        }
        throw new AssertionError(what + " within " + WAIT_SECONDS + " s; entry now " + entry(fx, p));
    }

    @Test
    void whatTheScanAfterTheBuildsQueuesAgainIsBuiltAtOnce() throws Exception {
        Path f = tmp.resolve("data.bin");
        byte[] data = Fixture.writeRandomFile(f, 1 << 20, 21);
        KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("app", 2), 0, f.toUri()), Geometry.strided(0, 4096, 8192, 128));
        try (Fixture fx = new Fixture(tmp)) {
            AtomicReference<Runnable> wakeUp = new AtomicReference<>();
            fx.replication.daemon.beforeEachPass(new ReplicatorDaemon.PassHook() {
                @Override
                public void run() {
                }

                @Override
                public void watch(Runnable wake) {
                    wakeUp.set(wake);
                }
            });
            fx.replication.queue.offer(p);
            // one rank's pattern of a 2-rank job: a combining daemon would wait for the other rank's first (5 s, twice)
            fx.replication.daemon.keepRanksApart();
            Thread loop = fx.runDaemonInBackground(600_000);   // a poll of ten minutes: only wake-ups and waits' ends start passes
            try {
                ReplicaEntry first = await(fx, p, e -> true, "the first pass publishes the replica");
                assertArrayEquals(Fixture.patternBytes(p, data), Files.readAllBytes(Path.of(first.replica())));
                // changed outside pdla, then a pass once the scan is due (a hand-off's wake-up; the poll is ten minutes)
                byte[] changed = Arrays.copyOf(data, data.length);
                for (int i = 0; i < changed.length; i += 4096) changed[i] ^= 0x5a;
                Fixture.overwrite(f, 0, changed);
                Thread.sleep(2500);
                assertNotNull(wakeUp.get());
                wakeUp.get().run();
                ReplicaEntry rebuilt = await(fx, p, e -> !e.replica().equals(first.replica()),
                        "the scan after that pass re-queues the changed original's replica and the next pass rebuilds it");
                assertArrayEquals(Fixture.patternBytes(p, changed), Files.readAllBytes(Path.of(rebuilt.replica())), "the rebuilt replica holds the new bytes");
                assertTrue(fx.replication.queue.pending().isEmpty());
            } finally {
                fx.replication.daemon.stop();
                loop.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            }
            assertFalse(loop.isAlive(), "stop ends the loop");
        }
    }
}
