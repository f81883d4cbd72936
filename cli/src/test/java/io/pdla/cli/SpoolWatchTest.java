package io.pdla.cli;

import io.pdla.patterns.db.PatternSpool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The daemon is woken by a hand-off landing in a spool that did not exist when it started watching: the job's first
 * hand-off makes the database directory and the spool, and the watch must follow both.
 */
class SpoolWatchTest {
    /** How long a wake-up that must come may take: a generous bound on a loaded machine, not a measured speed. */
    private static final long WAIT_SECONDS = 60;

    @TempDir
    Path dir;

    @Test
    void aHandOffWakesTheDaemonEvenWhenTheSpoolAppearsLater() throws Exception {
        Path database = dir.resolve("patterns");
        Semaphore wakeUps = new Semaphore(0);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        SpoolWatch.start(database, wakeUps::release, new PrintStream(log, true));

        Files.createDirectories(PatternSpool.dirOf(database));
        assertTrue(wakeUps.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS), "the watch starts on the new spool and looks at once");
        wakeUps.drainPermits();

        PatternSpool.write(database, new byte[]{1, 2, 3});
        assertTrue(wakeUps.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS), "a record landing in the spool wakes the daemon");
        assertEquals("", log.toString(), "the watch reported no problem");
    }
}
