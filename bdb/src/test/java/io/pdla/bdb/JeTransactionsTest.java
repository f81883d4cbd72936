package io.pdla.bdb;

import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.Environment;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JeTransactionsTest {
    @TempDir
    Path dir;

    /**
     * A thread told to stop (a replica build cancelled, a daemon shutting down) still records that it stopped: the
     * transaction commits durably, the environment stays usable, and the thread is still interrupted afterwards.
     */
    @Test
    void anInterruptedThreadsTransactionCommitsAndTheInterruptIsKept() {
        DatabaseConfig config = new DatabaseConfig().setAllowCreate(true).setTransactional(true);
        try (Environment env = JeEnvironments.open(dir, EnvironmentSettings.readWrite());
             Database db = env.openDatabase(null, "rows", config)) {
            for (int i = 0; i < 20; i++) {
                int n = i;
                Thread.currentThread().interrupt();
                try {
                    // the commit writes the log: with the interrupt set, its channel would close
                    JeTransactions.run(env, 1, txn -> db.put(txn, entry("key" + n), entry("value" + n)));
                } finally {
                    assertTrue(Thread.interrupted(), "the thread is still interrupted after transaction " + n);
                }
            }
            assertTrue(env.isValid(), "the environment is still valid");
            DatabaseEntry got = new DatabaseEntry();
            for (int i = 0; i < 20; i++) {
                assertEquals(OperationStatus.SUCCESS, db.get(null, entry("key" + i), got, LockMode.DEFAULT));
                assertEquals("value" + i, new String(got.getData(), StandardCharsets.UTF_8));
            }
        }
    }

    private static DatabaseEntry entry(String s) {
        return new DatabaseEntry(s.getBytes(StandardCharsets.UTF_8));
    }
}
