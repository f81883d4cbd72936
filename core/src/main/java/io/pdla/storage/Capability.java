package io.pdla.storage;

/**
 * What a driver can do beyond reading, appending and sizing. The contract suite skips the checks a driver
 * declares it cannot pass, and the shim answers a request that needs a missing capability with
 * ERR_UNSUPPORTED_OPERATION instead of trying it.
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
    /** Striping information can be queried and set ({@link StorageDriver#layout}). */
    LAYOUT,
    /** Direct I/O that bypasses the page cache, selected by a hint. */
    DIRECT_IO
}
