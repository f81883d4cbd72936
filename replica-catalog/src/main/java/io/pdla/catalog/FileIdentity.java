package io.pdla.catalog;

import io.pdla.storage.ChangeStamp;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageStatus;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.net.URI;

/**
 * What we know of an original's content without reading it: its size, modification time and change stamp
 * as its store reports them ({@link StorageDriver#stat}). Size and time alone can be put back (a restore
 * with {@code cp -p}); the stamp cannot (a local file's inode and ctime, HDFS's inode id). Identities without
 * a stamp — catalog rows written before stamps, or stores that offer none — are never {@link #vouches trusted},
 * so such replicas are rebuilt rather than served.
 */
public record FileIdentity(long size, long modifiedNanos, String changeStamp) {
    public static final long UNKNOWN_MTIME = -1;

    public FileIdentity {
        if (changeStamp == null) throw new IllegalArgumentException("file identity without a change stamp (ChangeStamp.NONE when unknown)");
    }

    public static FileIdentity probe(StorageDriver driver, URI uri) throws IOException {
        StorageStatus s = driver.stat(uri);
        if (s.directory()) throw new StorageException(StorageException.Reason.BAD_ARGUMENT, uri + ": is a directory, not a file");
        return new FileIdentity(s.size(), s.modifiedNanos(), s.changeStamp());
    }

    /** True when this identity (taken at build time) proves the original still holds the same bytes as {@code now}. */
    public boolean vouches(FileIdentity now) {
        return !changeStamp.equals(ChangeStamp.NONE) && modifiedNanos != UNKNOWN_MTIME && equals(now);
    }

    void writeTo(DataOutput out) throws IOException {
        out.writeLong(size);
        out.writeLong(modifiedNanos);
        out.writeUTF(changeStamp);
    }

    static FileIdentity readFrom(DataInput in) throws IOException {
        return new FileIdentity(in.readLong(), in.readLong(), in.readUTF());
    }

    /** The same identity with nothing to vouch for: read from a row that nothing proves undamaged. */
    FileIdentity unvouched() {
        return new FileIdentity(size, modifiedNanos, ChangeStamp.NONE);
    }

    /** The form catalog rows had before change stamps (entry version 2): never vouches for anything. */
    static FileIdentity readWithoutStamp(DataInput in) throws IOException {
        return new FileIdentity(in.readLong(), in.readLong(), ChangeStamp.NONE);
    }

    @Override
    public String toString() {
        return "size " + size + (modifiedNanos == UNKNOWN_MTIME ? "" : ", mtime " + modifiedNanos + " ns")
                + (changeStamp.isEmpty() ? ", no change stamp" : ", stamp " + changeStamp);
    }
}
