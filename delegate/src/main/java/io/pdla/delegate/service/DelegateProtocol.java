package io.pdla.delegate.service;

import io.pdla.access.ExtentList;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The messages between application ranks and delegates. A request is an operation on one file (by URI);
 * a reply starts with a status byte, then an error text or the operation's result.
 */
public final class DelegateProtocol {
    public enum Op { OPEN, READ, WRITE, SYNC, CLOSE, SIZE, TRUNCATE, BYE, RELEASE }

    /** RELEASE's argument: the pages are written back and kept (before a direct read) or also dropped (before a direct write). */
    public static final long RELEASE_KEEP = 0, RELEASE_DROP = 1;

    static final byte OK = 0;
    static final byte FAILED = 1;

    private DelegateProtocol() {
    }

    /**
     * A decoded request. {@code data} holds the bytes of a WRITE, in extent order. {@code group} names the
     * collective open the request belongs to (the same on every rank that opened the file together) and
     * {@code groupSize} is how many ranks opened it: SYNC and CLOSE are collective over that group, so a
     * delegate flushes once when the whole group asked, not once per rank. {@code invalidate}: bytes the sender
     * wrote straight to storage since its last request to this delegate; the delegate writes back the dirty
     * bytes of the pages they touch and forgets those pages before it serves the request, so it never serves
     * a copy older than storage.
     */
    public record Request(Op op, String uri, boolean writable, long pageSize, long cacheBytes, Map<String, String> hints,
                          ExtentList extents, byte[] data, long argument, long group, int groupSize, ExtentList invalidate) {
        public Request(Op op, String uri, boolean writable, long pageSize, long cacheBytes, Map<String, String> hints,
                       ExtentList extents, byte[] data, long argument, long group, int groupSize) {
            this(op, uri, writable, pageSize, cacheBytes, hints, extents, data, argument, group, groupSize, ExtentList.EMPTY);
        }

        /** The same request carrying {@code pages} to invalidate first. */
        public Request invalidating(ExtentList pages) {
            return new Request(op, uri, writable, pageSize, cacheBytes, hints, extents, data, argument, group, groupSize, pages);
        }
    }

    /** Write back (and with {@link #RELEASE_DROP} forget) the cached pages under {@code extents}, before a direct call. */
    public static byte[] release(String uri, ExtentList extents, long mode) {
        return encode(new Request(Op.RELEASE, uri, false, 0, 0, Map.of(), extents, new byte[0], mode, 0, 1));
    }

    /** A rank's open of a file as one of the {@code groupSize} ranks of the collective open {@code group}. */
    public static byte[] open(String uri, boolean writable, long pageSize, long cacheBytes, Map<String, String> hints,
                              long group, int groupSize) {
        if (groupSize < 1) throw new IllegalArgumentException("an open group has at least one rank, was " + groupSize);
        return encode(new Request(Op.OPEN, uri, writable, pageSize, cacheBytes, hints, ExtentList.EMPTY, new byte[0], 0,
                group, groupSize));
    }

    /** An open by a rank alone (a group of one). */
    public static byte[] open(String uri, boolean writable, long pageSize, long cacheBytes, Map<String, String> hints) {
        return open(uri, writable, pageSize, cacheBytes, hints, 0, 1);
    }

    public static byte[] read(String uri, ExtentList extents) {
        return encode(new Request(Op.READ, uri, false, 0, 0, Map.of(), extents, new byte[0], 0, 0, 1));
    }

    public static byte[] write(String uri, ExtentList extents, byte[] data) {
        return encode(new Request(Op.WRITE, uri, true, 0, 0, Map.of(), extents, data, 0, 0, 1));
    }

    public static byte[] simple(Op op, String uri, long argument) {
        return encode(new Request(op, uri, false, 0, 0, Map.of(), ExtentList.EMPTY, new byte[0], argument, 0, 1));
    }

    /** SYNC or CLOSE as one rank's part of the collective call of the open {@code group}. */
    public static byte[] collective(Op op, String uri, long group) {
        if (op != Op.SYNC && op != Op.CLOSE) throw new IllegalArgumentException(op + " is not a collective delegate operation");
        return encode(new Request(op, uri, false, 0, 0, Map.of(), ExtentList.EMPTY, new byte[0], 0, group, 0));
    }

