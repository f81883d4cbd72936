package io.pdla.collective;

import io.pdla.storage.StorageFile;

import java.nio.ByteBuffer;

/**
 * What an aggregator read ahead for the gathered reads of small, dense collective calls on a file no cache stands
 * before (O_DIRECT). Such calls are gathered so that one request replaces one per rank, but a device answers one
 * 64 KiB request about as fast as four parallel 16 KiB ones; what it does better is a few large requests. So when
 * a call continues where the last gathered window ended (a stream, as IOR -c's segments are), the aggregator reads
 * past its window, doubling each time up to {@code cb_buffer_size}, as the kernel's read-ahead does for a cached
 * file, and the next calls' windows come from memory.
 *
 * <p>Never stale under MPI's consistency rules: every rank counts the changes it makes through the handle (writes,
 * independent or collective, set_size, preallocate, sync) and sends the count in each collective call's first
 * all-gather; when the sum moved, everything held is dropped before the call reads ({@link #changes}). A process
 * that writes the file through another handle is seen after the sync MPI requires of it. Data past the end of the
 * file is never served: a window the last read did not fully cover is read as usual.
 */
final class GatheredReadAhead {
    private StorageFile source;
    private long start;
    private int filled;
    private long nextExpected = -1;
    private long lastSize;
    private long changes = -1;
    private ByteBuffer buffer;
    private long hits;

    /** The ranks' summed change count for this call: anything held from before a change is dropped. */
    void changes(long sum) {
        if (sum != changes) {
            drop();
            changes = sum;
        }
    }

    void drop() {
        source = null;
        filled = 0;
        nextExpected = -1;
        lastSize = 0;
    }

    /** Window {@code [from, from + bytes)} of {@code f} as held in memory (position 0 at {@code from}), or null. */
    ByteBuffer window(StorageFile f, long from, int bytes) {
        if (f != source || from < start || from + bytes > start + filled) return null;
        nextExpected = from + bytes;
        hits++;
        int at = (int) (from - start);
        return buffer.duplicate().limit(at + bytes).position(at).slice();
    }

    /**
     * Bytes to read for a window of {@code bytes} at {@code from} that is not held: the window alone when it starts a
     * stream, else twice the last read, at most {@code max}.
     */
    long sizeFor(long from, int bytes, long max) {
        long size = from == nextExpected ? Math.min(max, Math.max(bytes, 2 * lastSize)) : bytes;
        lastSize = size;
        return Math.max(size, bytes);
    }

    /** A page-aligned buffer of at least {@code bytes} to read into (the held data is gone once it is filled). */
    ByteBuffer bufferFor(int bytes) {
        source = null;
        filled = 0;
        if (buffer == null || buffer.capacity() < bytes) {
            int rounded = (bytes + 4095) & ~4095;
            buffer = ByteBuffer.allocateDirect(rounded + 4096).alignedSlice(4096);
        }
        return buffer.duplicate().clear().limit(bytes);
    }

    /** Records what the last read brought: {@code got} bytes of {@code f} at {@code at}. */
    void filled(StorageFile f, long at, long got) {
        source = f;
        start = at;
        filled = (int) got;
    }

    /** Windows served from memory so far. */
    long hits() {
        return hits;
    }
}
