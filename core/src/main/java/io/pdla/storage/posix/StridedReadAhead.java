package io.pdla.storage.posix;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Read-ahead for one handle's strided reads, which the kernel's own read-ahead does not recognise: Linux ramps its
 * window up for a descriptor whose reads follow each other, and for reads whose preceding pages are already cached;
 * a rank reading every fourth 16 KiB block of a cold file (IOR's strided layout) is neither when it runs ahead of the
 * ranks that read the blocks between, so every one of its reads became a 16 KiB request to the device and waited
 * for it (a fresh job's cold 16 KiB reads: 1,400-4,800 device requests for 256 MiB, against 500-1,700 for Open MPI's
 * ranks, which kept closer together). Lustre's client has stride read-ahead for the same reason.
 *
 * <p>Once a handle's reads have moved forward by the same stride three times in a row, and the stride is at most
 * {@link #MAX_SPREAD} times the read (the gaps are most likely other ranks' blocks, not bytes nobody wants), a window
 * of file bytes ahead, gaps included, is {@link #due}: the read goes to {@link NativePosix#preadAhead}, which asks the
 * kernel for the window only if the read itself must wait for the device (a cached file pays nothing: asking costs a
 * look-up of every page of the window, 100-150 µs for 8 MiB, as much as the reads it would serve). Once asked
 * ({@link #asked}), the next window is due when the reads come within half a window of its end, and is asked for then
 * (the reads are streaming through an uncached file) until the stride changes.
 *
 * <p>One per handle. The fields are plain: a handle shared by threads at most asks for a window twice or once too
 * few, and a hint changes no byte read.
 */
final class StridedReadAhead {
    /** Strides longer than this many reads are left to the kernel: reading the gaps would mostly read what nobody asked for. */
    static final int MAX_SPREAD = 16;
    private static final int STEADY = 3;

    private final long window;
    /** How far this file's handles in the JVM have asked for, or null (see {@link ReadAheadFrontiers}). */
    private final AtomicLong shared;
    private long lastOffset = -1;
    private long stride;
    private int steady;
    private long aheadUntil;
    private long askFrom;
    private long askLength;
    private long dueAt;
    private boolean stopped;
    /** A window was asked for in this run of strides: the reads stream through an uncached file, ask for the next unprobed. */
    private boolean streaming;

    /** {@code window}: bytes asked for at a time (reads whose stride is longer get none). */
    StridedReadAhead(long window) {
        this(window, null);
    }

    /** {@code shared}: the frontier of the file's handles in this JVM ({@link ReadAheadFrontiers}), or null. */
    StridedReadAhead(long window, AtomicLong shared) {
        this.window = window;
        this.shared = shared;
    }

    /**
     * Told of each read of {@code length} bytes at {@code offset}, before it runs: whether a window is due, the range
     * {@link #askFrom} / {@link #askLength}, to be asked for if the read finds its bytes uncached.
     */
    boolean due(long offset, int length) {
        if (stopped) return false;
        long s = offset - lastOffset;
        boolean first = lastOffset < 0;
        lastOffset = offset;
        if (first || s != stride) {
            stride = s;
            steady = first ? 0 : 1;   // strides seen in a row
            aheadUntil = 0;   // a new pattern, or a new pass over the file: what was asked for before says nothing
            streaming = false;
            return false;
        }
        if (++steady < STEADY || s <= length || s > (long) length * MAX_SPREAD || s > window) return false;
        if (offset + window / 2 < aheadUntil) return false;
        dueAt = offset;
        askFrom = Math.max(offset + length, aheadUntil);
        long to = offset + window;
        if (shared != null) {
            long f = shared.get();
            if (f >= to - window / 4 && f < to + window) {   // another handle asked for (nearly) all of it just now
                aheadUntil = to;
                return false;
            }
            if (f > askFrom && f < to) askFrom = f;
        }
        askLength = to - askFrom;
        return true;
    }

    long askFrom() {
        return askFrom;
    }

    long askLength() {
        return askLength;
    }

    /** No window is due from now on: the file system cannot tell a read that would wait from one that would not. */
    void stop() {
        stopped = true;
    }

    /**
     * The window {@link #due} last offered was asked for: the next is due half a window before its end, and is asked for
     * whether or not the read then finds its bytes cached (they are, from this window: waiting for a miss would stop
     * the stream at every window's end).
     */
    void asked() {
        aheadUntil = askFrom + askLength;
        streaming = true;
        if (shared == null) return;
        for (long f = shared.get(); f < aheadUntil && !shared.compareAndSet(f, aheadUntil); f = shared.get()) {
            // another handle moved it meanwhile: look again
        }
    }

    /**
     * The due window was not asked for: the read found its bytes cached. The next read to try is an eighth of a window
     * further on, not the next one: on a cached file every read would otherwise take the trying path, whose longer call
     * cost a third of an interpreted 16 KiB read; a cold file's reads wait at most that far before the window is asked for.
     */
    void cached() {
        aheadUntil = dueAt + window / 2 + window / 8;
    }

    /** Whether the due window is asked for without first trying the read (see {@link #asked}). */
    boolean streaming() {
        return streaming;
    }
}
