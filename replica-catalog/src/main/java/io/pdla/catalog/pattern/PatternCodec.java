package io.pdla.catalog.pattern;

import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;

/**
 * The replica catalog's and the replication queue's encoding of core's {@link PatternKey} and
 * {@link KeyedPattern}. Keys put the file first, so all keys of one original are adjacent (a cursor range finds
 * them). Unknown types and damaged records are an {@link IllegalArgumentException} naming what was wrong: the
 * catalog treats them as unusable entries.
 */
public final class PatternCodec {
    /**
     * Type tag and version of a pattern record: key, requests, process run, and the closed form of core's
     * {@link Geometry}. Version 2 adds the grouping (groups, group stride) after the counts; version 1 records,
     * written before grouped geometries existed, are read as ungrouped.
     */
    static final String TYPE = "geometry";
    static final int VERSION = 2;
    private static final int VERSION_UNGROUPED = 1;
    private static final int MAX_PARTS = 1 << 16;

    private PatternCodec() {
    }

    /** Database key bytes: file URI, command, processes, rank. */
    public static byte[] keyBytes(PatternKey key) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.write(filePrefix(key.file()));
            out.writeUTF(key.command());
            out.writeInt(key.processes());
            out.writeInt(key.rank());
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The leading bytes every key of {@code original} shares. */
    public static byte[] filePrefix(URI original) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            new DataOutputStream(bytes).writeUTF(original.toString());
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static PatternKey keyFromBytes(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            URI uri = URI.create(in.readUTF());
            String cmd = in.readUTF();
            int np = in.readInt();
            int rank = in.readInt();
            return new PatternKey(new AppIdentity(cmd, np), rank, uri);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("corrupt pattern key record (" + data.length + " bytes): " + e.getMessage(), e);
        }
    }

    public static byte[] encode(KeyedPattern p) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            Geometry.Spec s = p.geometry().spec();
            // an ungrouped pattern keeps the v1 record every earlier build reads: a process of an earlier version sharing
            // the catalog (an application not relinked yet) would skip a row it cannot decode, and its scanner delete it,
            // DIRTY or not; only a combined replica's row needs this build
            boolean grouped = s.groups() > 1;
            out.writeUTF(TYPE);
            out.writeInt(grouped ? VERSION : VERSION_UNGROUPED);
            byte[] k = keyBytes(p.key());
            out.writeInt(k.length);
            out.write(k);
            out.writeLong(p.requests());
            out.writeLong(p.processRun());
            out.writeLong(s.start());
            out.writeLong(s.totalBytes());
            writeLongs(out, s.segOffsets());
            writeLongs(out, s.segLengths());
            writeLongs(out, s.strides());
            writeLongs(out, s.counts());
            if (grouped) {
                out.writeInt(s.groups());
                out.writeLong(s.groupStride());
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static KeyedPattern decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            String type = in.readUTF();
            int version = in.readInt();
            if (!TYPE.equals(type) || (version != VERSION && version != VERSION_UNGROUPED)) {
                throw new IllegalArgumentException("unknown pattern encoding " + type + " v" + version + " (this build reads " + TYPE
                        + " v" + VERSION_UNGROUPED + " and v" + VERSION + ")");
            }
            int klen = in.readInt();
            // bounded by what is left: a damaged length must not drive the allocation
            if (klen < 0 || klen > in.available()) throw new IOException("key of " + klen + " bytes, " + in.available() + " left");
            byte[] k = new byte[klen];
            in.readFully(k);
            PatternKey key = keyFromBytes(k);
            long requests = in.readLong();
            long processRun = in.readLong();
            long start = in.readLong();
            long total = in.readLong();
            long[] segOff = readLongs(in), segLen = readLongs(in), strides = readLongs(in), counts = readLongs(in);
            int groups = version == VERSION_UNGROUPED ? 1 : in.readInt();
            long groupStride = version == VERSION_UNGROUPED ? 0 : in.readLong();
            if (in.available() > 0) throw new IllegalArgumentException("corrupt pattern record: " + in.available() + " trailing bytes");
            return new KeyedPattern(key, Geometry.of(new Geometry.Spec(start, segOff, segLen, strides, counts, total, groups, groupStride)),
                    requests, processRun);
        } catch (IOException e) {
            throw new IllegalArgumentException("corrupt pattern record (" + data.length + " bytes): " + e, e);
        }
    }

    private static void writeLongs(DataOutputStream out, long[] values) throws IOException {
        out.writeInt(values.length);
        for (long v : values) out.writeLong(v);
    }

    private static long[] readLongs(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_PARTS) throw new IllegalArgumentException("corrupt pattern record: " + n + " parts in a list");
        if (n > in.available() / Long.BYTES) throw new IOException(n + " parts in a list, " + in.available() + " bytes left");
        long[] v = new long[n];
        for (int i = 0; i < n; i++) v[i] = in.readLong();
        return v;
    }
}
