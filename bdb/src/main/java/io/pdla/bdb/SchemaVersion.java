package io.pdla.bdb;

import com.sleepycat.bind.tuple.TupleInput;
import com.sleepycat.bind.tuple.TupleOutput;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Transaction;

import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * The schema-version record of a store: key {@code "schema-version"}, an int, both JE tuple encoded, in the
 * store's {@code meta} database. A store checks it when it opens, so code never reads a layout it does not know.
 *
 * @param store    what the store is called in messages ("pattern database", "replica catalog")
 * @param expected the version this code reads and writes
 */
public record SchemaVersion(String store, int expected) {
    private static final byte[] KEY = tupleString("schema-version");

    public SchemaVersion {
        if (expected < 1) throw new IllegalArgumentException(store + ": schema version must be >= 1, got " + expected);
    }

    /** The version recorded in {@code meta}, empty when there is no record. */
    public static OptionalInt read(Database meta, Transaction txn) {
        DatabaseEntry v = new DatabaseEntry();
        if (meta.get(txn, new DatabaseEntry(KEY), v, LockMode.DEFAULT) != OperationStatus.SUCCESS) return OptionalInt.empty();
        if (v.getSize() != 4) throw new IllegalArgumentException("schema-version record of " + v.getSize() + " bytes, not 4");
        return OptionalInt.of(new TupleInput(v.getData()).readInt());
    }

    /** Records {@code version} (a new store, a migration, a test). */
    public static void write(Database meta, Transaction txn, int version) {
        TupleOutput out = new TupleOutput();
        out.writeInt(version);
        meta.put(txn, new DatabaseEntry(KEY), new DatabaseEntry(out.toByteArray()));
    }

    /**
     * Checks the record in {@code meta}. A store without a record is stamped with {@link #expected} (unless
     * read-only) when it holds no data; with data but no record it is refused, as its layout is unknown.
     *
     * @throws SchemaMismatchException naming the directory and both versions (or the damaged record)
     */
    public void check(Database meta, Transaction txn, Path dir, boolean holdsData, boolean readOnly) {
        OptionalInt found;
        try {
            found = read(meta, txn);
        } catch (IllegalArgumentException e) {
            throw new SchemaMismatchException(this, dir, e.getMessage());
        }
        if (found.isPresent()) {
            if (found.getAsInt() != expected) throw new SchemaMismatchException(this, dir, found);
            return;
        }
        if (holdsData) throw new SchemaMismatchException(this, dir, found);
        if (!readOnly) write(meta, txn, expected);
    }

    static byte[] tupleString(String s) {
        TupleOutput out = new TupleOutput();
        out.writeString(s);
        return out.toByteArray();
    }
}
