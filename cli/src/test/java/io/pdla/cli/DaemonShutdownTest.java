package io.pdla.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A long-running {@code pdla daemon} stopped by SIGTERM ends its current step and exits, as a service manager expects,
 * rather than lingering: its shutdown hook once waited for the main thread, which by then sat in PdlaCommand.main's
 * System.exit waiting for the hooks, so every stopped daemon stayed up 30 s more.
 */
class DaemonShutdownTest {
    @TempDir
    Path dir;

    @Test
    void sigtermEndsTheDaemonPromptly() throws Exception {
        Path log = dir.resolve("daemon.log");
        Process daemon = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                String.join(java.io.File.pathSeparator, PdlaJar.classPath()), PdlaCommand.class.getName(), "daemon",
                "--db", dir.resolve("catalog").toString(), "--poll", "200"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (daemon.isAlive() && System.nanoTime() < deadline && !Files.readString(log).contains("watching the queue")) Thread.sleep(50);
            assertTrue(Files.readString(log).contains("watching the queue"), "the daemon started:\n" + Files.readString(log));
            daemon.destroy();   // SIGTERM
            // the lingering daemon stayed 30 s after its "stopped"; a prompt one exits in well under a second of that
            assertTrue(daemon.waitFor(20, TimeUnit.SECONDS), "the daemon still runs 20 s after SIGTERM:\n" + Files.readString(log));
            String out = Files.readString(log);
            assertTrue(out.contains("pdla daemon: stopped"), "the loop ended its step and said so:\n" + out);
            // `pdla daemon` warms its build path up before watching its queue, and leaves no scratch behind
            assertTrue(out.indexOf("build path warmed up") >= 0 && out.indexOf("build path warmed up") < out.indexOf("watching the queue"), out);
            try (java.util.stream.Stream<Path> s = Files.list(dir)) {
                assertTrue(s.noneMatch(f -> f.getFileName().toString().startsWith(".pdla-daemon-warmup-")), "no scratch left in " + dir);
            }
        } finally {
            daemon.destroyForcibly();
            daemon.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
