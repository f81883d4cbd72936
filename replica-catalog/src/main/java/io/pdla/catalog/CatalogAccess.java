package io.pdla.catalog;

import java.io.IOException;

/**
 * How a component reaches the catalog: by running work in one durable transaction. {@link Catalog} keeps
 * the environment open (daemon, tests, tools); {@link TransientCatalogAccess} opens it per transaction, so
 * several processes (the daemon and every application) can take turns on the same Berkeley DB environment,
 * which JE lets only one process open for writing at a time.
 */
public interface CatalogAccess {
    <T> T transact(Work<T> work) throws IOException;

    /** Where the environment lives, for messages. */
    String location();

    /** The environment's directory (beside it: {@link ReplicatedOriginals}). */
    java.nio.file.Path directory();

    @FunctionalInterface
    interface Work<T> {
        T run(CatalogTxn txn) throws IOException;
    }
}
