package io.pdla.storage;

import java.net.URI;

/**
 * What a store says of one path without opening it: a file's size and modification time, or a directory,
 * and its {@link ChangeStamp}. Size, modification time and stamp together are what tell a replica's original
 * was changed behind the shim's back: drivers report the time at the finest resolution their store keeps
 * (nanoseconds on POSIX, milliseconds on HDFS), and the stamp changes even when size and time were put back.
 */
public record StorageStatus(URI uri, boolean directory, long size, long modifiedNanos, String changeStamp) {
    public StorageStatus {
        if (uri == null) throw new IllegalArgumentException("status without a URI");
        if (size < 0) throw new IllegalArgumentException(uri + ": negative size " + size);
        if (changeStamp == null) throw new IllegalArgumentException(uri + ": null change stamp (ChangeStamp.NONE when the store has none)");
    }

    /** A status from a store that offers no change stamp. */
    public StorageStatus(URI uri, boolean directory, long size, long modifiedNanos) {
        this(uri, directory, size, modifiedNanos, ChangeStamp.NONE);
    }

    /** The last segment of the path, as a listing shows it. */
    public String name() {
        String p = uri.getPath();
        if (p == null) return uri.toString();
        if (p.endsWith("/")) p = p.substring(0, p.length() - 1);
        return p.substring(p.lastIndexOf('/') + 1);
    }
}
