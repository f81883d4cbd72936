package io.pdla.bdb;

import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.Durability;
import com.sleepycat.je.Environment;
import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.EnvironmentLockedException;

import java.io.File;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Opens the transactional JE environments of pdla's stores. */
public final class JeEnvironments {
    private static final long FIRST_BACKOFF_MILLIS = 5;
    private static final long MAX_BACKOFF_MILLIS = 200;
    /** Environment handles opened by this class loader: what a store opened per transaction costs is counted in them. */
    private static final java.util.concurrent.atomic.AtomicLong OPENED = new java.util.concurrent.atomic.AtomicLong();

    private JeEnvironments() {
    }

    /**
     * Opens the environment in {@code dir}. While another process holds it open for writing, retries with
     * back-off (5 ms doubling to 200 ms) until {@code settings.lockWait()} has passed, then throws
     * {@link EnvironmentBusyException}. Other JE failures (missing, corrupt environment) are thrown as JE
     * reports them, for the store to name itself in the message.
     */
    public static Environment open(Path dir, EnvironmentSettings settings) {
        JeLogging.quiet();
        EnvironmentConfig ec = new EnvironmentConfig();
        ec.setAllowCreate(settings.allowCreate());
        ec.setReadOnly(settings.readOnly());
        ec.setTransactional(true);
        ec.setDurability(Durability.COMMIT_SYNC);
        // JE's statistics capture (je.stat.csv beside the store) costs every open and close a statistics round, and
        // pdla's stores are opened per transaction: in a daemon polling every 200 ms most of its CPU went there
        ec.setConfigParam(EnvironmentConfig.STATS_COLLECT, "false");
        if (settings.cacheBytes() > 0) ec.setCacheSize(settings.cacheBytes());
        if (settings.lockTimeout() != null) ec.setLockTimeout(settings.lockTimeout().toMillis(), TimeUnit.MILLISECONDS);
        long waitMillis = settings.lockWait().toMillis();
        long deadline = System.nanoTime() + settings.lockWait().toNanos();
        long sleep = FIRST_BACKOFF_MILLIS;
        while (true) {
            try {
                Environment env = new Environment(dir.toFile(), ec);
                OPENED.incrementAndGet();
                return env;
            } catch (EnvironmentLockedException locked) {
                if (System.nanoTime() - deadline >= 0) throw new EnvironmentBusyException(dir, waitMillis, false, locked);
                try {
                    Thread.sleep(sleep);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new EnvironmentBusyException(dir, waitMillis, true, locked);
                }
                sleep = Math.min(MAX_BACKOFF_MILLIS, sleep * 2);
            }
        }
    }

    /**
     * How many environment handles {@link #open} has opened in this class loader (any directory), for tests and
     * diagnostics that check how often a store opened per transaction is really opened.
     */
    public static long opened() {
        return OPENED.get();
    }

    /** Whether {@code dir} holds a JE environment (at least one log file). */
    public static boolean exists(Path dir) {
        File[] logs = dir.toFile().listFiles((d, n) -> n.endsWith(".jdb"));
        return logs != null && logs.length > 0;
    }

    /** A transactional database of a store opened with {@code settings}: created with the store, read-only with it. */
    public static DatabaseConfig databaseConfig(EnvironmentSettings settings) {
        DatabaseConfig c = new DatabaseConfig();
        c.setTransactional(true);
        c.setAllowCreate(!settings.readOnly());
        c.setReadOnly(settings.readOnly());
        return c;
    }
}
