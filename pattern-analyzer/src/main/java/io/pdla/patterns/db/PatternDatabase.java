package io.pdla.patterns.db;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.CursorConfig;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.Environment;
import com.sleepycat.je.LockConflictException;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.SecondaryConfig;
import com.sleepycat.je.SecondaryCursor;
import com.sleepycat.je.SecondaryDatabase;
import com.sleepycat.je.SecondaryKeyCreator;
import com.sleepycat.je.Transaction;
import io.pdla.bdb.DurableQueue;
import io.pdla.bdb.EnvironmentBusyException;
import io.pdla.bdb.EnvironmentSettings;
import io.pdla.bdb.JeEnvironments;
import io.pdla.bdb.JeTransactions;
import io.pdla.bdb.SchemaMismatchException;
import io.pdla.bdb.SchemaVersion;
import io.pdla.patterns.AnalysisReport;
import io.pdla.pattern.PatternKey;
import io.pdla.patterns.RuntimeInfo;
import io.pdla.patterns.global.GlobalPattern;
import io.pdla.patterns.global.MemberRef;
import io.pdla.patterns.template.LocalPattern;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The pattern database: a transactional, durable Berkeley DB JE environment in one directory, opened and versioned
 * through pdla-bdb (shared with the replica catalog).
 *
 * <pre>
 *   meta                 "schema-version" -> int                      checked at open ({@link SchemaVersion})
 *                        "queue-next" -> long                         next queue sequence number
 *   patterns             PatternKey (tuple) -> JSON {patterns, runtime}
 *   patterns.by-file     file URI -> PatternKey         (secondary, sorted duplicates)
 *   patterns.by-app      app command -> PatternKey      (secondary, sorted duplicates)
 *   replication-queue    (lane 0, sequence) -> PatternKey  FIFO for the replicator ({@link DurableQueue})
 * </pre>
 * A {@link #put} that stores a new or changed entry enqueues its key in the same transaction, so a committed
 * pattern is always queued and a queued key always has its pattern. Commits are synchronous (COMMIT_SYNC): a
 * pattern whose put returned survives a crash. Writers may run concurrently (threads of one process): a
 * transaction that loses a deadlock is aborted and retried.
 */
public final class PatternDatabase implements AutoCloseable {
    /** 2: keys name the file by URI (core's PatternKey); 3: the queue is pdla-bdb's (lane byte + sequence). */
    public static final int SCHEMA_VERSION = 3;
    private static final SchemaVersion VERSION = new SchemaVersion("pattern database", SCHEMA_VERSION);
    private static final int ATTEMPTS = 10;

    private final Path dir;
    private final Environment env;
    private final Database meta;
    private final Database patterns;
    private final SecondaryDatabase byFile;
    private final SecondaryDatabase byApp;
    private final Database queueDb;
    private final DurableQueue queue;

    private PatternDatabase(Path dir, EnvironmentSettings settings) {
        this.dir = dir;
        boolean readOnly = settings.readOnly();
        try {
            env = JeEnvironments.open(dir, settings);
        } catch (DatabaseException | EnvironmentBusyException e) {
            throw new PatternDatabaseException("cannot open pattern database at " + dir + ": " + e.getMessage(), e);
        }
        try {
            Transaction txn = env.beginTransaction(null, null);
            try {
                DatabaseConfig dc = JeEnvironments.databaseConfig(settings);
                meta = env.openDatabase(txn, "meta", dc);
                patterns = env.openDatabase(txn, "patterns", dc);
                byFile = env.openSecondaryDatabase(txn, "patterns.by-file", patterns, secondary(readOnly, KeyTuples::fileOf));
                byApp = env.openSecondaryDatabase(txn, "patterns.by-app", patterns, secondary(readOnly, KeyTuples::appOf));
                queueDb = env.openDatabase(txn, "replication-queue", dc);
                queue = new DurableQueue(queueDb, meta, 1);
                if (!readOnly) QueueMigration.fromVersion2(meta, queueDb, queue, txn);
                VERSION.check(meta, txn, dir, patterns.count() > 0, readOnly);
                txn.commit();
            } catch (RuntimeException e) {
                txn.abort();
                throw e;
            }
        } catch (RuntimeException e) {
            env.close();
            if (e instanceof SchemaMismatchException m) throw new SchemaVersionException(m);
            if (e instanceof PatternDatabaseException p) throw p;
            throw new PatternDatabaseException("cannot open pattern database at " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * How long a read-write open waits while another process holds the database (JE lets one process write an
     * environment): jobs on many hosts analyze into one database, each for a moment, and the later one waits its
     * turn instead of failing (docs/cluster.md).
     */
    static final java.time.Duration WRITER_WAIT = java.time.Duration.ofSeconds(60);

    /** Opens the database in {@code dir}, creating the directory and an empty database if needed. */
    public static PatternDatabase open(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new PatternDatabaseException("cannot create pattern database directory " + dir + ": " + e.getMessage(), e);
        }
        return new PatternDatabase(dir, EnvironmentSettings.readWrite().withLockWait(WRITER_WAIT));
    }

    /** Opens an existing database; an error names the directory if there is none. */
    public static PatternDatabase openExisting(Path dir, boolean readOnly) {
        if (!JeEnvironments.exists(dir)) throw new PatternDatabaseException("no pattern database at " + dir + " (no .jdb files)");
        return new PatternDatabase(dir, readOnly ? EnvironmentSettings.readOnlyExisting()
                : EnvironmentSettings.readWrite().withAllowCreate(false).withLockWait(WRITER_WAIT));
    }

    public Path directory() {
        return dir;
    }

    private static SecondaryConfig secondary(boolean readOnly, Function<byte[], byte[]> part) {
        SecondaryConfig c = new SecondaryConfig();
        c.setTransactional(true);
        c.setAllowCreate(!readOnly);
        c.setReadOnly(readOnly);
        c.setSortedDuplicates(true);
        c.setKeyCreator(new SecondaryKeyCreator() {
            @Override
            public boolean createSecondaryKey(SecondaryDatabase db, DatabaseEntry key, DatabaseEntry data, DatabaseEntry result) {
                result.setData(part.apply(key.getData()));
                return true;
            }
        });
        return c;
    }

    /** Runs {@code work} in a committed transaction, retried when JE reports a lock conflict (deadlock). */
    private <T> T inTransaction(String what, Function<Transaction, T> work) {
        try {
            return JeTransactions.run(env, ATTEMPTS, work::apply);
        } catch (LockConflictException conflict) {
            throw wrap(what + " (lock conflict " + ATTEMPTS + " times)", conflict);
        } catch (RuntimeException e) {
            throw wrap(what, e);
        }
    }

    /** For tests and migrations: overwrites the schema version record. */
    void forceVersion(int version) {
        inTransaction("write the schema version", txn -> {
            SchemaVersion.write(meta, txn, version);
            return null;
        });
    }

    /**
     * Stores the entry (replacing the one under its key) and, if it is new or different, enqueues the key for
     * the replicator, in one transaction.
     *
     * @return true when stored and enqueued, false when the identical entry was already there
     */
    public boolean put(PatternEntry entry) {
        return inTransaction("store " + entry.key(), txn -> putIn(txn, entry));
    }

    private boolean putIn(Transaction txn, PatternEntry entry) {
        DatabaseEntry key = new DatabaseEntry(KeyTuples.encode(entry.key()));
        byte[] value = EntryCodec.encode(entry);
        DatabaseEntry old = new DatabaseEntry();
        if (patterns.get(txn, key, old, LockMode.RMW) == OperationStatus.SUCCESS && Arrays.equals(old.getData(), value)) {
            return false;
        }
        patterns.put(txn, key, new DatabaseEntry(value));
        queue.offer(txn, 0, key.getData());
        return true;
    }

    /**
     * Stores all patterns of an analysis, in one transaction: every rank's local patterns under its rank,
     * global patterns under "all". Locals that belong to a global pattern carry the global's index.
     *
     * @return number of entries stored (new or changed, hence enqueued)
     */
    public int storeReport(AnalysisReport report) {
        List<PatternEntry> entries = PatternEntries.of(report);
        return inTransaction("store the analysis of '" + report.job().app().command() + "'", txn -> {
            int n = 0;
            for (PatternEntry e : entries) if (putIn(txn, e)) n++;
            return n;
        });
    }

    /**
     * Stores entries in one transaction as {@link #storeReport} does (each new or changed one queued): what online
     * PDLA's hand-offs become ({@link PatternSpool}).
     *
     * @return number of entries stored (new or changed, hence enqueued)
     */
    public int putAll(List<PatternEntry> entries) {
        return inTransaction("store " + entries.size() + " handed-in entries", txn -> {
            int n = 0;
            for (PatternEntry e : entries) if (putIn(txn, e)) n++;
            return n;
        });
    }

    public Optional<PatternEntry> get(PatternKey key) {
        DatabaseEntry data = new DatabaseEntry();
        OperationStatus s = patterns.get(null, new DatabaseEntry(KeyTuples.encode(key)), data, LockMode.READ_COMMITTED);
        return s == OperationStatus.SUCCESS ? Optional.of(entry(key, data.getData())) : Optional.empty();
    }

    /** Deletes the entry (its secondary index records go with it) and any queue items for it. */
    public boolean delete(PatternKey key) {
        byte[] k = KeyTuples.encode(key);
        return inTransaction("delete " + key, txn -> {
            boolean existed = patterns.delete(txn, new DatabaseEntry(k)) == OperationStatus.SUCCESS;
            queue.removeIf(txn, queued -> Arrays.equals(queued, k));
            return existed;
        });
    }

    public List<PatternKey> keys() {
        List<PatternKey> out = new ArrayList<>();
        try (Cursor c = patterns.openCursor(null, CursorConfig.READ_COMMITTED)) {
            DatabaseEntry k = new DatabaseEntry(), d = new DatabaseEntry();
            d.setPartial(0, 0, true);
            while (c.getNext(k, d, LockMode.DEFAULT) == OperationStatus.SUCCESS) out.add(key(k.getData()));
        }
        return out;
    }

    public List<PatternEntry> byFile(java.net.URI file) {
        return bySecondary(byFile, KeyTuples.encodeString(file.toString()));
    }

    public List<PatternEntry> byApp(String appCommand) {
        return bySecondary(byApp, KeyTuples.encodeString(appCommand));
    }

    private List<PatternEntry> bySecondary(SecondaryDatabase sdb, byte[] skey) {
        List<PatternEntry> out = new ArrayList<>();
        try (SecondaryCursor c = sdb.openCursor(null, CursorConfig.READ_COMMITTED)) {
            DatabaseEntry sk = new DatabaseEntry(skey), pk = new DatabaseEntry(), data = new DatabaseEntry();
            OperationStatus s = c.getSearchKey(sk, pk, data, LockMode.DEFAULT);
            while (s == OperationStatus.SUCCESS) {
                out.add(entry(key(pk.getData()), data.getData()));
                s = c.getNextDup(sk, pk, data, LockMode.DEFAULT);
            }
        }
        return out;
    }

    /** Number of items waiting in the replication queue. */
    public long queueLength() {
        return queue.size();
    }

    /** The queue in order, without removing anything. */
    public List<QueueItem> peekQueue() {
        return queue.items(null).stream().map(this::queueItem).toList();
    }

    /** Removes and returns the oldest queue item in its own committed transaction; empty when the queue is. */
    public Optional<QueueItem> dequeue() {
        return inTransaction("dequeue", this::dequeue);
    }

    /**
     * Removes the oldest queue item inside the caller's transaction (the replicator commits it together with
     * the replica it built, or aborts and the item stays queued).
     */
    public Optional<QueueItem> dequeue(Transaction txn) {
        return queue.poll(txn).map(this::queueItem);
    }

    private QueueItem queueItem(DurableQueue.Item item) {
        return new QueueItem(item.sequence(), key(item.value()));
    }

    /** The JE environment, for a caller that runs its own transactions around {@link #dequeue(Transaction)}. */
    public Environment environment() {
        return env;
    }

    /** A stored key; a damaged one is a {@link PatternDatabaseException} naming this database. */
    private PatternKey key(byte[] bytes) {
        PatternKey key;
        try {
            key = KeyTuples.decode(bytes);
        } catch (RuntimeException e) {
            throw new PatternDatabaseException("pattern database at " + dir + ": corrupt pattern key of " + bytes.length + " bytes: "
                    + e.getMessage(), e);
        }
        // a damaged key can decode to some other key, under which nothing is stored: it must read back as written
        if (!Arrays.equals(KeyTuples.encode(key), bytes)) {
            throw new PatternDatabaseException("pattern database at " + dir + ": corrupt pattern key of " + bytes.length
                    + " bytes (reads as " + key + ", which is stored otherwise)");
        }
        return key;
    }

    /** A stored entry; a damaged one is a {@link PatternDatabaseException} naming this database and the key. */
    private PatternEntry entry(PatternKey key, byte[] bytes) {
        try {
            return EntryCodec.decode(key, bytes);
        } catch (RuntimeException e) {
            throw new PatternDatabaseException("pattern database at " + dir + ": " + e.getMessage(), e);
        }
    }

    private RuntimeException wrap(String what, RuntimeException e) {
        if (e instanceof PatternDatabaseException) return e;
        return new PatternDatabaseException("pattern database at " + dir + ": cannot " + what + ": " + e.getMessage(), e);
    }

    @Override
    public void close() {
        byFile.close();
        byApp.close();
        patterns.close();
        queueDb.close();
        meta.close();
        env.close();
    }
}
