package io.pdla.catalog;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;

import java.util.ArrayList;
import java.util.List;

/**
 * Raw rows of an open catalog's JE databases, for tests that damage records the way a bad disk or an older
 * pdla would (issue 18's fuzzing): read every (key, value) of a database, put raw bytes back. Shared with
 * redirect's tests through the test-jar.
 */
public final class CatalogRows {
    private CatalogRows() {
    }

    /** One stored row. */
    public record Row(byte[] key, byte[] value) {
    }

    /** The catalog's databases: meta, replicas, files, writers, queue, journal. */
    public static Database database(Catalog c, String name) {
        return switch (name) {
            case "meta" -> c.meta;
            case "replicas" -> c.replicas;
            case "files" -> c.files;
            case "writers" -> c.writers;
            case "queue" -> c.queueDb;
            case "journal" -> c.journal;
            default -> throw new IllegalArgumentException("no catalog database " + name);
        };
    }

    public static List<Row> rows(Catalog c, String name) {
        List<Row> out = new ArrayList<>();
        try (Cursor cur = database(c, name).openCursor(null, null)) {
            DatabaseEntry k = new DatabaseEntry(), v = new DatabaseEntry();
            while (cur.getNext(k, v, LockMode.DEFAULT) == OperationStatus.SUCCESS) out.add(new Row(k.getData(), v.getData()));
        }
        return out;
    }

    /** Writes the row as given (auto-commit). */
    public static void put(Catalog c, String name, byte[] key, byte[] value) {
        database(c, name).put(null, new DatabaseEntry(key), new DatabaseEntry(value));
    }
}
