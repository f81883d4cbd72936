package io.pdla.bdb;

import com.sleepycat.bind.tuple.TupleInput;
import com.sleepycat.bind.tuple.TupleOutput;
import com.sleepycat.je.Cursor;
import com.sleepycat.je.CursorConfig;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Transaction;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A durable FIFO queue of byte values in a transactional JE database, in lanes: items are taken lane by lane
 * (lane 0 first), each lane in arrival order. Key: lane (1 byte), sequence (8 bytes big-endian), so JE's
 * default byte order is queue order. Sequence numbers come from a counter record in the store's {@code meta}
 * database, read-modify-written in the offering transaction: they are never reused (also after the queue ran
 * empty), and concurrent producers serialise on the counter until they commit. Every operation runs in the
 * caller's transaction, so a producer commits an item together with what it describes and a consumer removes
 * it together with the work it did (an abort leaves it queued).
 */
public final class DurableQueue {
    private static final byte[] COUNTER_KEY = SchemaVersion.tupleString("queue-next");
    private static final int KEY_BYTES = 9;

    private final Database items;
    private final Database meta;
    private final int lanes;

    /** An item: its lane, its sequence number, its value. */
    public record Item(int lane, long sequence, byte[] value) {
    }

    /**
     * @param items the queue's own database
     * @param meta  the store's meta database, which holds the sequence counter
     * @param lanes number of lanes, 1 to 255
     */
    public DurableQueue(Database items, Database meta, int lanes) {
        if (lanes < 1 || lanes > 255) throw new IllegalArgumentException("a queue has 1 to 255 lanes, got " + lanes);
        this.items = items;
        this.meta = meta;
        this.lanes = lanes;
    }

    /** Appends {@code value} to {@code lane}; returns its sequence number. */
    public long offer(Transaction txn, int lane, byte[] value) {
        checkLane(lane);
        DatabaseEntry counterKey = new DatabaseEntry(COUNTER_KEY), counter = new DatabaseEntry();
        long next;
        while (true) {
            if (meta.get(txn, counterKey, counter, LockMode.RMW) == OperationStatus.SUCCESS) {
                next = counter(counter.getData());
                meta.put(txn, counterKey, counterEntry(next + 1));
                break;
            }
            // No counter yet, and a missing key takes no lock: producers that all found it missing race here. Only
            // the one whose insert lands creates it; the others (their insert waits for its commit, then finds the
            // key) read the number from it. Overwriting instead let a producer whose scan ran late take a number
            // that a producer serialised on the counter had taken meanwhile (PatternDatabaseTest, CI).
            next = afterLastItem(txn);
            if (meta.putNoOverwrite(txn, counterKey, counterEntry(next + 1)) == OperationStatus.SUCCESS) break;
        }
        if (items.putNoOverwrite(txn, new DatabaseEntry(key(lane, next)), new DatabaseEntry(value)) != OperationStatus.SUCCESS) {
            throw new IllegalStateException(where() + ": sequence " + next + " already taken: the counter record 'queue-next' is behind"
                    + " the items (damaged?)");
        }
        return next;
    }

    private static DatabaseEntry counterEntry(long value) {
        TupleOutput out = new TupleOutput();
        out.writeLong(value);
        return new DatabaseEntry(out.toByteArray());
    }

    /** A queue written before it had a counter record continues after its highest sequence number. */
    private long afterLastItem(Transaction txn) {
        long max = -1;
        try (Cursor c = items.openCursor(txn, null)) {
            DatabaseEntry k = new DatabaseEntry(), v = new DatabaseEntry();
            v.setPartial(0, 0, true);
            for (int lane = 0; lane < lanes; lane++) {
                k.setData(key(lane + 1, 0));
                OperationStatus st = c.getSearchKeyRange(k, v, LockMode.RMW);
                st = st == OperationStatus.SUCCESS ? c.getPrev(k, v, LockMode.RMW) : c.getLast(k, v, LockMode.RMW);
                if (st != OperationStatus.SUCCESS) continue;
                ByteBuffer b = ByteBuffer.wrap(k.getData());
                if (b.get() == lane) max = Math.max(max, b.getLong());
            }
        }
        return max + 1;
    }

    /** Removes and returns the first item (lowest lane, oldest); empty when the queue is. */
    public Optional<Item> poll(Transaction txn) {
        try (Cursor c = items.openCursor(txn, null)) {
            DatabaseEntry k = new DatabaseEntry(), v = new DatabaseEntry();
            if (c.getFirst(k, v, LockMode.RMW) != OperationStatus.SUCCESS) return Optional.empty();
            c.delete();
            return Optional.of(item(k.getData(), v.getData()));
        }
    }

    /** Every item in queue order, nothing removed; {@code txn} null reads committed data. */
    public List<Item> items(Transaction txn) {
        List<Item> out = new ArrayList<>();
        try (Cursor c = items.openCursor(txn, txn == null ? CursorConfig.READ_COMMITTED : null)) {
            DatabaseEntry k = new DatabaseEntry(), v = new DatabaseEntry();
            while (c.getNext(k, v, LockMode.DEFAULT) == OperationStatus.SUCCESS) out.add(item(k.getData(), v.getData()));
        }
        return out;
    }

    /** Removes one item; false when it was not queued. */
    public boolean remove(Transaction txn, int lane, long sequence) {
        checkLane(lane);
        return items.delete(txn, new DatabaseEntry(key(lane, sequence))) == OperationStatus.SUCCESS;
    }

    /** Removes every item whose value matches; returns how many. */
    public int removeIf(Transaction txn, Predicate<byte[]> value) {
        int removed = 0;
        try (Cursor c = items.openCursor(txn, null)) {
            DatabaseEntry k = new DatabaseEntry(), v = new DatabaseEntry();
            while (c.getNext(k, v, LockMode.RMW) == OperationStatus.SUCCESS) {
                if (value.test(v.getData())) {
                    c.delete();
                    removed++;
                }
            }
        }
        return removed;
    }

    /** Number of queued items (committed). */
    public long size() {
        return items.count();
    }

    private void checkLane(int lane) {
        if (lane < 0 || lane >= lanes) throw new IllegalArgumentException("queue " + items.getDatabaseName() + " has lanes 0.." + (lanes - 1) + ", got " + lane);
    }

    private static byte[] key(int lane, long sequence) {
        return ByteBuffer.allocate(KEY_BYTES).put((byte) lane).putLong(sequence).array();
    }

    /** The stored counter; a damaged record is refused naming the store, never read as some other number. */
    private long counter(byte[] data) {
        long next = data.length == 8 ? new TupleInput(data).readLong() : -1;
        if (next < 0) {
            throw new IllegalStateException(where() + ": damaged sequence counter record 'queue-next' (" + data.length
                    + " bytes" + (data.length == 8 ? ", value " + next : ", not 8") + ")");
        }
        return next;
    }

    private String where() {
        return "queue " + items.getDatabaseName() + " in " + items.getEnvironment().getHome();
    }

    private Item item(byte[] key, byte[] value) {
        if (key.length != KEY_BYTES) {
            throw new IllegalStateException(where() + ": damaged item key of " + key.length + " bytes (not " + KEY_BYTES + ")");
        }
        ByteBuffer b = ByteBuffer.wrap(key);
        return new Item(Byte.toUnsignedInt(b.get()), b.getLong(), value);
    }
}
