package io.pdla.redirect;

import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Pattern-aware read-ahead over one replica. The replica holds the pattern's bytes in the order the pattern
 * reads them, so the next requests are the next bytes: a request outside the window refills it with one
 * large aligned read starting at the request, and the following small requests are copied out of it.
 * Requests at least half the window long bypass it. Memory is bounded by the window; its buffer is direct
 * and block-aligned so that O_DIRECT can be used for the refill.
 */
final class ReadAheadWindow {
    private static final int ALIGN = 4096;

    private final StorageFile replica;
    private final long replicaSize;
    private final ByteBuffer window;
    private long start = -1;
    private int valid;

    ReadAheadWindow(StorageFile replica, long replicaSize, int bytes) {
        this.replica = replica;
        this.replicaSize = replicaSize;
        int size = Math.max(ALIGN, bytes / ALIGN * ALIGN);
        this.window = ByteBuffer.allocateDirect(size + ALIGN).alignedSlice(ALIGN);
    }

    int capacity() {
        return window.capacity();
    }

    /**
     * Copies {@code dst.remaining()} replica bytes at {@code position} into {@code dst}. Returns whether the
     * window served it (false: read straight from the replica).
     */
    synchronized boolean read(long position, ByteBuffer dst, RedirectStats stats) throws IOException {
        int len = dst.remaining();
        boolean inWindow = start >= 0 && position >= start && position + len <= start + valid;
        // large requests, and small ones that would not fit in a window starting at their aligned offset, go straight through
        if (!inWindow && (len >= window.capacity() / 2 || position % ALIGN + len > window.capacity())) {
            readFully(position, dst);
            return false;
        }
        if (!inWindow) {
            fill(position);
            stats.add(s -> s.readAheadFills, 1);
        } else {
            stats.add(s -> s.readAheadHits, 1);
        }
        if (position + len > start + valid) {
            throw new IOException("replica " + replica.uri() + " is shorter than expected (" + replicaSize + " bytes)");
        }
        ByteBuffer src = window.duplicate();
        src.limit((int) (position - start) + len).position((int) (position - start));
        dst.put(src);
        return true;
    }

    private void fill(long position) throws IOException {
        long aligned = position / ALIGN * ALIGN;
        window.clear();
        int want = (int) Math.min(window.capacity(), ((replicaSize - aligned + ALIGN - 1) / ALIGN) * ALIGN);
        window.limit(Math.max(ALIGN, want));
        int got = 0;
        while (window.hasRemaining()) {
            int n = replica.read(aligned + got, window);
            if (n <= 0) break;
            got += n;
        }
        start = aligned;
        valid = got;
    }

    private void readFully(long position, ByteBuffer dst) throws IOException {
        long p = position;
        while (dst.hasRemaining()) {
            int n = replica.read(p, dst);
            if (n <= 0) throw new IOException("replica " + replica.uri() + " ended at " + p + " (expected " + replicaSize + " bytes)");
            p += n;
        }
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
