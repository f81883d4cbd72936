package io.pdla.replicator.catalog;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Per original file: the content generation the shim maintains (bumped when a shim writer starts and when
 * it ends, and when a write invalidates replicas), the number of shim write sessions now open, and the
 * original's identity when the first of them started ({@code null} when there is none).
 */
public record FileRecord(long generation, int writers, FileIdentity identityBeforeWriters) {
    public static final FileRecord NEW = new FileRecord(0, 0, null);

    /** The catalog's encoding: generation, writers, then the identity if there is one. */
    void writeTo(DataOutput out) throws IOException {
        out.writeLong(generation);
        out.writeInt(writers);
        out.writeBoolean(identityBeforeWriters != null);
        if (identityBeforeWriters != null) {
            out.writeLong(identityBeforeWriters.size());
            out.writeLong(identityBeforeWriters.modifiedNanos());
        }
    }

    static FileRecord readFrom(DataInput in) throws IOException {
        long gen = in.readLong();
        int writers = in.readInt();
        FileIdentity id = in.readBoolean() ? new FileIdentity(in.readLong(), in.readLong()) : null;
        return new FileRecord(gen, writers, id);
    }
}
