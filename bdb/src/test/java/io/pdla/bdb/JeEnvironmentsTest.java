package io.pdla.bdb;

import com.sleepycat.je.Environment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.logging.Level;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JeEnvironmentsTest {
    @TempDir
    Path dir;

    @Test
    void opensAfterAnotherProcessReleasesTheEnvironmentWithinTheWait() throws Exception {
        long holdMillis = 1500;
        try (ChildProcess holder = new ChildProcess("hold", dir.toString(), Long.toString(holdMillis))) {
            assertEquals("open", holder.readLine());
            long start = System.nanoTime();
            try (Environment env = JeEnvironments.open(dir, EnvironmentSettings.readWrite().withLockWait(Duration.ofSeconds(60)))) {
                long waited = (System.nanoTime() - start) / 1_000_000;
                assertTrue(env.isValid());
                assertTrue(waited > 0, "it waited for the holder, " + waited + " ms");
            }
        }
    }

    @Test
    void aClearErrorNamingTheDirectoryAndTheWaitAfterTheBudget() throws Exception {
        try (ChildProcess holder = new ChildProcess("hold", dir.toString(), "60000")) {
            assertEquals("open", holder.readLine());
            long start = System.nanoTime();
            EnvironmentBusyException e = assertThrows(EnvironmentBusyException.class,
                    () -> JeEnvironments.open(dir, EnvironmentSettings.readWrite().withLockWait(Duration.ofMillis(400))));
            long took = (System.nanoTime() - start) / 1_000_000;
            assertTrue(took >= 400, "gave up after " + took + " ms, before the 400 ms budget");
            assertTrue(e.getMessage().contains(dir.toString()) && e.getMessage().contains("400 ms"), e.getMessage());
            assertEquals(400, e.waitedMillis());
            assertFalse(e.interrupted());

            EnvironmentBusyException now = assertThrows(EnvironmentBusyException.class,
                    () -> JeEnvironments.open(dir, EnvironmentSettings.readWrite()));
            assertTrue(now.getMessage().contains("open for writing by another process"), now.getMessage());
        }
    }

    @Test
    void jeLogsWarningsOnlyUnlessSomeoneChoseALevel() {
        JeLogging.quiet();
        assertEquals(Level.WARNING, JeLogging.level());
    }

    @Test
    void existsSaysWhetherADirectoryHoldsAnEnvironment() {
        assertFalse(JeEnvironments.exists(dir));
        assertFalse(JeEnvironments.exists(dir.resolve("absent")));
        try (Environment env = JeEnvironments.open(dir, EnvironmentSettings.readWrite())) {
            assertTrue(env.isValid());
        }
        assertTrue(JeEnvironments.exists(dir));
    }

    @Test
    void badSettingsAreRefusedWithTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EnvironmentSettings.readWrite().withCacheBytes(-5));
        assertTrue(e.getMessage().contains("-5"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> EnvironmentSettings.readOnlyExisting().withAllowCreate(true));
    }
}
