package io.pdla.patterns.online;

import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.patterns.template.LocalPattern;
import io.pdla.patterns.template.MatchResult;
import io.pdla.patterns.template.OpMix;
import io.pdla.patterns.template.PatternKind;
import io.pdla.patterns.template.Temporal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * One repeated pass as a rank hands it on: the application, the file, the open's hints and what the matcher found,
 * in a compact binary record. The rank encodes it with nothing but the classes its matching already loaded (no JSON
 * codec, no analysis, no database classes: under MPJ's multicore device every rank loads its own copy of each class
 * it does not share with the other ranks, which the JSON codec and JE are not, and those took 0.7-0.9 s of CPU per
 * rank); the daemon, one JVM, decodes it and makes of it the entries
 * {@code pdla analyze} would store ({@link HandedInPasses}). The file identity redirect checks is not part of it: the
 * replicator takes it from the original when it copies.
 *
 * <p>Layout: {@code "PDLAPASS"}, the format version ({@value #VERSION}), the fields in a fixed order (strings as
 * length-prefixed UTF-8, enums by name), then a CRC-32C of all that. {@link #decode} checks every length and value
 * and says what is wrong; a record of another version is refused, not guessed at.
 */
public record PassRecord(AppIdentity app, URI file, Map<String, String> hints, MatchResult pass) {
    static final int VERSION = 1;
    private static final byte[] MAGIC = "PDLAPASS".getBytes(StandardCharsets.US_ASCII);
    /** Bounds on what a record may hold: a pass has at most {@link RepeatDetector#MAX_PATTERNS} patterns. */
    private static final int MAX_STRING = 1 << 16, MAX_HINTS = 1024, MAX_PATTERNS = 1024, MAX_ARRAY = 4096;

    public PassRecord {
        hints = Map.copyOf(hints);
    }

    public byte[] encode() {
        try {
            ByteArrayOutputStream buf = new ByteArrayOutputStream(512);
            DataOutputStream out = new DataOutputStream(buf);
            out.write(MAGIC);
            out.writeInt(VERSION);
            string(out, app.command());
            out.writeInt(app.processes());
            string(out, file.toString());
            out.writeInt(hints.size());
            for (Map.Entry<String, String> h : hints.entrySet()) {
                string(out, h.getKey());
                string(out, h.getValue());
            }
            out.writeInt(pass.rank());
            out.writeInt(pass.fileId());
            out.writeLong(pass.requests());
            out.writeLong(pass.bytes());
            out.writeLong(pass.explainedRequests());
            out.writeLong(pass.explainedBytes());
            out.writeInt(pass.patterns().size());
            for (LocalPattern p : pass.patterns()) pattern(out, p);
            CRC32C crc = new CRC32C();
            crc.update(buf.toByteArray());
            out.writeInt((int) crc.getValue());
            return buf.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode a pass record in memory", e);
        }
    }

    /** The record in {@code data}; an {@link IllegalArgumentException} saying what is wrong when it is not one. */
    public static PassRecord decode(byte[] data) {
        if (data.length < MAGIC.length + 8) throw new IllegalArgumentException("only " + data.length + " bytes, not a pass record");
        for (int i = 0; i < MAGIC.length; i++) {
            if (data[i] != MAGIC[i]) throw new IllegalArgumentException("not a pdla online pass record (magic)");
        }
        int version = ByteBuffer.wrap(data, MAGIC.length, 4).getInt();
        if (version != VERSION) {
            throw new IllegalArgumentException("pass record format version " + version + ", this pdla reads version " + VERSION);
        }
        CRC32C crc = new CRC32C();
        crc.update(data, 0, data.length - 4);
        if ((int) crc.getValue() != ByteBuffer.wrap(data, data.length - 4, 4).getInt()) throw new IllegalArgumentException("checksum mismatch");
        int body = MAGIC.length + 4;
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data, body, data.length - body - 4))) {
            AppIdentity app = new AppIdentity(string(in, "application command"), in.readInt());
            URI file = new URI(string(in, "file"));
            int n = count(in.readInt(), MAX_HINTS, "hint count");
            Map<String, String> hints = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) hints.put(string(in, "hint name " + i), string(in, "hint value " + i));
            int rank = in.readInt(), fileId = in.readInt();
            if (rank < 0 || rank >= app.processes()) throw new IllegalArgumentException("rank " + rank + " outside 0.." + (app.processes() - 1));
            long requests = in.readLong(), bytes = in.readLong(), explainedRequests = in.readLong(), explainedBytes = in.readLong();
            int np = count(in.readInt(), MAX_PATTERNS, "pattern count");
            if (np == 0) throw new IllegalArgumentException("a pass record without patterns");
            List<LocalPattern> patterns = new ArrayList<>(np);
            for (int i = 0; i < np; i++) patterns.add(pattern(in, i, rank, fileId));
            if (in.available() != 0) throw new IllegalArgumentException(in.available() + " bytes after the last pattern");
            return new PassRecord(app, file, hints, new MatchResult(rank, fileId, patterns, requests, bytes, explainedRequests, explainedBytes));
        } catch (EOFException e) {
            throw new IllegalArgumentException("cut short", e);
        } catch (IOException | URISyntaxException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static void pattern(DataOutputStream out, LocalPattern p) throws IOException {
        out.writeInt(p.rank());
        out.writeInt(p.fileId());
        string(out, p.kind().name());
        string(out, p.ops().name());
        Geometry.Spec g = p.geometry().spec();
        if (g.groups() != 1) throw new IllegalArgumentException("a pass record holds one rank's own patterns, which are never grouped: " + g);
        out.writeLong(g.start());
        longs(out, g.segOffsets());
        longs(out, g.segLengths());
        longs(out, g.strides());
        longs(out, g.counts());
        out.writeLong(g.totalBytes());
        out.writeLong(p.requests());
        out.writeLong(p.requestBytes());
        out.writeInt(p.repetitions());
        longs(out, p.requestSizes());
        string(out, p.temporal().kind().name());
        out.writeLong(p.temporal().meanIntervalNanos());
        out.writeLong(p.firstStartNanos());
        out.writeLong(p.lastEndNanos());
    }

    private static LocalPattern pattern(DataInputStream in, int i, int passRank, int passFile) throws IOException {
        String what = "pattern " + i;
        int rank = in.readInt(), fileId = in.readInt();
        if (rank != passRank || fileId != passFile) {
            throw new IllegalArgumentException(what + " is of rank " + rank + " file " + fileId + ", the pass of rank " + passRank + " file " + passFile);
        }
        PatternKind kind = named(PatternKind.class, string(in, what + " kind"), what + " kind");
        OpMix ops = named(OpMix.class, string(in, what + " operations"), what + " operations");
        Geometry geometry;
        try {
            geometry = Geometry.of(new Geometry.Spec(in.readLong(), longs(in, what + " segment offsets"), longs(in, what + " segment lengths"),
                    longs(in, what + " strides"), longs(in, what + " counts"), in.readLong()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
        }
        long requests = in.readLong(), requestBytes = in.readLong();
        int repetitions = in.readInt();
        long[] sizes = longs(in, what + " request sizes");
        Temporal.Kind tk = named(Temporal.Kind.class, string(in, what + " temporal kind"), what + " temporal kind");
        Temporal temporal = new Temporal(tk, in.readLong());
        return new LocalPattern(rank, fileId, kind, ops, geometry, requests, requestBytes, repetitions, sizes, temporal, in.readLong(), in.readLong());
    }

    private static <E extends Enum<E>> E named(Class<E> type, String name, String what) {
        try {
            return Enum.valueOf(type, name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " '" + name + "' is none of this pdla's", e);
        }
    }

    private static void string(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length > MAX_STRING) throw new IllegalArgumentException("a text of " + b.length + " bytes in a pass record, at most " + MAX_STRING);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String string(DataInputStream in, String what) throws IOException {
        int len = count(in.readInt(), Math.min(MAX_STRING, in.available()), what + " length");
        byte[] b = new byte[len];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static void longs(DataOutputStream out, long[] v) throws IOException {
        out.writeInt(v.length);
        for (long x : v) out.writeLong(x);
    }

    private static long[] longs(DataInputStream in, String what) throws IOException {
        long[] v = new long[count(in.readInt(), Math.min(MAX_ARRAY, in.available() / 8), what + " count")];
        for (int i = 0; i < v.length; i++) v[i] = in.readLong();
        return v;
    }

    private static int count(int n, int max, String what) {
        if (n < 0 || n > max) throw new IllegalArgumentException(what + " " + n + " outside 0.." + max);
        return n;
    }
}
