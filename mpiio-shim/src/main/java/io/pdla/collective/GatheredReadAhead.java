package io.pdla.collective;

import io.pdla.storage.StorageFile;

import java.nio.ByteBuffer;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What an aggregator read ahead for the gathered reads of small, dense collective calls on a file no cache stands
 * before (O_DIRECT). Such calls are gathered so that one request replaces one per rank, but a device answers one
 * 64 KiB request about as fast as four parallel 16 KiB ones; what it does better is a few large requests. So when
 * a call continues where the last gathered window ended (a stream, as IOR -c's segments are), the aggregator reads
 * past its window, doubling each time up to {@code cb_buffer_size}, as the kernel's read-ahead does for a cached
 * file, and the next calls' windows come from memory.
 *
 * <p>Once a stream is established the next stretch is read in the background while the calls are served from the
 * current one, into a second buffer ({@link #fetchNext}): without it the device idles while the ranks exchange and
 * copy, and every stretch's read stalls all ranks (ROMIO's double-buffered two-phase overlaps its reads in the same
 * way). What the background read brought reaches the interceptors on the rank's own thread when the aggregator takes
 * it ({@link Fetched}), so the tracer sees it as the storage call it was.
 *
 * <p>Never stale under MPI's consistency rules: every rank counts the changes it makes through the handle (writes,
 * independent or collective, set_size, preallocate, sync) and sends the count in each collective call's first
 * all-gather; when the sum moved, everything held or being read is dropped before the call reads ({@link #changes}).
 * A background read starts only inside a call, after that check. A process that writes the file through another
 * handle is seen after the sync MPI requires of it. Data past the end of the file is never served: a window the
 * last read did not fully cover is read as usual.
 */
final class GatheredReadAhead {
    /** Background reads of every aggregator in this JVM; daemon threads, so a job never waits for them to exit. */
    private static final ExecutorService BACKGROUND = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "pdla-gathered-read-ahead");
        t.setDaemon(true);
        t.setContextClassLoader(null); // not the rank's that made it: PerRank keys state by the context loader
        return t;
    });

    /**
     * A read made in the background: {@code got} bytes of {@code source} at {@code at}, timed, or its failure; told to
     * the interceptors once ({@link #firstTelling}), as soon as the aggregator sees it ended, so that they see it in
     * about the order the store did.
     */
    record Fetched(StorageFile source, long at, int length, long got, long startNanos, long endNanos, Exception failure,
                   java.util.concurrent.atomic.AtomicBoolean told) {
        /** True the first time only: whoever gets it reports the read. */
        boolean firstTelling() {
            return told.compareAndSet(false, true);
        }
    }

    private StorageFile source;
    private long start;
    private int filled;
    private long nextExpected = -1;
    private long lastSize;
    private boolean stream;
    /** Whether the held data is all the last read asked for (else the file ended inside it). */
    private boolean complete;
    private long changes = -1;
    private ByteBuffer buffer;
    private long hits;
    /** The buffer the next stretch is read into, and that read while it runs. */
    private ByteBuffer spare;
    private Future<Fetched> pending;

    /**
     * The ranks' summed change count for this call: anything held or being read from before a change is dropped.
     * Returns the background read it waited for (to be reported), or null.
     */
    Fetched changes(long sum) {
        if (sum == changes) return null;
        changes = sum;
        return drop();
    }

    /** The background read, once it has ended (it may have been told already), or null: nothing waits. */
    Fetched ended() {
        Future<Fetched> p = pending;
        if (p == null || !p.isDone()) return null;
        try {
            return p.get();
        } catch (InterruptedException | ExecutionException e) {
            return null; // not after isDone: the task catches what it can
        }
    }

    /** {@link #drop} for good: the buffers are let go too (the handle is closing). */
    Fetched release() {
        Fetched last = drop();
        buffer = null;
        spare = null;
        return last;
    }

    /** Forgets everything held; waits for a background read (its buffer is not free before) and returns it, or null. */
    Fetched drop() {
        source = null;
        filled = 0;
        nextExpected = -1;
        lastSize = 0;
        stream = false;
        return awaitPending();
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
        stream = from == nextExpected;
        long size = stream ? Math.min(max, Math.max(bytes, 2 * lastSize)) : bytes;
        lastSize = size;
        return Math.max(size, bytes);
    }

    /** A page-aligned buffer of at least {@code bytes} to read into (the held data is gone once it is filled). */
    ByteBuffer bufferFor(int bytes) {
        source = null;
        filled = 0;
        buffer = aligned(buffer, bytes);
        return buffer.duplicate().clear().limit(bytes);
    }

    /** Records what the last read brought: {@code got} of the {@code length} bytes of {@code f} asked for at {@code at}. */
    void filled(StorageFile f, long at, long got, int length) {
        source = f;
        start = at;
        filled = (int) got;
        complete = got >= length;
    }

    /**
     * Starts reading the stretch after the held one in the background, twice the last read and at most {@code max}
     * bytes, when the held data continues a stream, reached as far as it was asked to (not the end of the file), and
     * no background read runs.
     */
    void fetchNext(long max) {
        if (!stream || !complete || source == null || pending != null) return;
        long size = Math.min(max, 2 * lastSize);
        long at = start + filled;   // start and filled are whole pages: the stretch is page-aligned as O_DIRECT wants
        int length = (int) ((size + 4095) & ~4095L);
        StorageFile f = source;
        ByteBuffer into;
        try {
            spare = aligned(spare, length);
            into = spare.duplicate().clear().limit(length);
        } catch (OutOfMemoryError e) {
            return; // no room for a second buffer: the next stretch is read when a call needs it, as without this
        }
        try {
            pending = submit(f, at, length, into);
            lastSize = size;
        } catch (java.util.concurrent.RejectedExecutionException | OutOfMemoryError e) {
            pending = null; // no thread to read with: the same
        }
    }

    private static Future<Fetched> submit(StorageFile f, long at, int length, ByteBuffer into) {
        return BACKGROUND.submit(() -> {
            long t0 = System.nanoTime();
            try {
                long got = f.readv(io.pdla.access.ExtentList.of(at, length), into);
                return new Fetched(f, at, length, got, t0, System.nanoTime(), null, new java.util.concurrent.atomic.AtomicBoolean());
            } catch (Exception e) {
                return new Fetched(f, at, length, 0, t0, System.nanoTime(), e, new java.util.concurrent.atomic.AtomicBoolean());
            }
        });
    }

    /**
     * After a miss: waits for the background read, if one runs, and takes what it brought as the held data when it
     * read without failure. Returns it (to be reported, taken or not), or null when none ran.
     */
    Fetched takeFetched() {
        Fetched done = awaitPending();
        if (done == null || done.failure() != null || done.source() != source) return done;
        ByteBuffer previous = buffer;
        buffer = spare;
        spare = previous;
        filled(done.source(), done.at(), done.got(), done.length());
        return done;
    }

    private Fetched awaitPending() {
        if (pending == null) return null;
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return pending.get();
                } catch (InterruptedException e) {
                    interrupted = true;   // the buffer is the background read's until it ends: wait on, then re-interrupt
                } catch (ExecutionException e) {
                    return null;          // the task catches everything it can; nothing was read that can be served
                }
            }
        } finally {
            pending = null;
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    private static ByteBuffer aligned(ByteBuffer current, int bytes) {
        if (current != null && current.capacity() >= bytes) return current;
        int rounded = (bytes + 4095) & ~4095;
        return ByteBuffer.allocateDirect(rounded + 4096).alignedSlice(4096);
    }

    /** Windows served from memory so far. */
    long hits() {
        return hits;
    }
}
