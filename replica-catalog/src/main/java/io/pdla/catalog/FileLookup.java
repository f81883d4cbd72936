package io.pdla.catalog;

import io.pdla.storage.StorageDriver;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What an open of an original needs from the catalog: every replica entry of the file, its file record, and
 * the original's identity probed right after. One process looks it up and hands the bytes ({@link #toBytes})
 * to the other ranks of a collective open, so the job pays one catalog transaction and every rank judges the
 * replicas against the same identity.
 */
public record FileLookup(List<ReplicaEntry> entries, FileRecord file, FileIdentity identity) {
    private static final int FORMAT = 1;

    public FileLookup {
        entries = List.copyOf(entries);
    }

    /** Reads the entries and the file record in one read transaction, then probes the original. */
    public static FileLookup read(CatalogAccess catalog, StorageDriver driver, URI original, Consumer<String> corrupt) throws IOException {
        record Rows(List<ReplicaEntry> entries, FileRecord file) {
        }
        Rows rows = catalog.transact(t -> new Rows(t.entriesOf(original, corrupt), t.file(original)));
        return new FileLookup(rows.entries(), rows.file(), FileIdentity.probe(driver, original));
    }

    public byte[] toBytes() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(FORMAT);
            file.writeTo(out);
            identity.writeTo(out);
            out.writeInt(entries.size());
            for (ReplicaEntry e : entries) {
                byte[] b = e.toBytes();
                out.writeInt(b.length);
                out.write(b);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @throws IllegalArgumentException naming what is wrong with {@code data} */
    public static FileLookup fromBytes(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            int format = in.readInt();
            if (format != FORMAT) throw new IllegalArgumentException("file lookup format " + format + ", expected " + FORMAT);
            FileRecord file = FileRecord.readFrom(in);
            FileIdentity identity = FileIdentity.readFrom(in);
            int n = in.readInt();
            if (n < 0) throw new IllegalArgumentException("file lookup with " + n + " entries");
            List<ReplicaEntry> entries = new ArrayList<>(Math.min(n, 4096));
            for (int i = 0; i < n; i++) {
                int len = in.readInt();
                // bounded by what is left: a damaged length must not drive the allocation
                if (len < 0 || len > in.available()) {
                    throw new IllegalArgumentException("truncated or damaged file lookup (" + data.length + " bytes): entry " + i + " of " + n
                            + " claims " + len + " bytes, " + in.available() + " left");
                }
                byte[] b = new byte[len];
                in.readFully(b);
                entries.add(ReplicaEntry.fromBytes(b));
            }
            if (in.available() > 0) throw new IllegalArgumentException("file lookup has " + in.available() + " bytes after its last entry");
            return new FileLookup(entries, file, identity);
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated file lookup (" + data.length + " bytes): " + e, e);
        }
    }
}
