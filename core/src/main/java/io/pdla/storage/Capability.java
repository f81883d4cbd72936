package io.pdla.storage;

/**
 * What a driver can do beyond reading, appending and sizing. A driver that lacks a capability refuses the
 * requests that need it with {@link StorageException.Reason#UNSUPPORTED} and leaves the file unchanged
 * (the contract suite checks both). The shim does not consult capabilities before calling a driver: it
 * passes the request on and maps the {@code UNSUPPORTED} refusal to ERR_UNSUPPORTED_OPERATION. Code that
 * picks a strategy (the replicator choosing to set a layout, data sieving choosing to lock, redirect
 * choosing to write through a replica) asks {@link StorageDriver#has} first.
 */
public enum Capability {
    /** Writes at any offset, over existing data or past the end (leaving a hole of zeros). */
    RANDOM_WRITE,
    /** Shrinking or growing a file in place. */
    TRUNCATE,
    /** Several writers may hold the same file open for writing at once (N-1 shared-file writes). */
    CONCURRENT_WRITERS,
    /** Atomic rename within the same file system (used to publish replicas). */
    RENAME,
    /** Layouts can be set ({@link StorageDriver#setLayout}); every driver reports one ({@link StorageDriver#layout}). */
    LAYOUT,
    /** Direct I/O that bypasses the page cache, selected by a driver-prefixed hint (no generic request asks for it). */
    DIRECT_IO,
    /**
     * Written bytes wait in the host's memory (the page cache) until a sync or the kernel writes them back, so a sync
     * made while a long write goes on starts writing back what is done without slowing the writes that follow (the
     * replicator's write-behind). A property, not a request: nothing is refused for the lack of it.
     */
    BUFFERED_WRITES,
    /**
     * Exclusive byte-range locks across handles, threads and processes ({@link StorageFile#lock}), what
     * data sieving's read-modify-write needs.
     */
    BYTE_RANGE_LOCK
}
