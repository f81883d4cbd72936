package io.pdla.catalog;

import io.pdla.catalog.pattern.PatternCodec;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.storage.Layout;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.zip.CRC32C;

/**
 * One row of the replica catalog (the papers' replica directory / RMT, with the CPT columns): where the
 * pattern's replica is, with which layout in which space, its benefit and size, and the original's
 * identity and generation at build time.
 *
 * @param layout          the layout the replica's store reports for it (the plan, when the store could not apply it)
 * @param layoutNote      empty when the store applied the planned layout; otherwise why it did not
 * @param space           {@code HServers}, {@code SServers} or {@code HServers+SServers}
 * @param benefitSeconds  Eq. 6's B for S-PDLA replicas, 0 for H-PDLA ones
 * @param bytesPerSServer space the replica takes on one SServer (Algorithm 1's s_pat), 0 on HServers
 */
public record ReplicaEntry(KeyedPattern pattern, URI replica, Layout layout, String layoutNote, String space,
                           double benefitSeconds, long bytesPerSServer, ReplicaState state,
                           FileIdentity identity, long generation, long builtAtMillis) {
    /**
     * 4: a CRC-32C of everything before it ends the row. Without it, a damaged pattern (one flipped bit of a
     * stride) decoded into a valid but different geometry, and reads were served other bytes of the replica.
     * 3: the original's identity carries its change stamp. 2: the layout is the core description's text form
     * plus a note (1 kept a driver kind and parameters). Version 2 and 3 rows still read, but nothing proves
     * them undamaged, so their identity vouches for nothing and their replicas are rebuilt before they serve.
     */
    private static final int VERSION = 4;
    private static final int CHECKSUM_BYTES = 4;

    public PatternKey key() {
        return pattern.key();
    }

    public ReplicaEntry withState(ReplicaState s) {
        return new ReplicaEntry(pattern, replica, layout, layoutNote, space, benefitSeconds, bytesPerSServer, s, identity, generation, builtAtMillis);
    }

    public ReplicaEntry withIdentity(FileIdentity id) {
        return new ReplicaEntry(pattern, replica, layout, layoutNote, space, benefitSeconds, bytesPerSServer, state, id, generation, builtAtMillis);
    }

    byte[] toBytes() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(VERSION);
            byte[] p = PatternCodec.encode(pattern);
            out.writeInt(p.length);
            out.write(p);
            out.writeUTF(replica.toString());
            out.writeUTF(layout.toString());
            out.writeUTF(layoutNote);
            out.writeUTF(space);
            out.writeDouble(benefitSeconds);
            out.writeLong(bytesPerSServer);
            out.writeUTF(state.name());
            identity.writeTo(out);
            out.writeLong(generation);
            out.writeLong(builtAtMillis);
            out.writeInt(checksum(bytes.toByteArray(), bytes.size()));
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ReplicaEntry fromBytes(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            int v = in.readInt();
            if (v != VERSION && v != 3 && v != 2) {
                throw new IllegalArgumentException("catalog entry version " + v + " is not " + VERSION
                        + (v == 1 ? " (version 1 kept driver-specific layouts; rebuild the replicas)" : ""));
            }
            if (v == VERSION) verifyChecksum(data);
            int len = in.readInt();
            // bounded by what is left: a damaged length must not drive the allocation
            if (len < 0 || len > in.available()) throw new IOException("pattern of " + len + " bytes, " + in.available() + " left");
            byte[] p = new byte[len];
            in.readFully(p);
            KeyedPattern pattern = PatternCodec.decode(p);
            URI replica = URI.create(in.readUTF());
            Layout layout = Layout.parse(in.readUTF());
            String note = in.readUTF();
            String space = in.readUTF();
            double benefit = in.readDouble();
            long perSServer = in.readLong();
            ReplicaState state = ReplicaState.valueOf(in.readUTF());
            FileIdentity identity = switch (v) {
                case 2 -> FileIdentity.readWithoutStamp(in);
                case 3 -> FileIdentity.readFrom(in).unvouched();
                default -> FileIdentity.readFrom(in);
            };
            ReplicaEntry e = new ReplicaEntry(pattern, replica, layout, note, space, benefit, perSServer, state, identity,
                    in.readLong(), in.readLong());
            int left = in.available() - (v == VERSION ? CHECKSUM_BYTES : 0);
            if (left != 0) throw new IOException(left + " bytes after the row's last field");
            return e;
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("corrupt catalog entry (" + data.length + " bytes): " + (e.getMessage() != null ? e.getMessage() : e), e);
        }
    }

    private static void verifyChecksum(byte[] data) throws IOException {
        if (data.length < 4 + CHECKSUM_BYTES) throw new IOException("row too short for its checksum");
        int body = data.length - CHECKSUM_BYTES;
        int stored = java.nio.ByteBuffer.wrap(data).getInt(body);   // big-endian, as DataOutputStream wrote it
        int actual = checksum(data, body);
        if (stored != actual) {
            throw new IOException("checksum " + Integer.toHexString(actual) + " of the row is not the stored " + Integer.toHexString(stored));
        }
    }

    private static int checksum(byte[] data, int length) {
        CRC32C crc = new CRC32C();
        crc.update(data, 0, length);
        return (int) crc.getValue();
    }
}
