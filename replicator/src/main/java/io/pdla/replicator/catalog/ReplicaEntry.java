package io.pdla.replicator.catalog;

import io.pdla.replicator.pattern.PatternCodec;
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
     * 3: the original's identity carries its change stamp. 2: the layout is the core description's text form
     * plus a note (1 kept a driver kind and parameters). Version 2 rows still read; their identity vouches for
     * nothing, so their replicas are rebuilt before they serve.
     */
    private static final int VERSION = 3;

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
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ReplicaEntry fromBytes(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            int v = in.readInt();
            if (v != VERSION && v != 2) {
                throw new IllegalArgumentException("catalog entry version " + v + " is not " + VERSION
                        + (v == 1 ? " (version 1 kept driver-specific layouts; rebuild the replicas)" : ""));
            }
            int len = in.readInt();
            // bounded by what is left: a damaged length must not drive the allocation
            if (len < 0 || len > in.available()) throw new IOException("pattern of " + len + " bytes, " + in.available() + " left");
            byte[] p = new byte[len];
            in.readFully(p);
            KeyedPattern pattern = PatternCodec.decode(p);
            URI replica = URI.create(in.readUTF());
            Layout layout = Layout.parse(in.readUTF());
            String note = in.readUTF();
            return new ReplicaEntry(pattern, replica, layout, note, in.readUTF(), in.readDouble(),
                    in.readLong(), ReplicaState.valueOf(in.readUTF()), v == 2 ? FileIdentity.readWithoutStamp(in) : FileIdentity.readFrom(in),
                    in.readLong(), in.readLong());
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("corrupt catalog entry (" + data.length + " bytes): " + (e.getMessage() != null ? e.getMessage() : e), e);
        }
    }
}
