package io.pdla.replicator;

import io.pdla.replicator.daemon.DaemonMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
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
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", cp,
                DaemonMain.class.getName(), "--db", tmp.resolve("db").toString(), "--poll", "200").redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream()));
        String first = out.readLine();
        assertTrue(first != null && first.contains("watching the queue"), "daemon started: " + first);
        Thread.sleep(600); // a few passes
        p.destroy(); // SIGTERM
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "daemon exits after SIGTERM");
        StringBuilder rest = new StringBuilder();
        for (String l; (l = out.readLine()) != null; ) rest.append(l).append('\n');
        assertTrue(rest.toString().contains("pdla daemon: stopped"), "clean stop reported: " + rest);
    }
}
