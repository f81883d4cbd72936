package io.pdla.bdb;

import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.Environment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SchemaVersionTest {
    @TempDir
    Path dir;

    private static final SchemaVersion V4 = new SchemaVersion("test store", 4);

    private <T> T withMeta(java.util.function.BiFunction<Environment, Database, T> work) {
        try (Environment env = JeEnvironments.open(dir, EnvironmentSettings.readWrite());
             Database meta = env.openDatabase(null, "meta", JeEnvironments.databaseConfig(EnvironmentSettings.readWrite()))) {
            return work.apply(env, meta);
        }
    }

    @Test
    void aFreshStoreIsStampedAndThenAccepted() {
        withMeta((env, meta) -> JeTransactions.run(env, 1, txn -> {
            V4.check(meta, txn, dir, false, false);
            return null;
        }));
        assertEquals(OptionalInt.of(4), withMeta((env, meta) -> SchemaVersion.read(meta, null)));
        withMeta((env, meta) -> JeTransactions.run(env, 1, txn -> {
            V4.check(meta, txn, dir, true, false);
            return null;
        }));
    }

    @Test
    void aMismatchNamesTheStoreTheDirectoryAndBothVersions() {
        int other = 5 + new java.util.Random().nextInt(90);
        withMeta((env, meta) -> JeTransactions.run(env, 1, txn -> {
            SchemaVersion.write(meta, txn, other);
            return null;
        }));
        SchemaMismatchException e = assertThrows(SchemaMismatchException.class, () -> withMeta((env, meta) -> JeTransactions.run(env, 1, txn -> {
            V4.check(meta, txn, dir, true, false);
            return null;
        })));
        assertEquals("test store at " + dir + " has schema version " + other + ", this pdla expects version 4", e.getMessage());
        assertEquals(OptionalInt.of(other), e.found());
        assertEquals(dir, e.directory());
    }

    @Test
    void dataWithoutARecordIsRefusedAndNotStamped() {
        SchemaMismatchException e = assertThrows(SchemaMismatchException.class, () -> withMeta((env, meta) -> JeTransactions.run(env, 1, txn -> {
            meta.put(txn, new DatabaseEntry(new byte[]{1}), new DatabaseEntry(new byte[]{2}));
            V4.check(meta, txn, dir, true, false);
            return null;
        })));
        assertTrue(e.getMessage().contains(dir.toString()) && e.getMessage().contains("no schema version record")
                && e.getMessage().contains("expects version 4"), e.getMessage());
        assertEquals(OptionalInt.empty(), withMeta((env, meta) -> SchemaVersion.read(meta, null)), "the failed check's transaction was aborted");
    }
}
