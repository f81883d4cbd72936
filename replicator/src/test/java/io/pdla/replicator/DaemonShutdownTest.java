package io.pdla.replicator;

import io.pdla.replicator.daemon.DaemonMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The long-running daemon, a real child process, stops cleanly on SIGTERM ({@link Process#destroy()}). */
class DaemonShutdownTest {
    @TempDir
    Path tmp;

    @Test
    void sigtermStopsTheLongRunningDaemonCleanly() throws Exception {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        // output to a file: a pipe's reader loses the last lines when the JDK closes the stream at process exit
        Path log = tmp.resolve("daemon.log");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", cp,
                DaemonMain.class.getName(), "--db", tmp.resolve("db").toString(), "--poll", "200")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        java.util.function.Supplier<String> output = () -> {
            try {
                return java.nio.file.Files.readString(log);
            } catch (java.io.IOException e) {
                return "";
            }
        };
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!output.get().contains("watching the queue") && System.nanoTime() < deadline && p.isAlive()) Thread.sleep(50);
        assertTrue(output.get().contains("watching the queue"), "daemon started: " + output.get());
        Thread.sleep(600); // a few passes
        p.destroy(); // SIGTERM
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "daemon exits after SIGTERM");
        assertTrue(output.get().contains("shutting down after the current step") && output.get().contains("pdla daemon: stopped"),
                "the shutdown hook ran and the loop stopped (exit " + p.exitValue() + "): " + output.get());
        try (io.pdla.catalog.Catalog c = io.pdla.catalog.Catalog.openExisting(tmp.resolve("db"))) {
            assertTrue(c.transact(t -> t.journalRows()).isEmpty(), "nothing half-done in the catalog");
        }
    }
}
