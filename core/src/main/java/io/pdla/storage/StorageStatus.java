package io.pdla.storage;

import java.net.URI;

/**
 * What a store says of one path without opening it: a file's size and modification time, or a directory.
 * The modification time is what tells a replica's original was changed behind the shim's back, so drivers
 * report it at the finest resolution their store keeps (nanoseconds on POSIX, milliseconds on HDFS).
 */
public record StorageStatus(URI uri, boolean directory, long size, long modifiedNanos) {
    public StorageStatus {
        if (uri == null) throw new IllegalArgumentException("status without a URI");
        if (size < 0) throw new IllegalArgumentException(uri + ": negative size " + size);
    }

    /** The last segment of the path, as a listing shows it. */
    public String name() {
        String p = uri.getPath();
        if (p == null) return uri.toString();
        if (p.endsWith("/")) p = p.substring(0, p.length() - 1);
        return p.substring(p.lastIndexOf('/') + 1);
    }
}
