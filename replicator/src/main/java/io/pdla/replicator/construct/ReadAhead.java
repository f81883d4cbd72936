package io.pdla.replicator.construct;

import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Logger;

/**
 * Reads a POSIX original a few windows ahead of a shared copy, on a thread of its own, so that the copy's reads find
 * it in the page cache: a cold 4 MiB read waits on the disk each time (the kernel reads ahead far less than a window),
 * and the copying thread, which also sorts each window's pieces into the replicas' buffers and digests them, would
 * leave the disk idle meanwhile (the replicas' writes have a thread of their own, {@link ReplicaWriter}). The copy
 * reads each window again, from the cache; without this thread, the copy reading the original once by itself, the
 * copy alone was no faster (bench/RESULTS-online.md, 2026-11-29 copy19). A hint only: its bytes are discarded, it never reads behind the copy or more than
 * {@code ahead} bytes in front of it, and any failure just ends it (the copy reads everything for itself).
 */
final class ReadAhead implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ReadAhead.class.getName());

    private final StorageFile file;
    private final long end;
    private final int chunk;
    private final long ahead;
    private final Thread thread;
    private volatile long position;
    private volatile boolean closed;

    /** Starts reading {@code file} (its own handle, closed when done) from {@code from} up to {@code end}. */
    ReadAhead(StorageFile file, long from, long end, int chunk, long ahead) {
        this.file = file;
        this.end = end;
        this.chunk = chunk;
        this.ahead = ahead;
        this.position = from;
        this.thread = new Thread(this::run, "pdla-replica-read-ahead");
        thread.setDaemon(true);
        thread.start();
    }

    /** The copy now reads at {@code offset}. */
    void at(long offset) {
        position = offset;
        LockSupport.unpark(thread);
    }

    private void run() {
        try {
            ByteBuffer buf = ByteBuffer.allocateDirect(chunk);
            long next = position;
            while (!closed && next < end) {
                long copyAt = position;
                if (next < copyAt) next = copyAt;
                if (next >= end) break;
                if (next >= copyAt + ahead) {
                    LockSupport.parkNanos(this, 20_000_000L);
                    continue;
                }
                buf.clear().limit((int) Math.min(chunk, end - next));
                int n = file.read(next, buf);
                if (n <= 0) break;
                next += n;
            }
        } catch (IOException | RuntimeException e) {
            LOG.fine(() -> "read-ahead of " + file.uri() + " ended: " + e);
        } finally {
            try {
                file.close();
            } catch (IOException | RuntimeException e) {
                LOG.fine(() -> "closing the read-ahead handle of " + file.uri() + ": " + e);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
