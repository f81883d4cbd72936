package io.pdla.replicator.catalog;

import io.pdla.replicator.pattern.PatternCodec;

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
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** The operations of one catalog transaction. Reads that precede an update take write locks (RMW). */
public final class CatalogTxn {
    private final Catalog catalog;
    private final Transaction txn;

    CatalogTxn(Catalog catalog, Transaction txn) {
        this.catalog = catalog;
        this.txn = txn;
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
        catalog.replicas.put(txn, new DatabaseEntry(PatternCodec.keyBytes(e.key())), new DatabaseEntry(e.toBytes()));
    }

    public boolean delete(PatternKey key) {
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
        catalog.replicas.delete(txn, new DatabaseEntry(key));
    }

    // ---- files ----

    public FileRecord file(URI original) {
        DatabaseEntry v = new DatabaseEntry();
        if (catalog.files.get(txn, new DatabaseEntry(PatternCodec.filePrefix(original)), v, LockMode.RMW) != OperationStatus.SUCCESS) {
            return FileRecord.NEW;
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(v.getData()))) {
            long gen = in.readLong();
            int writers = in.readInt();
            // rows written before change stamps end after the time: they vouch for nothing
            FileIdentity id = null;
            if (in.readBoolean()) id = in.available() > 16 ? FileIdentity.readFrom(in) : FileIdentity.readWithoutStamp(in);
            return new FileRecord(gen, writers, id);
        } catch (IOException e) {
            throw new CatalogException("corrupt file record for " + original + " in replica catalog " + catalog.location(), e);
        }
    }

    public void putFile(URI original, FileRecord r) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeLong(r.generation());
            out.writeInt(r.writers());
            out.writeBoolean(r.identityBeforeWriters() != null);
            if (r.identityBeforeWriters() != null) {
                r.identityBeforeWriters().writeTo(out);
            }
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

    /** Appends an encoded pattern; globals (class 0) sort before locals (class 1). Returns its ticket. */
    public long enqueue(byte[] pattern, boolean global) {
        long seq = Math.max(lastSequence(0), lastSequence(1)) + 1;
        catalog.queue.put(txn, new DatabaseEntry(queueKey(global, seq)), new DatabaseEntry(pattern));
        return global ? seq : seq | Long.MIN_VALUE;
    }

    /** The highest sequence number of one class, 0 if it is empty. */
    private long lastSequence(int cls) {
        try (Cursor c = catalog.queue.openCursor(txn, null)) {
            DatabaseEntry k = new DatabaseEntry(ByteBuffer.allocate(9).put((byte) (cls + 1)).putLong(0).array());
            DatabaseEntry v = new DatabaseEntry();
            v.setPartial(0, 0, true);
            OperationStatus st = c.getSearchKeyRange(k, v, LockMode.RMW);
            st = st == OperationStatus.SUCCESS ? c.getPrev(k, v, LockMode.RMW) : c.getLast(k, v, LockMode.RMW);
            if (st != OperationStatus.SUCCESS) return 0;
            ByteBuffer b = ByteBuffer.wrap(k.getData());
            return b.get() == cls ? b.getLong() : 0;
        }
    }

    /** Queue items in order (globals first, then locals, each by arrival): ticket and encoded pattern. */
    public List<QueueItem> queueItems() {
        List<QueueItem> out = new ArrayList<>();
        scan(catalog.queue, new byte[0], (k, v) -> {
            ByteBuffer b = ByteBuffer.wrap(k);
            boolean local = b.get() == 1;
            long seq = b.getLong();
            out.add(new QueueItem(local ? seq | Long.MIN_VALUE : seq, v));
        });
        return out;
    }

    public boolean dequeue(long ticket) {
        boolean local = ticket < 0;
        return catalog.queue.delete(txn, new DatabaseEntry(queueKey(!local, ticket & Long.MAX_VALUE))) == OperationStatus.SUCCESS;
    }

    /** A queued pattern: the ticket's sign bit marks a local pattern. */
    public record QueueItem(long ticket, byte[] pattern) {
    }

    private static byte[] queueKey(boolean global, long seq) {
        return ByteBuffer.allocate(9).put((byte) (global ? 0 : 1)).putLong(seq).array();
    }

    // ---- journal of files to clean up ----

    public void journal(String buildId, List<URI> files) {
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
