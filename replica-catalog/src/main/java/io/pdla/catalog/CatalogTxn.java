package io.pdla.catalog;

import io.pdla.catalog.pattern.PatternCodec;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Transaction;
import io.pdla.pattern.PatternKey;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The operations of one catalog transaction. Reads that precede an update take write locks (RMW). Every method that
 * writes first calls {@link #writing}, which is how {@link Catalog#transact} knows to change the catalog's stamp
 * (a new writing method must call it too: {@code CatalogStampTest} exercises each).
 */
public final class CatalogTxn {
    private final Catalog catalog;
    private final Transaction txn;
    private boolean wrote;

    CatalogTxn(Catalog catalog, Transaction txn) {
        this.catalog = catalog;
        this.txn = txn;
    }

    /** Whether this transaction wrote (or tried to write) anything. */
    boolean wrote() {
        return wrote;
    }

    private void writing() {
        wrote = true;
    }

    /**
     * The catalog's change stamp read now, inside this transaction, when the catalog's version promises that every
     * writer changes it ({@link Catalog#SCHEMA_VERSION}); empty otherwise (no file, another version, unreadable). Read
     * first in a transaction, it is never newer than the rows read after it ({@link Catalog#transact}).
     */
    public Optional<String> changeStamp() {
        try {
            java.util.OptionalInt v = io.pdla.bdb.SchemaVersion.read(catalog.meta, txn);
            if (v.isEmpty() || v.getAsInt() != Catalog.SCHEMA_VERSION) return Optional.empty();
            return Catalog.readStamp(catalog.dir());
        } catch (IOException | IllegalArgumentException e) {   // not JE's exceptions: they end the transaction, and the caller must see them
            return Optional.empty();
        }
    }

    // ---- replicas ----

    public Optional<ReplicaEntry> entry(PatternKey key) {
        DatabaseEntry v = new DatabaseEntry();
        if (catalog.replicas.get(txn, new DatabaseEntry(PatternCodec.keyBytes(key)), v, LockMode.RMW) != OperationStatus.SUCCESS) {
            return Optional.empty();
        }
        return Optional.of(ReplicaEntry.fromBytes(v.getData()));
    }

    public void put(ReplicaEntry e) {
        writing();
        catalog.replicas.put(txn, new DatabaseEntry(PatternCodec.keyBytes(e.key())), new DatabaseEntry(e.toBytes()));
    }

    public boolean delete(PatternKey key) {
        writing();
        return catalog.replicas.delete(txn, new DatabaseEntry(PatternCodec.keyBytes(key))) == OperationStatus.SUCCESS;
    }

    /** Entries of one original (any application, rank); undecodable ones go to {@code corrupt}. */
    public List<ReplicaEntry> entriesOf(URI original, Consumer<String> corrupt) {
        List<ReplicaEntry> out = new ArrayList<>();
        scan(catalog.replicas, PatternCodec.filePrefix(original), (k, v) -> {
            try {
                out.add(ReplicaEntry.fromBytes(v));
            } catch (IllegalArgumentException e) {
                corrupt.accept(e.getMessage());
            }
        });
        return out;
    }

    /** Every entry; undecodable rows are passed to {@code corrupt} with their raw key. */
    public void forEachEntry(Consumer<ReplicaEntry> each, Consumer<byte[]> corrupt) {
        scan(catalog.replicas, new byte[0], (k, v) -> {
            try {
                each.accept(ReplicaEntry.fromBytes(v));
            } catch (IllegalArgumentException e) {
                corrupt.accept(k);
            }
        });
    }

    public void deleteRaw(byte[] key) {
        writing();
        catalog.replicas.delete(txn, new DatabaseEntry(key));
    }

    // ---- files ----

    public FileRecord file(URI original) {
        DatabaseEntry v = new DatabaseEntry();
        if (catalog.files.get(txn, new DatabaseEntry(PatternCodec.filePrefix(original)), v, LockMode.RMW) != OperationStatus.SUCCESS) {
            return FileRecord.NEW;
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(v.getData()))) {
            return FileRecord.readFrom(in);
        } catch (IOException e) {
            throw new CatalogException("corrupt file record for " + original + " in replica catalog " + catalog.location(), e);
        }
    }

    public void putFile(URI original, FileRecord r) {
        writing();
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            r.writeTo(new DataOutputStream(bytes));
            catalog.files.put(txn, new DatabaseEntry(PatternCodec.filePrefix(original)), new DatabaseEntry(bytes.toByteArray()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Originals that have a file record (for the scanner). */
    public List<URI> recordedFiles() {
        List<URI> out = new ArrayList<>();
        scan(catalog.files, new byte[0], (k, v) -> out.add(uriOf(k)));
        return out;
    }

    // ---- writer sessions ----

    public void addWriter(URI original, WriterSession s) {
        writing();
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeLong(s.pid());
            out.writeUTF(s.host());
            out.writeLong(s.startedMillis());
            catalog.writers.put(txn, new DatabaseEntry(writerKey(original, s.sessionId())), new DatabaseEntry(bytes.toByteArray()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public boolean removeWriter(URI original, String sessionId) {
        writing();
        return catalog.writers.delete(txn, new DatabaseEntry(writerKey(original, sessionId))) == OperationStatus.SUCCESS;
    }

    public List<WriterSession> writers(URI original) {
        List<WriterSession> out = new ArrayList<>();
        byte[] prefix = PatternCodec.filePrefix(original);
        scan(catalog.writers, prefix, (k, v) -> {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(v))) {
                String id = new DataInputStream(new ByteArrayInputStream(k, prefix.length, k.length - prefix.length)).readUTF();
                out.add(new WriterSession(id, in.readLong(), in.readUTF(), in.readLong()));
            } catch (IOException e) {
                throw new CatalogException("corrupt writer session record in replica catalog " + catalog.location(), e);
            }
        });
        return out;
    }

    private static byte[] writerKey(URI original, String sessionId) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            bytes.write(PatternCodec.filePrefix(original));
            new DataOutputStream(bytes).writeUTF(sessionId);
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- queue ----

    private static final int GLOBAL_LANE = 0, LOCAL_LANE = 1;

    /** Appends an encoded pattern; globals (lane 0) are taken before locals (lane 1). Returns its ticket. */
    public long enqueue(byte[] pattern, boolean global) {
        writing();
        long seq = catalog.queue.offer(txn, global ? GLOBAL_LANE : LOCAL_LANE, pattern);
        return global ? seq : seq | Long.MIN_VALUE;
    }

    /** Queue items in order (globals first, then locals, each by arrival): ticket and encoded pattern. */
    public List<QueueItem> queueItems() {
        return catalog.queue.items(txn).stream()
                .map(i -> new QueueItem(i.lane() == LOCAL_LANE ? i.sequence() | Long.MIN_VALUE : i.sequence(), i.value()))
                .toList();
    }

    public boolean dequeue(long ticket) {
        writing();
        return catalog.queue.remove(txn, ticket < 0 ? LOCAL_LANE : GLOBAL_LANE, ticket & Long.MAX_VALUE);
    }

    /** A queued pattern: the ticket's sign bit marks a local pattern. */
    public record QueueItem(long ticket, byte[] pattern) {
    }

    // ---- journal of files to clean up ----

    public void journal(String buildId, List<URI> files) {
        writing();
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(files.size());
            for (URI u : files) out.writeUTF(u.toString());
            catalog.journal.put(txn, new DatabaseEntry(buildId.getBytes(java.nio.charset.StandardCharsets.UTF_8)), new DatabaseEntry(bytes.toByteArray()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void unjournal(String buildId) {
        writing();
        catalog.journal.delete(txn, new DatabaseEntry(buildId.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    public java.util.Map<String, List<URI>> journalRows() {
        java.util.Map<String, List<URI>> out = new java.util.TreeMap<>();
        scan(catalog.journal, new byte[0], (k, v) -> {
            List<URI> files = new ArrayList<>();
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(v))) {
                int n = in.readInt();
                for (int i = 0; i < n; i++) files.add(URI.create(in.readUTF()));
            } catch (IOException e) {
                throw new CatalogException("corrupt journal row in replica catalog " + catalog.location(), e);
            }
            out.put(new String(k, java.nio.charset.StandardCharsets.UTF_8), files);
        });
        return out;
    }

    // ---- helpers ----

    private interface RowSink {
        void accept(byte[] key, byte[] value);
    }

    private void scan(Database db, byte[] prefix, RowSink sink) {
        try (Cursor c = db.openCursor(txn, null)) {
            DatabaseEntry k = new DatabaseEntry(prefix);
            DatabaseEntry v = new DatabaseEntry();
            OperationStatus st = prefix.length == 0 ? c.getFirst(k, v, LockMode.DEFAULT) : c.getSearchKeyRange(k, v, LockMode.DEFAULT);
            while (st == OperationStatus.SUCCESS) {
                byte[] key = k.getData();
                if (key.length < prefix.length || !Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length)) break;
                sink.accept(key, v.getData());
                st = c.getNext(k, v, LockMode.DEFAULT);
            }
        }
    }

    private static URI uriOf(byte[] prefixKey) {
        try {
            return URI.create(new DataInputStream(new ByteArrayInputStream(prefixKey)).readUTF());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
