package io.pdla.replicator.pattern;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Objects;

/**
 * The PatternID of the papers: application command, number of processes, rank ({@link #ALL_RANKS} for a
 * global pattern of all ranks) and the original file. One replica per key.
 */
public record PatternKey(String command, int processes, int rank, URI original) implements Comparable<PatternKey> {
    public static final int ALL_RANKS = -1;

    public PatternKey {
        if (command == null || command.isBlank()) throw new IllegalArgumentException("pattern key: command must not be empty");
        if (processes <= 0) throw new IllegalArgumentException("pattern key: processes must be > 0, was " + processes);
        if (rank < ALL_RANKS || rank >= processes) {
            throw new IllegalArgumentException("pattern key: rank must be -1 (all) or 0.." + (processes - 1) + ", was " + rank);
        }
        Objects.requireNonNull(original, "pattern key: original file URI");
    }

    public boolean global() {
        return rank == ALL_RANKS;
    }

    /** The same application and file, all ranks: where a covering global pattern would be. */
    public PatternKey asGlobal() {
        return new PatternKey(command, processes, ALL_RANKS, original);
    }

    /** Readable form, used in logs and by {@code pdla replicas}: {@code command|np|rank|uri}. */
    public String id() {
        return command + "|" + processes + "|" + (global() ? "all" : Integer.toString(rank)) + "|" + original;
    }

    /** Parses {@link #id()}; the command may itself contain '|', so fields are taken from the right. */
    public static PatternKey parse(String id) {
        int c = id.lastIndexOf("|file:");
        int u = c >= 0 ? c : id.lastIndexOf('|');
        if (u < 0) throw new IllegalArgumentException("not a pattern id (command|np|rank|uri): " + id);
        String rest = id.substring(0, u);
        int r = rest.lastIndexOf('|');
        int p = r < 0 ? -1 : rest.lastIndexOf('|', r - 1);
        if (r < 0 || p < 0) throw new IllegalArgumentException("not a pattern id (command|np|rank|uri): " + id);
        String rankText = rest.substring(r + 1);
        try {
            return new PatternKey(rest.substring(0, p), Integer.parseInt(rest.substring(p + 1, r)),
                    "all".equals(rankText) ? ALL_RANKS : Integer.parseInt(rankText), URI.create(id.substring(u + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a pattern id (command|np|rank|uri): " + id, e);
        }
    }

    /**
     * Database key bytes: file first, so all keys of one original are adjacent (a cursor range finds them),
     * then command, processes and rank.
     */
    public byte[] toBytes() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.write(filePrefix(original));
            out.writeUTF(command);
            out.writeInt(processes);
            out.writeInt(rank);
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The leading bytes every key of {@code original} shares. */
    public static byte[] filePrefix(URI original) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeUTF(original.toString());
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static PatternKey fromBytes(byte[] data) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(data))) {
            URI uri = URI.create(in.readUTF());
            String cmd = in.readUTF();
            int np = in.readInt();
            int rank = in.readInt();
            return new PatternKey(cmd, np, rank, uri);
        } catch (IOException e) {
            throw new IllegalArgumentException("corrupt pattern key record (" + data.length + " bytes): " + e.getMessage(), e);
        }
    }

    @Override
    public int compareTo(PatternKey o) {
        return id().compareTo(o.id());
    }

    @Override
    public String toString() {
        return id();
    }
}
