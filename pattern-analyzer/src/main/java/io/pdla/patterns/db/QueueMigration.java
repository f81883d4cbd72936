package io.pdla.patterns.db;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Transaction;
import io.pdla.bdb.DurableQueue;
import io.pdla.bdb.SchemaVersion;

import java.util.ArrayList;
import java.util.List;

/**
 * Version 2 keyed the replication queue by a tuple-encoded sequence; version 3 uses pdla-bdb's queue keys. A
 * version-2 database opened for writing is rewritten in place, in the opening transaction: its items are taken
 * out in their (sequence) order and offered again, so they keep their order and get fresh numbers.
 */
final class QueueMigration {
    private QueueMigration() {
    }

    static void fromVersion2(Database meta, Database queueDb, DurableQueue queue, Transaction txn) {
        if (SchemaVersion.read(meta, txn).orElse(0) != 2) return;
        List<byte[]> items = new ArrayList<>();
        try (Cursor c = queueDb.openCursor(txn, null)) {
            DatabaseEntry k = new DatabaseEntry(), v = new DatabaseEntry();
            while (c.getNext(k, v, LockMode.RMW) == OperationStatus.SUCCESS) {
                items.add(v.getData());
                c.delete();
            }
        }
        for (byte[] key : items) queue.offer(txn, 0, key);
        SchemaVersion.write(meta, txn, 3);
    }
}
