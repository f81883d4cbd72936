package io.pdla.cli;

import io.pdla.patterns.db.PatternSpool;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;

/**
 * Wakes the daemon the moment a running job's hand-off lands in the pattern database's spool, so that the replica's
 * build starts then, not up to a poll later. The poll stays: it is the fallback wherever a watch sees nothing (a spool
 * on a network file system written from other hosts) or cannot be set up. The spool and the database directory are
 * made by the job's first hand-off, with its owner's rights, so the watch never creates them: it watches the database
 * directory for the spool to appear, and waits for the database directory by looking every {@value #ABSENT_MILLIS} ms.
 */
final class SpoolWatch implements Runnable {
    static final long ABSENT_MILLIS = 100;
    private final Path database;
    private final Path spool;
    private final Runnable wakeUp;
    private final PrintStream log;

    private SpoolWatch(Path database, Runnable wakeUp, PrintStream log) {
        this.database = database;
        this.spool = PatternSpool.dirOf(database);
        this.wakeUp = wakeUp;
        this.log = log;
    }

    /** Starts watching on a daemon thread of its own. */
    static void start(Path database, Runnable wakeUp, PrintStream log) {
        Thread t = new Thread(new SpoolWatch(database, wakeUp, log), "pdla-spool-watch");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void run() {
        try (WatchService ws = database.getFileSystem().newWatchService()) {
            while (true) {
                if (Files.isDirectory(spool)) watchSpool(ws);
                else if (Files.isDirectory(database)) watchForSpool(ws);
                else Thread.sleep(ABSENT_MILLIS);
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // the daemon is going away
        } catch (IOException | RuntimeException e) {
            log.println("pdla daemon: cannot watch " + spool + " (" + e.getMessage() + "); hand-offs are taken at each poll");
        }
    }

    /** Until the spool goes away: a pass at every hand-off that lands. */
    private void watchSpool(WatchService ws) throws IOException, InterruptedException {
        WatchKey key = spool.register(ws, StandardWatchEventKinds.ENTRY_CREATE);
        wakeUp.run();   // hand-offs that landed before the watch began
        while (true) {
            WatchKey k = ws.take();
            boolean landed = false;
            for (WatchEvent<?> e : k.pollEvents()) {
                landed |= e.kind() == StandardWatchEventKinds.OVERFLOW
                        || e.context() instanceof Path p && p.getFileName().toString().endsWith(PatternSpool.SUFFIX);
            }
            if (landed) wakeUp.run();
            if (!k.reset() && k == key) return;
        }
    }

    /** Until the spool exists (or the database directory goes away). */
    private void watchForSpool(WatchService ws) throws IOException, InterruptedException {
        WatchKey key = database.register(ws, StandardWatchEventKinds.ENTRY_CREATE);
        try {
            while (!Files.isDirectory(spool)) {
                WatchKey k = ws.poll(1, java.util.concurrent.TimeUnit.SECONDS);
                if (k == null) {
                    if (!key.isValid()) return;
                    continue;
                }
                k.pollEvents();
                if (!k.reset() && k == key) return;
            }
        } finally {
            key.cancel();
        }
    }
}
