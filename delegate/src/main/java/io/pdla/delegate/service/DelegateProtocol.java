package io.pdla.delegate.service;

import io.pdla.access.ExtentList;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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

    private static final ByteBuffer NO_DATA = ByteBuffer.allocate(0).asReadOnlyBuffer();

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
     *
     * <p>{@code joins}: the request also opens the file at the delegate for its sender (what OPEN does, with this
     * request's {@code writable}, {@code pageSize}, {@code cacheBytes}, {@code hints}, {@code group} and
     * {@code groupSize}): a rank sends no OPEN, its first request to a delegate joins, so a read-only file whose
     * calls all bypass a delegate costs that delegate nothing. {@code epoch}: how many syncs the sender completed
     * on the file before this request; a SYNC is the member's part of the group's sync number {@code epoch + 1}.
     */
    public record Request(Op op, String uri, boolean writable, long pageSize, long cacheBytes, Map<String, String> hints,
                          ExtentList extents, ByteBuffer data, long argument, long group, int groupSize, ExtentList invalidate,
                          boolean joins, long epoch) {
        public Request(Op op, String uri, boolean writable, long pageSize, long cacheBytes, Map<String, String> hints,
                       ExtentList extents, ByteBuffer data, long argument, long group, int groupSize) {
            this(op, uri, writable, pageSize, cacheBytes, hints, extents, data, argument, group, groupSize, ExtentList.EMPTY, false, 0);
        }

        /** A request of {@code op} on {@code uri} with extents and an argument, and nothing else set. */
        static Request of(Op op, String uri, ExtentList extents, long argument) {
            return new Request(op, uri, false, 0, 0, Map.of(), extents, NO_DATA, argument, 0, 1);
        }

        /** The same request carrying {@code pages} to invalidate first. */
        public Request invalidating(ExtentList pages) {
            return new Request(op, uri, writable, pageSize, cacheBytes, hints, extents, data, argument, group, groupSize, pages, joins, epoch);
        }

        /** The same request, also opening the file at the delegate for its sender as one of {@code open}'s group. */
        public Request joining(Join open, long syncsDone) {
            return new Request(op, uri, open.writable(), open.pageSize(), open.cacheBytes(), open.hints(), extents, data, argument,
                    open.group(), open.groupSize(), invalidate, true, syncsDone);
        }

        /** The same request as a member of the open {@code group} that completed {@code syncsDone} syncs. */
        Request inGroup(long group, long syncsDone) {
            return new Request(op, uri, writable, pageSize, cacheBytes, hints, extents, data, argument, group, groupSize, invalidate, joins, syncsDone);
        }
    }

    /** What a rank's open tells a delegate, sent with the rank's first request to it ({@link Request#joining}). */
    public record Join(boolean writable, long pageSize, long cacheBytes, Map<String, String> hints, long group, int groupSize) {
        public Join {
            if (groupSize < 1) throw new IllegalArgumentException("an open group has at least one rank, was " + groupSize);
        }
    }

    /** Write back (and with {@link #RELEASE_DROP} forget) the cached pages under {@code extents}, before a direct call. */
    public static byte[] release(String uri, ExtentList extents, long mode) {
        return encode(new Request(Op.RELEASE, uri, false, 0, 0, Map.of(), extents, NO_DATA, mode, 0, 1));
    }

    /** A rank's open of a file as one of the {@code groupSize} ranks of the collective open {@code group}. */
    public static byte[] open(String uri, boolean writable, long pageSize, long cacheBytes, Map<String, String> hints,
                              long group, int groupSize) {
        if (groupSize < 1) throw new IllegalArgumentException("an open group has at least one rank, was " + groupSize);
        return encode(new Request(Op.OPEN, uri, writable, pageSize, cacheBytes, hints, ExtentList.EMPTY, NO_DATA, 0,
                group, groupSize));
    }

    /** An open by a rank alone (a group of one). */
    public static byte[] open(String uri, boolean writable, long pageSize, long cacheBytes, Map<String, String> hints) {
        return open(uri, writable, pageSize, cacheBytes, hints, 0, 1);
    }

    public static byte[] read(String uri, ExtentList extents) {
        return encode(new Request(Op.READ, uri, false, 0, 0, Map.of(), extents, NO_DATA, 0, 0, 1));
    }

    public static byte[] write(String uri, ExtentList extents, byte[] data) {
        return write(uri, extents, Payload.of(ByteBuffer.wrap(data)));
    }

    /** A WRITE whose bytes are copied straight from {@code data} into the message. */
    public static byte[] write(String uri, ExtentList extents, Payload data) {
        return encode(new Request(Op.WRITE, uri, true, 0, 0, Map.of(), extents, NO_DATA, 0, 0, 1), data);
    }

    public static byte[] simple(Op op, String uri, long argument) {
        return encode(new Request(op, uri, false, 0, 0, Map.of(), ExtentList.EMPTY, NO_DATA, argument, 0, 1));
    }

    /** SYNC or CLOSE as one rank's part of the collective call of the open {@code group}, its first sync. */
    public static byte[] collective(Op op, String uri, long group) {
        return encode(collectiveRequest(op, uri, group, 0));
    }

    /** SYNC or CLOSE of a member of the open {@code group} that completed {@code syncsDone} syncs of the file. */
    public static byte[] collective(Op op, String uri, long group, long syncsDone) {
        return encode(collectiveRequest(op, uri, group, syncsDone));
    }

    static Request collectiveRequest(Op op, String uri, long group, long syncsDone) {
        if (op != Op.SYNC && op != Op.CLOSE) throw new IllegalArgumentException(op + " is not a collective delegate operation");
        return Request.of(op, uri, ExtentList.EMPTY, 0).inGroup(group, syncsDone);
    }

    /**
     * One message, allocated at its exact size: the data of a WRITE is copied once, from the caller's memory
     * into the message (the delegate then copies it once more, into its pages).
     */
    public static byte[] encode(Request r) {
        return encode(r, Payload.of(r.data()));
    }

    static byte[] encode(Request r, Payload data) {
        byte[] uri = r.uri().getBytes(StandardCharsets.UTF_8);
        List<byte[]> hints = new ArrayList<>(2 * r.hints().size());
        int size = 1 + 4 + uri.length + 1 + 8 * 4 + 4 + 1 + 8 + 4;
        for (Map.Entry<String, String> e : r.hints().entrySet()) {
            hints.add(e.getKey().getBytes(StandardCharsets.UTF_8));
            hints.add(e.getValue().getBytes(StandardCharsets.UTF_8));
        }
        for (byte[] h : hints) size += 4 + h.length;
        size = Math.addExact(size, 4 + 16 * r.extents().size() + 4 + data.length() + 4 + 16 * r.invalidate().size());
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put((byte) r.op().ordinal());
        out.putInt(uri.length).put(uri);
        out.put((byte) (r.writable() ? 1 : 0));
        out.putLong(r.pageSize()).putLong(r.cacheBytes()).putLong(r.argument()).putLong(r.group());
        out.putInt(r.groupSize());
        out.put((byte) (r.joins() ? 1 : 0)).putLong(r.epoch());
        out.putInt(r.hints().size());
        for (byte[] h : hints) out.putInt(h.length).put(h);
        putExtents(out, r.extents());
        out.putInt(data.length());
        data.copyInto(out);
        putExtents(out, r.invalidate());
        if (out.hasRemaining()) throw new IllegalStateException("delegate request encoded short: " + out.remaining() + " bytes left");
        return out.array();
    }

    private static void putExtents(ByteBuffer out, ExtentList e) {
        out.putInt(e.size());
        for (int i = 0; i < e.size(); i++) out.putLong(e.offset(i)).putLong(e.length(i));
    }

    /**
     * Decodes a request; a WRITE's data is a read-only view of {@code message}, not a copy. Every count and
     * length is checked against the bytes left before anything is allocated from it.
     */
    public static Request decode(byte[] message) throws IOException {
        ByteBuffer in = ByteBuffer.wrap(message);
        try {
            int op = in.get() & 0xff;
            if (op >= Op.values().length) throw new IOException("delegate request with unknown operation code " + op);
            String uri = string(in, "file name");
            boolean writable = in.get() != 0;
            long pageSize = in.getLong();
            long cacheBytes = in.getLong();
            long argument = in.getLong();
            long group = in.getLong();
            int groupSize = in.getInt();
            boolean joins = in.get() != 0;
            long epoch = in.getLong();
            int nh = count(in, 8, "hints");
            Map<String, String> hints = new LinkedHashMap<>();
            for (int i = 0; i < nh; i++) hints.put(string(in, "hint name"), string(in, "hint value"));
            ExtentList extents = extents(in, "extents");
            int n = count(in, 1, "data bytes");
            ByteBuffer data = in.slice(in.position(), n).asReadOnlyBuffer();
            in.position(in.position() + n);
            ExtentList invalidate = extents(in, "invalidated extents");
            return new Request(Op.values()[op], uri, writable, pageSize, cacheBytes, hints, extents, data, argument, group,
                    groupSize, invalidate, joins, epoch);
        } catch (java.nio.BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new IOException("delegate request truncated at byte " + in.position() + " of " + message.length);
        }
    }

    private static int count(ByteBuffer in, int bytesEach, String what) throws IOException {
        int n = in.getInt();
        if (n < 0 || (long) n * bytesEach > in.remaining()) {
            throw new IOException("delegate request: " + what + " count " + n + " at byte " + (in.position() - 4)
                    + " exceeds the " + in.remaining() + " bytes left");
        }
        return n;
    }

    private static String string(ByteBuffer in, String what) throws IOException {
        int n = count(in, 1, what + " length");
        String s = new String(in.array(), in.arrayOffset() + in.position(), n, StandardCharsets.UTF_8);
        in.position(in.position() + n);
        return s;
    }

    private static ExtentList extents(ByteBuffer in, String what) throws IOException {
        int n = count(in, 16, what);
        ExtentList.Builder b = ExtentList.builder(n);
        for (int i = 0; i < n; i++) b.add(in.getLong(), in.getLong());
        return b.build();
    }

    /** The data of a WRITE as the encoder copies it in: from an array, a buffer, or runs of the caller's buffer. */
    public interface Payload {
        int length();

        void copyInto(ByteBuffer out);

        static Payload of(ByteBuffer data) {
            ByteBuffer d = data.duplicate();
            return new Payload() {
                public int length() {
                    return d.remaining();
                }

                public void copyInto(ByteBuffer out) {
                    out.put(d.duplicate());
                }
            };
        }

        /** {@code runs} ({position, length} pairs) of {@code src}, in order: what one delegate gets of a call's buffer. */
        static Payload gather(ByteBuffer src, List<long[]> runs, long total) {
            int length = Math.toIntExact(total);
            return new Payload() {
                public int length() {
                    return length;
                }

                public void copyInto(ByteBuffer out) {
                    for (long[] run : runs) {
                        out.put(out.position(), src, (int) run[0], (int) run[1]);
                        out.position(out.position() + (int) run[1]);
                    }
                }
            };
        }
    }

    /** The successful reply of an operation without a result (clone it: a reply is its receiver's to keep). */
    static final byte[] OK_EMPTY = ok(0, new byte[0]);

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
