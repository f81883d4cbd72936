package io.pdla.replicator.catalog;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.TimeUnit;

/**
 * What we know of an original's content without reading it: its size and, for {@code file:} URIs, its
 * modification time in nanoseconds ({@link #UNKNOWN_MTIME} for drivers that have none: the storage SPI has
 * no mtime, so for them size plus the shim's generation counter is all there is).
 */
public record FileIdentity(long size, long modifiedNanos) {
    public static final long UNKNOWN_MTIME = -1;

    public static FileIdentity probe(StorageDriver driver, URI uri) throws IOException {
        if ("file".equals(uri.getScheme())) {
            BasicFileAttributes a = Files.readAttributes(Path.of(uri), BasicFileAttributes.class);
            return new FileIdentity(a.size(), a.lastModifiedTime().to(TimeUnit.NANOSECONDS));
        }
        try (StorageFile f = driver.open(uri, OpenOptions.readOnly())) {
            return new FileIdentity(f.size(), UNKNOWN_MTIME);
        }
    }

    @Override
    public String toString() {
        return "size " + size + (modifiedNanos == UNKNOWN_MTIME ? "" : ", mtime " + modifiedNanos + " ns");
    }
}
