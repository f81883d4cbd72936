package io.pdla.redirect;

import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Pattern-aware read-ahead over one replica. The replica holds the pattern's bytes in the order the pattern
 * reads them, so the next requests are the next bytes. Two aligned, direct buffers of half the budget each:
 * a request outside the current one is served from the prefetched one if it holds it, else by one large
 * aligned read starting at the request; once the application has consumed half of the current buffer, the
 * next stretch of the replica is read into the other buffer in the background. Requests at least half a
 * buffer long bypass both. The buffers are block-aligned so that refills can use O_DIRECT.
 *
 * <p>A replica of several ranks' patterns holds each rank's bytes as one region ({@code regionBytes} each, rank after
 * rank): a rank reads only its own, so no fill or prefetch reaches past the end of the region it starts in, but for
 * the rounding up to a block that O_DIRECT needs (more would read another rank's bytes for nothing), and a request
 * across a region's end is read straight from the replica.
 */
final class ReadAheadWindow {
    private static final int ALIGN = 4096;
    /** Background refills; daemon threads so an application never waits for them to exit. */
    private static final ExecutorService PREFETCH = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "pdla-readahead");
        t.setDaemon(true);
        return t;
    });

    /** A buffer and the replica range it holds. */
    private static final class Window {
        final ByteBuffer buf;
        long start = -1;
        int valid;

        Window(int size) {
            buf = ByteBuffer.allocateDirect(size + ALIGN).alignedSlice(ALIGN);
        }

        boolean holds(long position, int len) {
            return start >= 0 && position >= start && position + len <= start + valid;
        }
    }

    private final StorageFile replica;
    private final long replicaSize;
    private final long regionBytes;
    private final int capacity;
    private Window current;
    private Window spare;
    private Future<Window> pending;

    ReadAheadWindow(StorageFile replica, long replicaSize, int bytes) {
        this(replica, replicaSize, replicaSize, bytes);
    }

    /** {@code regionBytes}: the bytes of one rank's region, {@code replicaSize} when the replica is one rank's or read as a whole. */
    ReadAheadWindow(StorageFile replica, long replicaSize, long regionBytes, int bytes) {
        if (regionBytes < 1 || regionBytes > replicaSize && replicaSize > 0) {
            throw new IllegalArgumentException("region of " + regionBytes + " bytes in a replica of " + replicaSize + " bytes of " + replica.uri());
        }
        this.replica = replica;
        this.replicaSize = replicaSize;
        this.regionBytes = Math.max(1, regionBytes);
        this.capacity = Math.max(ALIGN, bytes / 2 / ALIGN * ALIGN);
        this.current = new Window(capacity);
        this.spare = new Window(capacity);
    }

    int capacity() {
        return 2 * capacity;
    }

    /**
     * Copies {@code dst.remaining()} replica bytes at {@code position} into {@code dst}. Returns whether the
     * read-ahead served it (false: read straight from the replica).
     */
    synchronized boolean read(long position, ByteBuffer dst, RedirectStats stats) throws IOException {
        int len = dst.remaining();
        if (!current.holds(position, len)) {
            if (pending != null) {
                Window next = await();
                if (next.holds(position, len)) {
                    spare = current;
                    current = next;
                } else {
                    spare = next;
                }
            }
        }
        if (current.holds(position, len)) {
            stats.add(s -> s.readAheadHits, 1);
        } else if (len >= capacity / 2 || position % ALIGN + len > capacity || len > 0 && regionEnd(position) < position + len) {
            // large requests, small ones that would not fit in a buffer starting at their aligned offset, and any that
            // crosses into the next rank's region (a window never holds bytes past the end of the region it starts in)
            readFully(position, dst);
            return false;
        } else {
            fill(current, position / ALIGN * ALIGN, regionEnd(position));
            stats.add(s -> s.readAheadFills, 1);
            if (!current.holds(position, len)) {
                throw new IOException("replica " + replica.uri() + " is shorter than expected (" + replicaSize + " bytes)");
            }
        }
        ByteBuffer src = current.buf.duplicate();
        src.limit((int) (position - current.start) + len).position((int) (position - current.start));
        dst.put(src);
        long end = current.start + current.valid;
        long limit = regionEnd(position);
        if (pending == null && position + len > current.start + current.valid / 2 && end < limit) {
            Window target = spare;
            pending = PREFETCH.submit(() -> {
                fill(target, end, limit);
                return target;
            });
            stats.add(s -> s.readAheadFills, 1);
        }
        return true;
    }

    private Window await() throws IOException {
        try {
            return pending.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for read-ahead of " + replica.uri());
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException("read-ahead of " + replica.uri() + " failed", e.getCause());
        } finally {
            pending = null;
        }
    }

    /** One past the last byte of the region that holds replica position {@code position} (never past the replica). */
    private long regionEnd(long position) {
        return Math.min(replicaSize, (position / regionBytes + 1) * regionBytes);
    }

    /** Reads from {@code aligned} up to a buffer or up to {@code limit}, rounded up to the block for O_DIRECT. */
    private void fill(Window w, long aligned, long limit) throws IOException {
        w.buf.clear();
        int want = (int) Math.min(capacity, ((limit - aligned + ALIGN - 1) / ALIGN) * ALIGN);
        w.buf.limit(Math.max(ALIGN, want));
        int got = 0;
        while (w.buf.hasRemaining()) {
            int n = replica.read(aligned + got, w.buf);
            if (n <= 0) break;
            got += n;
        }
        w.start = aligned;
        w.valid = got;
    }

    /** Forgets what the buffers hold (the replica was written, here or by another rank): the next read refills. */
    synchronized void forget() {
        quiesce();
        current.start = -1;
        spare.start = -1;
    }

    /** Waits for a background refill so the replica can be closed under it. */
    synchronized void quiesce() {
        if (pending == null) return;
        try {
            await();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private void readFully(long position, ByteBuffer dst) throws IOException {
        readDirect(replica, position, dst);
    }

    static void readDirect(StorageFile replica, long position, ByteBuffer dst) throws IOException {
        long p = position;
        while (dst.hasRemaining()) {
            int n = replica.read(p, dst);
            if (n <= 0) throw new IOException("replica " + replica.uri() + " ended at " + p);
            p += n;
        }
    }
}