    public static byte[] encode(Request r) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + r.data().length + 16 * r.extents().size());
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(r.op().ordinal());
            out.writeUTF(r.uri());
            out.writeBoolean(r.writable());
            out.writeLong(r.pageSize());
            out.writeLong(r.cacheBytes());
            out.writeLong(r.argument());
            out.writeLong(r.group());
            out.writeInt(r.groupSize());
            out.writeInt(r.hints().size());
            for (Map.Entry<String, String> e : r.hints().entrySet()) {
                out.writeUTF(e.getKey());
                out.writeUTF(e.getValue());
            }
            out.writeInt(r.extents().size());
            for (int i = 0; i < r.extents().size(); i++) {
                out.writeLong(r.extents().offset(i));
                out.writeLong(r.extents().length(i));
            }
            out.writeInt(r.data().length);
            out.write(r.data());
            out.writeInt(r.invalidate().size());
            for (int i = 0; i < r.invalidate().size(); i++) {
                out.writeLong(r.invalidate().offset(i));
                out.writeLong(r.invalidate().length(i));
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);   // a byte array stream does not fail
        }
    }

    public static Request decode(byte[] message) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(message));
        int op = in.readUnsignedByte();
        if (op >= Op.values().length) throw new IOException("delegate request with unknown operation code " + op);
        String uri = in.readUTF();
        boolean writable = in.readBoolean();
        long pageSize = in.readLong();
        long cacheBytes = in.readLong();
        long argument = in.readLong();
        long group = in.readLong();
        int groupSize = in.readInt();
        int nh = in.readInt();
        Map<String, String> hints = new LinkedHashMap<>();
        for (int i = 0; i < nh; i++) hints.put(in.readUTF(), in.readUTF());
        int ne = in.readInt();
        ExtentList.Builder b = ExtentList.builder(ne);
        for (int i = 0; i < ne; i++) b.add(in.readLong(), in.readLong());
        byte[] data = new byte[in.readInt()];
        in.readFully(data);
        int ni = in.readInt();
        ExtentList.Builder inv = ExtentList.builder(ni);
        for (int i = 0; i < ni; i++) inv.add(in.readLong(), in.readLong());
        return new Request(Op.values()[op], uri, writable, pageSize, cacheBytes, hints, b.build(), data, argument, group,
                groupSize, inv.build());
    }

    /** A successful reply: {@code knownEnd} (READ, SIZE; 0 otherwise) and the bytes read (READ). */
    public static byte[] ok(long knownEnd, byte[] data) {
        byte[] out = new byte[1 + 8 + data.length];
        out[0] = OK;
        java.nio.ByteBuffer.wrap(out, 1, 8).putLong(knownEnd);
        System.arraycopy(data, 0, out, 9, data.length);
        return out;
    }

    /** A successful reply whose data already sits in {@code reply} from {@link #DATA_OFFSET} on: writes its header. */
    public static byte[] okInPlace(long knownEnd, byte[] reply) {
        reply[0] = OK;
        java.nio.ByteBuffer.wrap(reply, 1, 8).putLong(knownEnd);
        return reply;
    }

    public static byte[] failed(String message) {
        byte[] text = message.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] out = new byte[1 + text.length];
        out[0] = FAILED;
        System.arraycopy(text, 0, out, 1, text.length);
        return out;
    }

    /** The reply's known end of file; throws the delegate's error if it failed. */
    public static long knownEnd(byte[] reply, int delegate) throws DelegateFailedException {
        check(reply, delegate);
        return java.nio.ByteBuffer.wrap(reply, 1, 8).getLong();
    }

    public static void check(byte[] reply, int delegate) throws DelegateFailedException {
        if (reply.length == 0) throw new DelegateFailedException("delegate " + delegate + " sent an empty reply");
        if (reply[0] != OK) {
            throw new DelegateFailedException("delegate " + delegate + " failed: "
                    + new String(reply, 1, reply.length - 1, java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    /** Where the data of a READ reply starts. */
    public static final int DATA_OFFSET = 9;
}
