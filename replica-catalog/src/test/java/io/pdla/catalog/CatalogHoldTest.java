package io.pdla.catalog;

import io.pdla.bdb.JeEnvironments;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link CatalogAccess#holdOpen} of {@link TransientCatalogAccess}: a real JE environment, opened once per hold. */
class CatalogHoldTest {
    private static final int TRANSACTIONS = 20;

    @TempDir
    Path tmp;

    private Path created() {
        Path db = tmp.resolve("catalog");
        Catalog.open(db).close();
        return db;
    }

    private static void readQueue(CatalogAccess a) throws IOException {
        a.transact(CatalogTxn::queueItems);
    }

    @Test
    void transactionsOfAnyAccessOfTheDirectoryInsideAHoldOpenNoEnvironment() throws IOException {
        Path db = created();
        TransientCatalogAccess holder = new TransientCatalogAccess(db, 1000);
        TransientCatalogAccess other = new TransientCatalogAccess(db, 1000);

        long before = JeEnvironments.opened();
        long t0 = System.nanoTime();
        for (int i = 0; i < TRANSACTIONS; i++) readQueue(other);
        long unheldNanos = System.nanoTime() - t0;
        assertEquals(TRANSACTIONS, JeEnvironments.opened() - before, "without a hold, every transaction opens the environment");

        before = JeEnvironments.opened();
        long heldNanos;
        try (CatalogAccess.Hold h = holder.holdOpen()) {
            t0 = System.nanoTime();
            for (int i = 0; i < TRANSACTIONS; i++) {
                readQueue(other);
                holder.transact(t -> t.enqueue(new byte[]{1}, false));
            }
            heldNanos = System.nanoTime() - t0;
        }
        assertEquals(1, JeEnvironments.opened() - before, "the hold's own open, and none for the transactions inside it");
        System.out.printf("CatalogHoldTest: %d read transactions %.2f ms each unheld; inside a hold %.2f ms per read + write%n",
                TRANSACTIONS, unheldNanos / 1e6 / TRANSACTIONS, heldNanos / 1e6 / TRANSACTIONS);
        assertEquals(TRANSACTIONS, other.transact(CatalogTxn::queueItems).size(), "the writes inside the hold were committed");
    }

    @Test
    void aHoldOpensTheCatalogAtItsFirstTransactionNotBefore() throws Exception {
        Path db = created();
        TransientCatalogAccess a = new TransientCatalogAccess(db, 1000);
        long before = JeEnvironments.opened();
        try (CatalogAccess.Hold h = a.holdOpen()) {
            assertEquals(0, JeEnvironments.opened() - before);
            assertEquals("OPENED", CatalogInAnotherProcess.tryOpen(db), "no transaction yet: other processes may still use the catalog");
            readQueue(a);
            assertEquals(1, JeEnvironments.opened() - before);
            assertEquals("LOCKED", CatalogInAnotherProcess.tryOpen(db), "open from the first transaction to the hold's end");
        }
        assertEquals("OPENED", CatalogInAnotherProcess.tryOpen(db));
    }

    @Test
    void aNestedHoldDoesNotCloseTheOuterOne() throws Exception {
        Path db = created();
        TransientCatalogAccess a = new TransientCatalogAccess(db, 1000);
        TransientCatalogAccess b = new TransientCatalogAccess(db, 1000);
        try (CatalogAccess.Hold outer = a.holdOpen()) {
            readQueue(a);
            long before = JeEnvironments.opened();
            CatalogAccess.Hold inner = b.holdOpen();
            inner.close();
            inner.close();   // a second close is nothing, not the outer hold's end
            assertTrue(TransientCatalogAccess.held(db));
            readQueue(a);
            assertEquals(0, JeEnvironments.opened() - before, "the nested hold and the transaction after it used the outer hold's catalog");
            assertEquals("LOCKED", CatalogInAnotherProcess.tryOpen(db), "held: another process cannot open it");
        }
        assertFalse(TransientCatalogAccess.held(db));
        assertEquals("OPENED", CatalogInAnotherProcess.tryOpen(db), "the last hold closed: the environment is closed in this process");
    }

    @Test
    void aFailureInsideAHoldStillClosesItAndAFailedTransactionDoesNotEndIt() throws IOException {
        Path db = created();
        TransientCatalogAccess a = new TransientCatalogAccess(db, 1000);
        assertThrows(IllegalStateException.class, () -> {
            try (CatalogAccess.Hold h = a.holdOpen()) {
                assertThrows(IOException.class, () -> a.transact(t -> {
                    throw new IOException("work failed");
                }));
                assertTrue(TransientCatalogAccess.held(db), "a failed transaction leaves the hold as it was");
                long before = JeEnvironments.opened();
                readQueue(a);
                assertEquals(0, JeEnvironments.opened() - before);
                throw new IllegalStateException("the caller failed");
            }
        });
        assertFalse(TransientCatalogAccess.held(db));
        long before = JeEnvironments.opened();
        readQueue(a);
        assertEquals(1, JeEnvironments.opened() - before, "after the hold, transactions open the environment again");
    }

    @Test
    void holdsAndTransactionsOfManyThreadsLeaveTheCatalogClosed() throws Exception {
        Path db = created();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int n = 0; n < 4; n++) {
                int thread = n;
                fs.add(pool.submit(() -> {
                    TransientCatalogAccess a = new TransientCatalogAccess(db, 10_000);
                    for (int i = 0; i < 25; i++) {
                        if ((i + thread) % 3 == 0) {
                            try (CatalogAccess.Hold h = a.holdOpen()) {
                                a.transact(t -> t.enqueue(new byte[]{2}, false));
                                readQueue(a);
                            }
                        } else {
                            a.transact(t -> t.enqueue(new byte[]{3}, true));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) f.get(120, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertFalse(TransientCatalogAccess.held(db));
        assertEquals(100, new TransientCatalogAccess(db, 1000).transact(CatalogTxn::queueItems).size());
        assertEquals("OPENED", CatalogInAnotherProcess.tryOpen(db), "no hold or handle left open in this process");
    }

    @Test
    void aKeptOpenCatalogHasNothingToHold() {
        Path db = created();
        try (Catalog c = Catalog.open(db)) {
            assertEquals(CatalogAccess.Hold.NONE, c.holdOpen());
        }
    }
}
