package io.pdla.catalog;

import java.io.IOException;

/**
 * How a component reaches the catalog: by running work in one durable transaction. {@link Catalog} keeps
 * the environment open (daemon, tests, tools); {@link TransientCatalogAccess} opens it per transaction (or per
 * {@link #holdOpen hold} over a short run of them), so several processes (the daemon and every application) can take
 * turns on the same Berkeley DB environment, which JE lets only one process open for writing at a time.
 */
public interface CatalogAccess {
    <T> T transact(Work<T> work) throws IOException;

    /** Where the environment lives, for messages. */
    String location();

    /** The environment's directory (beside it: {@link ReplicatedOriginals}). */
    java.nio.file.Path directory();

    /**
     * Keeps the catalog open, from the next transaction on, until the returned hold is closed, so that a short series of
     * transactions (of this access and of any other of the same directory in this class loader) does not open the
     * environment once each. While a hold lasts no other process can open the catalog for writing: hold it over
     * bookkeeping only, never over a copy, a digest of a replica or a wait. Holds nest; each must be closed (a second
     * close does nothing). An access whose catalog stays open anyway (a {@link Catalog}) has nothing to hold.
     */
    default Hold holdOpen() {
        return Hold.NONE;
    }

    /** What {@link #holdOpen} returns: closing it ends this hold (the catalog closes when the last one ends). */
    interface Hold extends AutoCloseable {
        Hold NONE = () -> { };

        @Override
        void close();
    }

    @FunctionalInterface
    interface Work<T> {
        T run(CatalogTxn txn) throws IOException;
    }
}
