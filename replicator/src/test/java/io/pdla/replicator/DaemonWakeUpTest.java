package io.pdla.replicator;

import io.pdla.replicator.daemon.DaemonOptions;
import io.pdla.replicator.daemon.Replication;
import io.pdla.replicator.daemon.ReplicatorDaemon;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A long-running daemon whose pass hook announces new work runs a pass at once, not a poll later: with a ten-minute
 * poll, a second pass comes only from the wake-up.
 */
class DaemonWakeUpTest {
    /** A bound on how long a pass that must come may take on a loaded machine; far below the poll. */
    private static final long WAIT_SECONDS = 60;

    @TempDir
    Path tmp;

    @Test
    void aWakeUpStartsThePassTheHookAnnounced() throws Exception {
        Replication r = Replication.open(DaemonOptions.defaults(tmp.resolve("catalog")).withPollMillis(600_000),
                new PrintStream(new ByteArrayOutputStream(), true));
        Semaphore passes = new Semaphore(0);
        AtomicReference<Runnable> wakeUp = new AtomicReference<>();
        r.daemon.beforeEachPass(new ReplicatorDaemon.PassHook() {
            @Override
            public void run() {
                passes.release();
            }

            @Override
            public void watch(Runnable wake) {
                wakeUp.set(wake);
            }
        });
        Thread loop = new Thread(() -> {
            try {
                r.daemon.runUntilStopped(600_000);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "daemon-loop");
        loop.start();
        try {
            assertTrue(passes.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS), "the first pass");
            assertNotNull(wakeUp.get(), "the hook was given the wake-up before the first pass");
            wakeUp.get().run();
            assertTrue(passes.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS), "woken: the next pass long before the ten-minute poll");
        } finally {
            r.daemon.stop();
            loop.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        }
        assertFalse(loop.isAlive(), "stop ends the loop");
    }
}
