package io.pdla.replicator.construct;

import io.pdla.access.Extent;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;

/**
 * Fills the replicas of several patterns of one original from one pass over it. Why: the ranks of a job read one
 * file in interleaved patterns (IOR's strided shape: rank r owns block s * np + r), and each replica's own sieved
 * copy reads the whole span of the file, so N replicas read it N times (online PDLA, 4 ranks: the first copy's cold
 * read took 2.1 s, then 0.65-0.8 s per further replica, one after another; bench/RESULTS-online.md).
 *
 * <p>The original is read in windows of up to {@code windowBytes}, each starting at the lowest byte any replica
 * still needs (so a hole wider than a window is skipped) and ending no later than the furthest byte any pattern
 * reaches; every replica takes from each window the pieces of its pattern that lie in it, in its pattern's order,
 * into its own output. Each replica gets exactly its pattern's bytes in its order whatever the patterns are: a
 * pattern whose next piece lies below the window is served by a later window starting there. The pass is one
 * sequential read only for patterns whose pieces ascend in the file ({@link #suits}); the builder sends others
 * through its per-replica copy. The replicas' writes run on a {@link ReplicaWriter}'s thread, beside the reads of the
 * next windows.
 *
 * <p>Failures stay with their replica: one whose output cannot be written, or whose pattern reaches past the end of
 * the original, is dropped with its own failure (its space freed at once, so a full store does not take the others
 * with it) and the others go on. A failure to read the original
 * concerns them all and is thrown. The rate limit counts the bytes written into all the replicas together, so a
 * shared copy takes the disk no faster than the same replicas built one after another.
 */
final class SharedOriginalCopy {
    /** What all the replicas' buffers may hold together, two a replica (each at least {@link #MIN_PENDING}). */
    static final int PENDING_BUDGET = 16 << 20;
    static final int MIN_PENDING = 64 << 10;

    /** One replica being filled. */
    static final class Member {
        final KeyedPattern pattern;
        final StorageFile out;
        /** Where the member's bytes begin in {@code out}: 0, or its rank's region in a replica of several ranks. */
        private final long base;
        /** The digest of the member's own bytes, in its order (of its region, where members share one output). */
        final MessageDigest digest;
        private final Iterator<Extent> extents;
        private final long reach;
        private long nextOffset;
        private long nextLength;
        /** The buffer the copy fills; null once the member is dropped. */
        private ByteBuffer filling;
        /** Its other buffer, once written (guarded by the {@link ReplicaWriter}). */
        final ArrayDeque<ByteBuffer> spares = new ArrayDeque<>(1);
        private long written;
        private volatile IOException failure;
        private boolean released;
        private final Runnable whenDropped;

        /** {@code whenDropped} runs once if this replica fails: it frees what the replica took, for the others. */
        Member(KeyedPattern pattern, StorageFile out, MessageDigest digest, Runnable whenDropped) {
            this(pattern, out, 0, digest, whenDropped);
        }

        /** A member writing its bytes from {@code base} on, in an output it may share with others (a region each). */
        Member(KeyedPattern pattern, StorageFile out, long base, MessageDigest digest, Runnable whenDropped) {
            this.pattern = pattern;
            this.out = out;
            this.base = base;
            this.digest = digest;
            this.whenDropped = whenDropped;
            Geometry g = pattern.geometry();
            this.extents = g.extents();
            this.reach = g.lowOffset() + g.span();
            advance();
        }

        private void advance() {
            while (nextLength == 0 && extents.hasNext()) {
                Extent e = extents.next();
                nextOffset = e.offset();
                nextLength = e.length();
            }
        }

        boolean active() {
            return failure == null && nextLength > 0;
        }

        /** Marks the member failed; the first failure is the one kept. */
        synchronized void fail(IOException why) {
            if (failure == null) failure = why;
        }

        /** Frees what the failed replica took, once (on the writer's thread, after the writes handed in before). */
        void release() {
            if (released) return;
            released = true;
            try {
                whenDropped.run();
            } catch (RuntimeException e) {
                failure.addSuppressed(e);
            }
        }

        /** Writes the bytes at the end of the replica; returns how many. */
        int append(ByteBuffer bytes) throws IOException {
            int n = bytes.remaining();
            out.write(base + written, bytes);
            written += n;
            return n;
        }

        /** Why this replica was dropped, or null. */
        IOException failure() {
            return failure;
        }

        /** Bytes written into the replica. */
        long written() {
            return written;
        }
    }

    private final StorageFile in;
    private final int windowBytes;
    private final RateLimit rate;
    private java.util.function.LongConsumer windowAt = offset -> { };
    /** Sync each replica every this many bytes written ({@link WriteBehind}); 0: only the builder's sync after the copy. */
    private long writeBehindBytes;

    SharedOriginalCopy(StorageFile in, int windowBytes, RateLimit rate) {
        this.in = in;
        this.windowBytes = windowBytes;
        this.rate = rate;
    }

    /** Has each replica synced along the way, every {@code bytes} written into it ({@link WriteBehind}). */
    void writeBehind(long bytes) {
        this.writeBehindBytes = bytes;
    }

    /** Told the offset of each window before it is read (a {@link ReadAhead} follows the copy with it). */
    SharedOriginalCopy onWindow(java.util.function.LongConsumer at) {
        this.windowAt = at;
        return this;
    }

    /** One past the furthest byte any of these patterns can reach. */
    static long reach(List<KeyedPattern> patterns) {
        long reach = 0;
        for (KeyedPattern p : patterns) reach = Math.max(reach, p.geometry().lowOffset() + p.geometry().span());
        return reach;
    }

