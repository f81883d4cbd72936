package io.pdla.replicator.daemon;

import io.pdla.catalog.CatalogAccess;

/**
 * The catalog held open ({@link CatalogAccess#holdOpen}) over a stretch of the daemon's short transactions, and let go
 * before any long work. Opened per transaction, the catalog cost the daemon an environment open (30-160 ms beside a
 * running job) for each of a pass's transactions; held over all of them, one. But while it is held no job's rank can
 * reach the catalog, so it is let go before a copy, a write-back, a digest of a replica or a delete: those take seconds,
 * and the job's ranks look files up meanwhile. Taking it costs nothing until a transaction opens the catalog.
 */
final class BookkeepingHold implements AutoCloseable {
    private final CatalogAccess catalog;
    private CatalogAccess.Hold hold;

    BookkeepingHold(CatalogAccess catalog) {
        this.catalog = catalog;
    }

    /** Holds the catalog from the next transaction on, unless held already. */
    void take() {
        if (hold == null) hold = catalog.holdOpen();
    }

    /** Lets the catalog go (closed unless someone else holds it), before long work; {@link #take} holds it again. */
    void release() {
        if (hold == null) return;
        CatalogAccess.Hold h = hold;
        hold = null;
        h.close();
    }

    @Override
    public void close() {
        release();
    }
}
