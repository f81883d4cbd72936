package io.pdla.patterns.db;

import com.sleepycat.bind.tuple.TupleInput;
import com.sleepycat.bind.tuple.TupleOutput;
import com.sleepycat.je.Cursor;
import com.sleepycat.je.CursorConfig;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.Durability;
import com.sleepycat.je.Environment;
import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.LockConflictException;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.SecondaryConfig;
import com.sleepycat.je.SecondaryCursor;
import com.sleepycat.je.SecondaryDatabase;
import com.sleepycat.je.SecondaryKeyCreator;
import com.sleepycat.je.Transaction;
import io.pdla.patterns.AnalysisReport;
import io.pdla.pattern.PatternKey;
import io.pdla.patterns.RuntimeInfo;
import io.pdla.patterns.global.GlobalPattern;
import io.pdla.patterns.global.MemberRef;
import io.pdla.patterns.template.LocalPattern;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The pattern database: a transactional, durable Berkeley DB JE environment in one directory.
 *
 * <pre>
 *   meta                 "schema-version" -> int                      checked at open
 *                        "queue-next" -> long                         next queue sequence number
 *   patterns             PatternKey (tuple) -> JSON {patterns, runtime}
 *   patterns.by-file     file URI -> PatternKey         (secondary, sorted duplicates)
 *   patterns.by-app      app command -> PatternKey      (secondary, sorted duplicates)
 *   replication-queue    sequence (long) -> PatternKey  FIFO for the replicator
 * </pre>
 * A {@link #put} that stores a new or changed entry enqueues its key in the same transaction, so a committed
 * pattern is always queued and a queued key always has its pattern. Commits are synchronous (COMMIT_SYNC): a
 * pattern whose put returned survives a crash. Writers may run concurrently (threads of one process): a
 * transaction that loses a deadlock is aborted and retried.
 */
public final class PatternDatabase implements AutoCloseable {
    public static final int SCHEMA_VERSION = 2;   // 2: keys name the file by URI (core's PatternKey)
    private static final byte[] VERSION_KEY = KeyTuples.encodeString("schema-version");
    private static final byte[] QUEUE_COUNTER_KEY = KeyTuples.encodeString("queue-next");

    private final Path dir;
    private final Environment env;
    private final Database meta;
    private final Database patterns;
    private final SecondaryDatabase byFile;
    private final SecondaryDatabase byApp;
    private final Database queue;

    private PatternDatabase(Path dir, boolean readOnly) {
        this.dir = dir;
        EnvironmentConfig ec = new EnvironmentConfig();
        ec.setAllowCreate(!readOnly);
        ec.setReadOnly(readOnly);
        ec.setTransactional(true);
        ec.setDurability(Durability.COMMIT_SYNC);
        try {
            env = new Environment(dir.toFile(), ec);
        } catch (DatabaseException e) {
            throw new PatternDatabaseException("cannot open pattern database at " + dir + ": " + e.getMessage(), e);
        }
        try {
            Transaction txn = env.beginTransaction(null, null);
            try {
                meta = env.openDatabase(txn, "meta", dbConfig(readOnly));
                patterns = env.openDatabase(txn, "patterns", dbConfig(readOnly));
                byFile = env.openSecondaryDatabase(txn, "patterns.by-file", patterns, secondary(readOnly, KeyTuples::fileOf));
                byApp = env.openSecondaryDatabase(txn, "patterns.by-app", patterns, secondary(readOnly, KeyTuples::appOf));
                queue = env.openDatabase(txn, "replication-queue", dbConfig(readOnly));
                checkVersion(txn, readOnly);
                txn.commit();
            } catch (RuntimeException e) {
                txn.abort();
                throw e;
            }
        } catch (RuntimeException e) {
            env.close();
            if (e instanceof PatternDatabaseException p) throw p;
            throw new PatternDatabaseException("cannot open pattern database at " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Opens the database in {@code dir}, creating the directory and an empty database if needed. */
    public static PatternDatabase open(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new PatternDatabaseException("cannot create pattern database directory " + dir + ": " + e.getMessage(), e);
        }
        return new PatternDatabase(dir, false);
    }

    /** Opens an existing database; an error names the directory if there is none. */
    public static PatternDatabase openExisting(Path dir, boolean readOnly) {
        File[] logs = dir.toFile().listFiles((d, n) -> n.endsWith(".jdb"));
        if (logs == null || logs.length == 0) throw new PatternDatabaseException("no pattern database at " + dir + " (no .jdb files)");
        return new PatternDatabase(dir, readOnly);
    }

    public Path directory() {
        return dir;
    }

    private static DatabaseConfig dbConfig(boolean readOnly) {
        DatabaseConfig c = new DatabaseConfig();
        c.setTransactional(true);
        c.setAllowCreate(!readOnly);
        c.setReadOnly(readOnly);
        return c;
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

    private void checkVersion(Transaction txn, boolean readOnly) {
        DatabaseEntry v = new DatabaseEntry();
        if (meta.get(txn, new DatabaseEntry(VERSION_KEY), v, LockMode.DEFAULT) == OperationStatus.SUCCESS) {
            int found = new TupleInput(v.getData()).readInt();
            if (found != SCHEMA_VERSION) throw new SchemaVersionException(dir, found, SCHEMA_VERSION);
            return;
        }
        if (patterns.count() > 0) {
            throw new PatternDatabaseException("pattern database at " + dir + " has patterns but no schema version record");
        }
        if (readOnly) return; // a fresh, empty read-only environment: nothing to check
        writeVersion(txn, SCHEMA_VERSION);
    }

    private static final int ATTEMPTS = 10;

    /** Runs {@code work} in a transaction, committing; retried when JE reports a lock conflict (deadlock). */
    private <T> T inTransaction(String what, java.util.function.Function<Transaction, T> work) {
        for (int attempt = 1; ; attempt++) {
            Transaction txn = env.beginTransaction(null, null);
            try {
                T result = work.apply(txn);
                txn.commit();
                return result;
            } catch (LockConflictException conflict) {
                txn.abort();
                if (attempt == ATTEMPTS) throw wrap(what + " (lock conflict " + ATTEMPTS + " times)", conflict);
            } catch (RuntimeException e) {
                txn.abort();
                throw wrap(what, e);
            }
        }
    }

    /** For tests and migrations: overwrites the schema version record. */
    void writeVersion(Transaction txn, int version) {
        TupleOutput out = new TupleOutput();
        out.writeInt(version);
        meta.put(txn, new DatabaseEntry(VERSION_KEY), new DatabaseEntry(out.toByteArray()));
    }

    void forceVersion(int version) {
        inTransaction("write the schema version", txn -> {
            writeVersion(txn, version);
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
        enqueue(txn, key.getData());
        return true;
    }

    /**
     * Appends the key to the queue under the next sequence number. The counter lives in {@code meta} and is
     * read-modify-written in the caller's transaction: numbers are never reused (also after the queue ran empty)
     * and concurrent writers serialize on it until they commit.
     */
    private void enqueue(Transaction txn, byte[] primaryKey) {
        DatabaseEntry counterKey = new DatabaseEntry(QUEUE_COUNTER_KEY), counter = new DatabaseEntry();
        long next = 0;
        if (meta.get(txn, counterKey, counter, LockMode.RMW) == OperationStatus.SUCCESS) {
            next = new TupleInput(counter.getData()).readLong();
        }
        TupleOutput seq = new TupleOutput();
        seq.writeLong(next);
        TupleOutput after = new TupleOutput();
        after.writeLong(next + 1);
        meta.put(txn, counterKey, new DatabaseEntry(after.toByteArray()));
        OperationStatus s = queue.putNoOverwrite(txn, new DatabaseEntry(seq.toByteArray()), new DatabaseEntry(primaryKey));
        if (s != OperationStatus.SUCCESS) throw new PatternDatabaseException("queue sequence " + next + " already taken in " + dir);
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

    public Optional<PatternEntry> get(PatternKey key) {
        DatabaseEntry data = new DatabaseEntry();
        OperationStatus s = patterns.get(null, new DatabaseEntry(KeyTuples.encode(key)), data, LockMode.READ_COMMITTED);
        return s == OperationStatus.SUCCESS ? Optional.of(EntryCodec.decode(key, data.getData())) : Optional.empty();
    }

    /** Deletes the entry (its secondary index records go with it) and any queue items for it. */
    public boolean delete(PatternKey key) {
        byte[] k = KeyTuples.encode(key);
        return inTransaction("delete " + key, txn -> {
            boolean existed = patterns.delete(txn, new DatabaseEntry(k)) == OperationStatus.SUCCESS;
            try (Cursor c = queue.openCursor(txn, null)) {
                DatabaseEntry qk = new DatabaseEntry(), qd = new DatabaseEntry();
                while (c.getNext(qk, qd, LockMode.RMW) == OperationStatus.SUCCESS) {
                    if (Arrays.equals(qd.getData(), k)) c.delete();
                }
            }
            return existed;
        });
    }

    public List<PatternKey> keys() {
        List<PatternKey> out = new ArrayList<>();
        try (Cursor c = patterns.openCursor(null, CursorConfig.READ_COMMITTED)) {
            DatabaseEntry k = new DatabaseEntry(), d = new DatabaseEntry();
            d.setPartial(0, 0, true);
            while (c.getNext(k, d, LockMode.DEFAULT) == OperationStatus.SUCCESS) out.add(KeyTuples.decode(k.getData()));
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
                out.add(EntryCodec.decode(KeyTuples.decode(pk.getData()), data.getData()));
                s = c.getNextDup(sk, pk, data, LockMode.DEFAULT);
            }
        }
        return out;
    }

    /** Number of items waiting in the replication queue. */
    public long queueLength() {
        return queue.count();
    }

    /** The queue in order, without removing anything. */
    public List<QueueItem> peekQueue() {
        List<QueueItem> out = new ArrayList<>();
        try (Cursor c = queue.openCursor(null, CursorConfig.READ_COMMITTED)) {
            DatabaseEntry k = new DatabaseEntry(), d = new DatabaseEntry();
            while (c.getNext(k, d, LockMode.DEFAULT) == OperationStatus.SUCCESS) {
                out.add(new QueueItem(new TupleInput(k.getData()).readLong(), KeyTuples.decode(d.getData())));
            }
        }
        return out;
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
        try (Cursor c = queue.openCursor(txn, null)) {
            DatabaseEntry k = new DatabaseEntry(), d = new DatabaseEntry();
            if (c.getFirst(k, d, LockMode.RMW) != OperationStatus.SUCCESS) return Optional.empty();
            c.delete();
            return Optional.of(new QueueItem(new TupleInput(k.getData()).readLong(), KeyTuples.decode(d.getData())));
        }
    }

    /** The JE environment, for a caller that runs its own transactions around {@link #dequeue(Transaction)}. */
    public Environment environment() {
        return env;
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
        queue.close();
        meta.close();
        env.close();
    }
}
