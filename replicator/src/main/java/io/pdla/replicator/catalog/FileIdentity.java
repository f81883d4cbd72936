package io.pdla.replicator.catalog;

import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageStatus;

import java.io.IOException;
import java.net.URI;

/**
 * What we know of an original's content without reading it: its size and modification time as its store
 * reports them ({@link StorageDriver#stat}). Catalog rows written before every driver reported a time carry
 * {@link #UNKNOWN_MTIME}; they never equal a fresh probe, so such replicas are rebuilt rather than trusted.
 */
public record FileIdentity(long size, long modifiedNanos) {
    public static final long UNKNOWN_MTIME = -1;

    public static FileIdentity probe(StorageDriver driver, URI uri) throws IOException {
        StorageStatus s = driver.stat(uri);
        if (s.directory()) throw new StorageException(StorageException.Reason.BAD_ARGUMENT, uri + ": is a directory, not a file");
        return new FileIdentity(s.size(), s.modifiedNanos());
    }

    @Override
    public String toString() {
        return "size " + size + (modifiedNanos == UNKNOWN_MTIME ? "" : ", mtime " + modifiedNanos + " ns");
    }
}