    /** The lowest byte any of these patterns can start at. */
    static long low(List<KeyedPattern> patterns) {
        long low = Long.MAX_VALUE;
        for (KeyedPattern p : patterns) low = Math.min(low, p.geometry().lowOffset());
        return Math.max(0, low);
    }

    /**
     * Whether one pass serves these patterns well: at least two, each ascending through the file (every piece at or
     * after the end of the one before), and together dense enough that the holes read with the windows are at most
     * the bytes wanted (the data-sieving rule of {@code SievingStorageFile}'s {@code automatic}).
     */
    static boolean suits(List<KeyedPattern> patterns) {
        if (patterns.size() < 2) return false;
        long low = Long.MAX_VALUE, high = 0, wanted = 0;
        for (KeyedPattern p : patterns) {
            Geometry g = p.geometry();
            if (!ascending(g)) return false;
            low = Math.min(low, g.lowOffset());
            high = Math.max(high, g.lowOffset() + g.span());
            wanted += g.totalBytes();
        }
        return high - low - wanted <= wanted;
    }

    static boolean ascending(Geometry g) {
        Iterator<Extent> it = g.extents();
        long end = Long.MIN_VALUE;
        while (it.hasNext()) {
            Extent e = it.next();
            if (e.offset() < end) return false;
            end = e.offset() + e.length();
        }
        return true;
    }

    /**
     * Copies until every member is filled or dropped; the members' outputs are written, not synced. The writes run on a
     * {@link ReplicaWriter}'s thread beside the reads; when this returns, whatever the outcome, that thread has ended
     * and no write is pending.
     */
    void run(List<Member> members) throws IOException {
        if (members.isEmpty()) return;
        // two buffers a member: one filled here while the other is written
        // whole pages, starting on a page: what a replica written around the page cache takes as it is (O_DIRECT)
        int each = Math.max(MIN_PENDING, Math.min(windowBytes, PENDING_BUDGET / (2 * members.size()))) / PAGE * PAGE;
        long reach = 0;
        for (Member m : members) {
            m.filling = pageAligned(each);
            m.spares.add(pageAligned(each));
            reach = Math.max(reach, m.reach);
        }
        WriteBehind behind = writeBehindBytes > 0 ? new WriteBehind(writeBehindBytes) : null;
        ReplicaWriter writer = new ReplicaWriter(rate, behind);
        boolean finished = false;
        try {
            readAll(members, reach, writer);
            for (Member m : members) {
                if (m.failure() == null && m.filling.position() > 0) writer.handLast(m, digested(m, m.filling));
            }
            writer.finish();
            finished = true;
        } finally {
            if (!finished) writer.abort();
            if (behind != null) behind.close();
        }
    }

    private static final int PAGE = 4096;

    private static ByteBuffer pageAligned(int bytes) {
        // an aligned slice's capacity is cut to whole pages: room for the pages that hold {@code bytes}, and one to align
        return ByteBuffer.allocateDirect(((bytes + PAGE - 1) / PAGE + 1) * PAGE).alignedSlice(PAGE).limit(bytes).slice();
    }

    private void readAll(List<Member> members, long reach, ReplicaWriter writer) throws IOException {
        long originalSize = in.size();
        ByteBuffer window = pageAligned(windowBytes);
        while (true) {
            if (Thread.currentThread().isInterrupted()) throw new InterruptedIOException("replica build interrupted");
            long low = Long.MAX_VALUE;
            for (Member m : members) if (m.active()) low = Math.min(low, m.nextOffset);
            if (low == Long.MAX_VALUE) break;
            long want = Math.min(windowBytes, reach - low);
            windowAt.accept(low);
            long got = low >= originalSize ? 0 : readFully(window, low, want);
            for (Member m : members) if (m.active()) take(m, window, low, got, writer);
            if (got < want) {
                // the original ends inside this window: whoever still needs a byte from here on asks past its end
                for (Member m : members) {
                    if (m.active() && m.nextOffset >= low + got) {
                        m.fail(new StorageException(StorageException.Reason.BAD_ARGUMENT, "pattern " + m.pattern.key().id()
                                + " reaches past the end of original " + in.uri() + " (" + originalSize + " bytes; it needs offset "
                                + m.nextOffset + ")"));
                        writer.release(m);
                    }
                }
            }
        }
    }

    private long readFully(ByteBuffer window, long offset, long want) throws IOException {
        window.clear().limit(Math.toIntExact(want));
        long got = 0;
        while (got < want) {
            int n = in.read(offset + got, window);
            if (n <= 0) break;
            got += n;
        }
        return got;
    }

    /**
     * Adds a filled buffer's bytes to the member's digest. Here rather than on the writer's thread: the buffers are
     * handed in, and written, in the replica's order, so the digest is the same, and the writes alone keep that
     * thread busier than this one.
     */
    private static ByteBuffer digested(Member m, ByteBuffer filled) {
        if (m.digest != null) m.digest.update(filled.duplicate().flip());
        return filled;
    }

    /** The member's pieces inside window [low, low + got), in its pattern's order, into its buffer, handed on when full. */
    private void take(Member m, ByteBuffer window, long low, long got, ReplicaWriter writer) throws IOException {
        long end = low + got;
        while (m.active() && m.nextOffset >= low && m.nextOffset < end) {
            ByteBuffer b = m.filling;
            int from = Math.toIntExact(m.nextOffset - low);
            int n = (int) Math.min(Math.min(m.nextLength, end - m.nextOffset), b.remaining());
            b.put(b.position(), window, from, n).position(b.position() + n);
            m.nextOffset += n;
            m.nextLength -= n;
            if (m.nextLength == 0) m.advance();
            if (!b.hasRemaining()) m.filling = writer.exchange(m, digested(m, b));
        }
    }
}
