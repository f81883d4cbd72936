package io.pdla.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Stopping a long-running `pdla daemon` child process at the end of a test, without waiting out its JVM's exit. */
final class DaemonStop {
    private DaemonStop() {
    }

    /**
     * SIGTERM, then wait (at most 30 s) until the daemon's log says its loop stopped, then end the process. Why not
     * just wait for the exit: after the loop stops, the JVM stays up for another 30 s, because DaemonMain's shutdown
     * hook joins the main thread for up to 30 s while that thread waits in PdlaCommand.main's System.exit for the
     * hooks to finish. Nothing runs in the daemon after "pdla daemon: stopped", so ending it then loses nothing.
     */
    static void stop(Process daemon, Path log) throws IOException, InterruptedException {
        daemon.destroy();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (daemon.isAlive() && System.nanoTime() < deadline && !stopped(log)) Thread.sleep(50);
        if (daemon.isAlive()) daemon.destroyForcibly();
        daemon.waitFor(30, TimeUnit.SECONDS);
    }

    private static boolean stopped(Path log) throws IOException {
        return Files.exists(log) && Files.readString(log).contains("pdla daemon: stopped");
    }
}
