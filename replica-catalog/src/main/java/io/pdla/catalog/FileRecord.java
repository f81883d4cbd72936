package io.pdla.catalog;

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

    private static final int NO_IDENTITY = 0, IDENTITY_WITHOUT_STAMP = 1, IDENTITY = 2;

    /**
     * The catalog's encoding: generation, writers, then a kind byte and the identity if there is one. Rows
     * written before change stamps have kind 1 (it was a boolean) and an identity that vouches for nothing.
     */
    void writeTo(DataOutput out) throws IOException {
        out.writeLong(generation);
        out.writeInt(writers);
        out.writeByte(identityBeforeWriters == null ? NO_IDENTITY : IDENTITY);
        if (identityBeforeWriters != null) identityBeforeWriters.writeTo(out);
    }

    static FileRecord readFrom(DataInput in) throws IOException {
        long gen = in.readLong();
        int writers = in.readInt();
        int kind = in.readUnsignedByte();
        FileIdentity id = switch (kind) {
            case NO_IDENTITY -> null;
            case IDENTITY_WITHOUT_STAMP -> FileIdentity.readWithoutStamp(in);
            case IDENTITY -> FileIdentity.readFrom(in);
            default -> throw new IOException("file record: identity kind " + kind + " is not 0, 1 or 2");
        };
        return new FileRecord(gen, writers, id);
    }
}
