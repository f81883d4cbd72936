package io.pdla.replicator.pattern;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes {@link ReplicablePattern#encode()}. Unknown types and damaged records are an
 * {@link IllegalArgumentException} naming what was wrong: the catalog treats them as unusable entries.
 */
public final class PatternCodec {
    private PatternCodec() {
    }

    public static ReplicablePattern decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            String type = in.readUTF();
            int version = in.readInt();
            if (!NestedStridedPattern.TYPE.equals(type) || version != 1) {
                throw new IllegalArgumentException("unknown pattern encoding " + type + " v" + version);
            }
            byte[] k = new byte[in.readInt()];
            in.readFully(k);
            PatternKey key = PatternKey.fromBytes(k);
            long start = in.readLong();
            long size = in.readLong();
            int n = in.readInt();
            if (n < 0 || n > 64) throw new IllegalArgumentException("corrupt pattern record: " + n + " levels");
            List<NestedStridedPattern.Level> levels = new ArrayList<>(n);
            for (int i = 0; i < n; i++) levels.add(new NestedStridedPattern.Level(in.readLong(), in.readLong()));
            if (in.available() > 0) throw new IllegalArgumentException("corrupt pattern record: " + in.available() + " trailing bytes");
            return new NestedStridedPattern(key, start, size, levels);
        } catch (IOException e) {
            throw new IllegalArgumentException("corrupt pattern record (" + data.length + " bytes): " + e, e);
        }
    }
}
