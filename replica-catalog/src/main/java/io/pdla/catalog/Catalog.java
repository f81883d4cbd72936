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
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;

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
 * Beside the environment, outside JE: the <em>change stamp</em> ({@value #STAMP_FILE}), a random token that every
 * transaction that writes replaces after its last write and before its commit ({@link #transact}), so that a reader
 * that took the stamp inside its own transaction can later tell, by reading the file alone, that the catalog has not
 * changed since ({@link StampedLookups}).
 */
public final class Catalog implements CatalogAccess, AutoCloseable {
    /**
     * 1: the layout above. Catalogs written before the version record have that layout and were stamped 1.
     * 2: the same layout, and every writing transaction changes {@value #STAMP_FILE} before it commits.
     *
     * <p>Why a version for a file outside JE: a build from before the stamp writes the catalog without changing it,
     * and a reader that trusted the stamp after such a write would reuse a stale look-up. {@link SchemaVersion#check}
     * refuses any version but its own, so a build that writes version 1 refuses to open a version 2 catalog: once a
     * catalog is at 2, no writer that ignores the stamp can open it. A catalog found at 1 (or without the record,
     * which means the layout of 1) is moved to 2 by the first open of this build, which writes a new stamp in the
     * same transaction first: whatever an older build wrote before lies behind a stamp change. Readers in addition
     * trust a stamp only in a transaction that reads version 2 ({@link CatalogTxn#changeStamp}).
     */
    public static final int SCHEMA_VERSION = 2;
    /** The version of catalogs whose writers did not change {@value #STAMP_FILE}; migrated at open. */
    static final int VERSION_WITHOUT_STAMP = 1;
    /** The change stamp's file in the catalog directory. */
    public static final String STAMP_FILE = "catalog.stamp";
    /** A stamp is a UUID's text: fixed length, so that a change overwrites the file in place. */
    private static final int STAMP_LENGTH = 36;
    /** Crash point for tests: runs after a writing transaction changed the stamp, before its commit. */
    static volatile Runnable afterStampChangeForTest;
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
                OptionalInt found;
                try {
                    found = SchemaVersion.read(meta, txn);
                } catch (IllegalArgumentException damaged) {
                    found = OptionalInt.of(SCHEMA_VERSION);   // VERSION.check below refuses it, naming the damage
                }
                if (found.isEmpty() || found.getAsInt() == VERSION_WITHOUT_STAMP) {
                    // a new catalog, or one older builds may have written without changing the stamp: a new stamp
                    // before version 2 commits, so no look-up taken before this moment is ever reused
                    changeStamp(dir);
                    SchemaVersion.write(meta, txn, SCHEMA_VERSION);
                } else {
                    VERSION.check(meta, txn, dir, false, false);
                }
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
        } catch (CatalogException e) {   // the change stamp could not be written
            env.close();
            throw e;
        } catch (DatabaseException | IllegalArgumentException e) {
            env.close();
            throw new CatalogException("replica catalog " + abs + " cannot be opened (corrupt?): " + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code work} in one transaction. The single way into the catalog's databases for reading or writing
     * (their handles are this package's, used only by {@link CatalogTxn}), and so the one place that changes the stamp:
     * a transaction whose work wrote anything ({@link CatalogTxn#wrote}) replaces {@value #STAMP_FILE} after its last
     * write and before its commit. After the last write: every row it changed is then write-locked until the commit, so
     * a reader in this process (a kept-open catalog is shared by threads) that reads the new stamp first and its rows
     * after sees the committed rows, not the old ones; a reader that read the old stamp will find it changed. Before
     * the commit: a crash between the two leaves a changed stamp over unchanged rows, and readers read again, never
     * reuse. Across processes JE lets one process at a time have the environment open, so a reader never overlaps a
     * writer at all. Transactions that only read leave the stamp alone.
     */
    @Override
    public <T> T transact(Work<T> work) throws IOException {
        try {
            return JeTransactions.run(env, ATTEMPTS, (Transaction t) -> {
                CatalogTxn txn = new CatalogTxn(this, t);
                T result = work.run(txn);
                if (txn.wrote()) {
                    changeStamp(dir);
                    Runnable crash = afterStampChangeForTest;
                    if (crash != null) crash.run();
                }
                return result;
            });
        } catch (LockConflictException e) {
            throw new CatalogException("replica catalog " + dir + ": transaction kept conflicting: " + e.getMessage(), e);
        } catch (DatabaseException e) {
            throw new CatalogException("replica catalog " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Replaces the stamp with a new random token, durably (forced before the caller commits, so a crash cannot take
     * the stamp back while the commit survives). Overwritten in place, so that a reader on another host that opens the
     * file by name always opens this one (close-to-open consistency then gives it the latest content); where the file
     * cannot be written in place (another user's), a new one is renamed over it. A stamp that cannot be changed fails
     * the transaction: a write must never commit behind an unchanged stamp.
     */
    static void changeStamp(Path dir) {
        byte[] token = UUID.randomUUID().toString().getBytes(StandardCharsets.US_ASCII);
        Path file = dir.resolve(STAMP_FILE);
        try {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                ByteBuffer b = ByteBuffer.wrap(token);
                while (b.hasRemaining()) ch.write(b, b.position());
                ch.truncate(token.length);
                ch.force(false);
            }
        } catch (IOException inPlace) {
            Path tmp = dir.resolve(STAMP_FILE + "." + new String(token, StandardCharsets.US_ASCII) + ".tmp");
            try {
                try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    ByteBuffer b = ByteBuffer.wrap(token);
                    while (b.hasRemaining()) ch.write(b);
                    ch.force(false);
                }
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                    d.force(true);
                } catch (IOException ignored) {
                    // not every file system lets a directory be opened for sync
                }
            } catch (IOException e) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the failure to report is the one below
                }
                e.addSuppressed(inPlace);
                throw new CatalogException("replica catalog " + dir + ": cannot change " + STAMP_FILE + ": " + e, e);
            }
        }
    }

    /**
     * The stamp as a fresh open and read of its file finds it; empty when absent or not a stamp. Only a regular file, not
     * followed through a link, and at most one byte more than a stamp is read: whatever was planted there (a FIFO, a
     * link, a huge file) neither blocks the reader inside its transaction nor takes its memory.
     */
    static Optional<String> readStamp(Path dir) throws IOException {
        Path file = dir.resolve(STAMP_FILE);
        byte[] b = new byte[STAMP_LENGTH + 1];
        int n = 0;
        try {
            if (!Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return Optional.empty();
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                ByteBuffer buf = ByteBuffer.wrap(b);
                while (buf.hasRemaining() && ch.read(buf) >= 0) {
                    // to the end, or one byte past a stamp's length
                }
                n = buf.position();
            }
        } catch (NoSuchFileException absent) {
            return Optional.empty();
        }
        return n == STAMP_LENGTH ? Optional.of(new String(b, 0, n, StandardCharsets.US_ASCII)) : Optional.empty();
    }

    /** The environment, for tests that write records as an older build or a damaged disk would. */
    Environment envForTest() {
        return env;
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
