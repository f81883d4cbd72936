package io.pdla.catalog;

import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.Environment;
import com.sleepycat.je.LockConflictException;
import com.sleepycat.je.Transaction;
import io.pdla.bdb.DurableQueue;
import io.pdla.bdb.EnvironmentBusyException;
import io.pdla.bdb.EnvironmentSettings;
import io.pdla.bdb.JeEnvironments;
import io.pdla.bdb.JeTransactions;
import io.pdla.bdb.SchemaMismatchException;
import io.pdla.bdb.SchemaVersion;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The replica catalog: one transactional Berkeley DB JE environment, opened, versioned and queued through
 * pdla-bdb (shared with the pattern database), every commit synced to disk so that an acknowledged change
 * survives a crash:
 * <ul>
 * <li>{@code meta}: the schema version and the queue's sequence counter;</li>
 * <li>{@code replicas}: pattern key &rarr; {@link ReplicaEntry} (file URI first in the key, so the entries
 * of one original are adjacent);</li>
 * <li>{@code files}: original URI &rarr; {@link FileRecord} (generation, open shim writers);</li>
 * <li>{@code writers}: original URI + session id &rarr; {@link WriterSession};</li>
 * <li>{@code queue}: the replication queue, a {@link DurableQueue} with lane 0 for global patterns and lane 1
 * for local ones;</li>
 * <li>{@code journal}: build id &rarr; replica files that must be deleted unless a catalog entry references
 * them (a build's temporary and final names before its commit; a replaced replica after it).</li>
 * </ul>
 */
public final class Catalog implements CatalogAccess, AutoCloseable {
    /** 1: the layout above. Catalogs written before the version record have that layout and are stamped 1. */
    public static final int SCHEMA_VERSION = 1;
    private static final SchemaVersion VERSION = new SchemaVersion("replica catalog", SCHEMA_VERSION);
    private static final int ATTEMPTS = 21;
    private static final EnvironmentSettings SETTINGS = EnvironmentSettings.readWrite()
            .withCacheBytes(8L << 20).withLockTimeout(Duration.ofSeconds(5));

    private final Path dir;
    private final Environment env;
    final Database meta;
    final Database replicas;
    final Database files;
    final Database writers;
    final Database queueDb;
    final DurableQueue queue;
    final Database journal;

    private Catalog(Path dir, Environment env) {
        this.dir = dir;
        this.env = env;
        DatabaseConfig dc = JeEnvironments.databaseConfig(SETTINGS);
        this.meta = env.openDatabase(null, "meta", dc);
        this.replicas = env.openDatabase(null, "replicas", dc);
        this.files = env.openDatabase(null, "files", dc);
        this.writers = env.openDatabase(null, "writers", dc);
        this.queueDb = env.openDatabase(null, "queue", dc);
        this.queue = new DurableQueue(queueDb, meta, 2);
        this.journal = env.openDatabase(null, "journal", dc);
        // the replica layout has been the same since before the record existed: holdsData false stamps old catalogs
        try {
            JeTransactions.run(env, ATTEMPTS, txn -> {
                VERSION.check(meta, txn, dir, false, false);
                return null;
            });
        } catch (RuntimeException e) {
            // close the databases, else the caller's env.close() fails on them and hides why the open was refused
            for (Database d : new Database[]{replicas, files, writers, queueDb, journal, meta}) {
                try {
                    d.close();
                } catch (RuntimeException ignored) {
                    // closing what failed to open: the first error is the one to report
                }
            }
            throw e;
        }
    }

    /** Opens (creating if needed) the catalog in {@code dir}. */
    public static Catalog open(Path dir) {
        return open(dir, true, 0);
    }

    /** Opens an existing catalog; a directory without one is a {@link CatalogException}. */
    public static Catalog openExisting(Path dir) {
        return open(dir, false, 0);
    }

    /**
     * Opens (creating if needed) the catalog, waiting up to {@code waitMillis} while another process holds it
     * open for writing; after that, a {@link CatalogException} saying how long it stayed locked.
     */
    public static Catalog openWaiting(Path dir, long waitMillis) {
        return open(dir, true, waitMillis);
    }

    static Catalog open(Path dir, boolean create) {
        return open(dir, create, 0);
    }

    private static Catalog open(Path dir, boolean create, long waitMillis) {
        Path abs = dir.toAbsolutePath().normalize();
        boolean fresh = !JeEnvironments.exists(abs);
        try {
            if (create) Files.createDirectories(abs);
            else if (fresh) throw new CatalogException("no replica catalog in " + abs + " (run 'pdla daemon --db " + abs + "' first)");
        } catch (IOException e) {
            throw new CatalogException("cannot create replica catalog directory " + abs + ": " + e, e);
        }
        if (fresh && create) {
            try {
                ReplicatedOriginals.createIfAbsent(abs);   // a new catalog knows it holds no replica yet
            } catch (IOException e) {
                throw new CatalogException("cannot create " + ReplicatedOriginals.FILE + " in " + abs + ": " + e, e);
            }
        }
        Environment env;
        try {
            env = JeEnvironments.open(abs, SETTINGS.withAllowCreate(create).withLockWait(Duration.ofMillis(waitMillis)));
        } catch (EnvironmentBusyException e) {
            if (e.interrupted()) throw new CatalogException("interrupted while waiting for replica catalog " + abs, e);
            if (waitMillis == 0) throw new CatalogLockedException("replica catalog " + abs + " is open for writing by another process", e);
            throw new CatalogLockedException("replica catalog " + abs + " stayed locked by another process for " + waitMillis + " ms", e);
        } catch (DatabaseException | IllegalArgumentException | IllegalStateException | AssertionError e) {
            // JE reports some damaged logs through its internal assertions (AssertionError when run with -ea)
            throw new CatalogException("replica catalog " + abs + " cannot be opened (corrupt or incompatible?): " + e, e);
        }
        try {
            return new Catalog(abs, env);
        } catch (SchemaMismatchException e) {
            env.close();
            throw new CatalogException(e.getMessage() + " (use another --db directory)", e);
        } catch (DatabaseException | IllegalArgumentException e) {
            env.close();
            throw new CatalogException("replica catalog " + abs + " cannot be opened (corrupt?): " + e.getMessage(), e);
        }
    }

    @Override
    public <T> T transact(Work<T> work) throws IOException {
        try {
            return JeTransactions.run(env, ATTEMPTS, (Transaction t) -> work.run(new CatalogTxn(this, t)));
        } catch (LockConflictException e) {
            throw new CatalogException("replica catalog " + dir + ": transaction kept conflicting: " + e.getMessage(), e);
        } catch (DatabaseException e) {
            throw new CatalogException("replica catalog " + dir + ": " + e.getMessage(), e);
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
            queueDb.close();
            journal.close();
            meta.close();
        } finally {
            env.close();
        }
    }
}
