package io.pdla.replicator.catalog;

import io.pdla.replicator.pattern.PatternCodec;
import io.pdla.pattern.PatternKey;
import io.pdla.pattern.KeyedPattern;
import io.pdla.storage.StorageLayout;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Map;
import java.util.TreeMap;

/**
 * One row of the replica catalog (the papers' replica directory / RMT, with the CPT columns): where the
 * pattern's replica is, with which layout in which space, its benefit and size, and the original's
 * identity and generation at build time.
 *
 * @param space           {@code HServers}, {@code SServers} or {@code HServers+SServers}
 * @param benefitSeconds  Eq. 6's B for S-PDLA replicas, 0 for H-PDLA ones
 * @param bytesPerSServer space the replica takes on one SServer (Algorithm 1's s_pat), 0 on HServers
 */
public record ReplicaEntry(KeyedPattern pattern, URI replica, StorageLayout layout, String space,
                           double benefitSeconds, long bytesPerSServer, ReplicaState state,
                           FileIdentity identity, long generation, long builtAtMillis) {
    private static final int VERSION = 1;

    public PatternKey key() {
        return pattern.key();
    }

    public ReplicaEntry withState(ReplicaState s) {
        return new ReplicaEntry(pattern, replica, layout, space, benefitSeconds, bytesPerSServer, s, identity, generation, builtAtMillis);
    }

    public ReplicaEntry withIdentity(FileIdentity id) {
        return new ReplicaEntry(pattern, replica, layout, space, benefitSeconds, bytesPerSServer, state, id, generation, builtAtMillis);
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
            out.writeUTF(layout.kind());
            out.writeInt(layout.parameters().size());
            for (Map.Entry<String, String> e : new TreeMap<>(layout.parameters()).entrySet()) {
                out.writeUTF(e.getKey());
                out.writeUTF(e.getValue());
            }
            out.writeUTF(space);
            out.writeDouble(benefitSeconds);
            out.writeLong(bytesPerSServer);
            out.writeUTF(state.name());
            out.writeLong(identity.size());
            out.writeLong(identity.modifiedNanos());
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
            if (v != VERSION) throw new IllegalArgumentException("unknown catalog entry version " + v);
            byte[] p = new byte[in.readInt()];
            in.readFully(p);
            KeyedPattern pattern = PatternCodec.decode(p);
            URI replica = URI.create(in.readUTF());
            String kind = in.readUTF();
            int n = in.readInt();
            Map<String, String> params = new TreeMap<>();
            for (int i = 0; i < n; i++) params.put(in.readUTF(), in.readUTF());
            return new ReplicaEntry(pattern, replica, new StorageLayout(kind, params), in.readUTF(), in.readDouble(),
                    in.readLong(), ReplicaState.valueOf(in.readUTF()), new FileIdentity(in.readLong(), in.readLong()),
                    in.readLong(), in.readLong());
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("corrupt catalog entry (" + data.length + " bytes): " + e.getMessage(), e);
        }
    }
}
