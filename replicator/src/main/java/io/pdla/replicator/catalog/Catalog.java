package io.pdla.replicator.catalog;

import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.Durability;
import com.sleepycat.je.Environment;
import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.EnvironmentLockedException;
import com.sleepycat.je.LockConflictException;
import com.sleepycat.je.Transaction;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The replica catalog: one transactional Berkeley DB JE environment with four databases, every commit
 * synced to disk ({@link Durability#COMMIT_SYNC}) so that an acknowledged change survives a crash:
 * <ul>
 * <li>{@code replicas}: pattern key &rarr; {@link ReplicaEntry} (file URI first in the key, so the entries
 * of one original are adjacent);</li>
 * <li>{@code files}: original URI &rarr; {@link FileRecord} (generation, open shim writers);</li>
 * <li>{@code writers}: original URI + session id &rarr; {@link WriterSession};</li>
 * <li>{@code queue}: (class: 0 global, 1 local; sequence) &rarr; encoded pattern, the replication queue;</li>
 * <li>{@code journal}: build id &rarr; replica files that must be deleted unless a catalog entry references
 * them (a build's temporary and final names before its commit; a replaced replica after it).</li>
 * </ul>
 */
public final class Catalog implements CatalogAccess, AutoCloseable {
    private static final int LOCK_RETRIES = 20;
    /**
     * JE reports every environment open and close at INFO ("soft shutdown initiated"); applications open the
     * catalog once per file through redirect, so that would be a line on their stderr per open. Kept strongly
     * referenced: java.util.logging forgets the level of a logger nobody holds.
     */
    private static final java.util.logging.Logger JE_LOG = quietJe();

    private static java.util.logging.Logger quietJe() {
        java.util.logging.Logger l = java.util.logging.Logger.getLogger("com.sleepycat.je");
        if (l.getLevel() == null) l.setLevel(java.util.logging.Level.WARNING);
        return l;
    }

    private final Path dir;
    private final Environment env;
    final Database replicas;
    final Database files;
    final Database writers;
    final Database queue;
    final Database journal;

    private Catalog(Path dir, Environment env, Database replicas, Database files, Database writers, Database queue, Database journal) {
        this.dir = dir;
        this.env = env;
        this.replicas = replicas;
        this.files = files;
        this.writers = writers;
        this.queue = queue;
        this.journal = journal;
    }

    /** Opens (creating if needed) the catalog in {@code dir}. */
    public static Catalog open(Path dir) {
        return open(dir, true);
    }

    /** Opens an existing catalog; a directory without one is a {@link CatalogException}. */
    public static Catalog openExisting(Path dir) {
        return open(dir, false);
    }

    static Catalog open(Path dir, boolean create) {
        Path abs = dir.toAbsolutePath().normalize();
        try {
            if (create) Files.createDirectories(abs);
            else if (!Files.isDirectory(abs) || !Files.exists(abs.resolve("00000000.jdb"))) {
                throw new CatalogException("no replica catalog in " + abs + " (run 'pdla daemon --db " + abs + "' first)");
            }
        } catch (IOException e) {
            throw new CatalogException("cannot create replica catalog directory " + abs + ": " + e, e);
        }
        boolean fresh = !Files.exists(abs.resolve("00000000.jdb"));
        if (fresh && create) {
            try {
                ReplicatedOriginals.createIfAbsent(abs);   // a new catalog knows it holds no replica yet
            } catch (IOException e) {
                throw new CatalogException("cannot create " + ReplicatedOriginals.FILE + " in " + abs + ": " + e, e);
            }
        }
        EnvironmentConfig ec = new EnvironmentConfig();
        ec.setAllowCreate(create);
        ec.setTransactional(true);
        ec.setDurability(Durability.COMMIT_SYNC);
        ec.setCacheSize(8L << 20);
        ec.setLockTimeout(5, TimeUnit.SECONDS);
        Environment env;
        try {
            env = new Environment(abs.toFile(), ec);
        } catch (EnvironmentLockedException e) {
            throw new CatalogLockedException("replica catalog " + abs + " is open for writing by another process", e);
        } catch (DatabaseException | IllegalArgumentException | IllegalStateException | AssertionError e) {
            // JE reports some damaged logs through its internal assertions (AssertionError when run with -ea)
            throw new CatalogException("replica catalog " + abs + " cannot be opened (corrupt or incompatible?): " + e, e);
        }
        try {
            DatabaseConfig dc = new DatabaseConfig();
            dc.setAllowCreate(true);
            dc.setTransactional(true);
            return new Catalog(abs, env, env.openDatabase(null, "replicas", dc), env.openDatabase(null, "files", dc),
                    env.openDatabase(null, "writers", dc), env.openDatabase(null, "queue", dc),
                    env.openDatabase(null, "journal", dc));
        } catch (DatabaseException | IllegalArgumentException e) {
            env.close();
            throw new CatalogException("replica catalog " + abs + " cannot be opened (corrupt?): " + e.getMessage(), e);
        }
    }

    @Override
    public <T> T transact(Work<T> work) throws IOException {
        for (int attempt = 0; ; attempt++) {
            Transaction t = env.beginTransaction(null, null);
            boolean done = false;
            try {
                T result = work.run(new CatalogTxn(this, t));
                t.commit();
                done = true;
                return result;
            } catch (LockConflictException e) {
                if (attempt >= LOCK_RETRIES) throw new CatalogException("replica catalog " + dir + ": transaction kept conflicting: " + e.getMessage(), e);
            } catch (DatabaseException e) {
                throw new CatalogException("replica catalog " + dir + ": " + e.getMessage(), e);
            } finally {
                if (!done) {
                    try {
                        t.abort();
                    } catch (DatabaseException ignored) {
                        // the environment may already be invalid; the original failure is what matters
                    }
                }
            }
        }
    }

    @Override
    public String location() {
        return dir.toString();
    }

    @Override
    public Path directory() {
        return dir;
    }

    public Path dir() {
        return dir;
    }

    @Override
    public void close() {
        try {
            replicas.close();
            files.close();
            writers.close();
            queue.close();
            journal.close();
        } finally {
            env.close();
        }
    }
}
