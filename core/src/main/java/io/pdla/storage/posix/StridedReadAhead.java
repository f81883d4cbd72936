package io.pdla.storage.posix;

/**
 * Read-ahead for one handle's strided reads, which the kernel's own read-ahead does not recognise: Linux ramps its
 * window up for a descriptor whose reads follow each other, and for reads whose preceding pages are already cached;
 * a rank reading every fourth 16 KiB block of a cold file (IOR's strided layout) is neither when it runs ahead of the
 * ranks that read the blocks between, so every one of its reads became a 16 KiB request to the device and waited
 * for it (a fresh job's cold 16 KiB reads: 2,301-4,814 device requests for 256 MiB, against 650-1,700 for Open MPI's
 * ranks, which kept closer together). Lustre's client has stride read-ahead for the same reason.
 *
 * <p>Once a handle's reads have moved forward by the same stride three times, and the stride is at most
 * {@link #MAX_SPREAD} times the read (the gaps are most likely other ranks' blocks, not bytes nobody wants), it asks
 * the kernel ({@code POSIX_FADV_WILLNEED}, which starts the reads and does not wait) for the whole window of file
 * bytes ahead, the gaps included, and again each time the reads come within half a window of its end. Cached pages
 * cost the kernel a look-up each, so a warm file pays one system call per window.
 *
 * <p>One per handle. The fields are plain: a handle shared by threads at most asks for a window twice or once too
 * few, and a hint changes no byte read.
 */
final class StridedReadAhead {
    /** Strides longer than this many reads are left to the kernel: reading the gaps would mostly read what nobody asked for. */
    static final int MAX_SPREAD = 16;
    private static final int STEADY = 3;

    /** Where the requests go: the kernel, or a test's list. */
    interface Advice {
        void willNeed(long offset, long length);
    }

    /** The kernel's: {@code posix_fadvise(WILLNEED)} on a native descriptor. */
    private static final class KernelAdvice implements Advice {
        private final int fd;

        KernelAdvice(int fd) {
            this.fd = fd;
        }

        @Override
        public void willNeed(long offset, long length) {
            NativePosix.willNeed(fd, offset, length);
        }
    }

    private final Advice advice;
    private final long window;
    private long lastOffset = -1;
    private long stride;
    private int steady;
    private long aheadUntil;

    /** {@code window}: bytes asked for at a time (reads whose stride is longer get none). */
    StridedReadAhead(long window, Advice advice) {
        this.window = window;
        this.advice = advice;
    }

    /** Read-ahead for the reads of native descriptor {@code fd}, or null when {@code window} is 0. */
    static StridedReadAhead of(int fd, long window) {
        return window > 0 ? new StridedReadAhead(window, new KernelAdvice(fd)) : null;
    }

    /** Told before each read of {@code length} bytes at {@code offset}; called between the handle's enterNative and leaveNative. */
    void beforeRead(long offset, int length) {
        long s = offset - lastOffset;
        boolean first = lastOffset < 0;
        lastOffset = offset;
        if (first || s != stride) {
            stride = s;
            steady = first ? 0 : 1;   // strides seen in a row
            aheadUntil = 0;   // a new pattern, or a new pass over the file: what was asked for before says nothing
            return;
        }
        if (++steady < STEADY || s <= length || s > (long) length * MAX_SPREAD || s > window) return;
        if (offset + window / 2 < aheadUntil) return;
        long from = Math.max(offset + length, aheadUntil);
        long to = offset + window;
        aheadUntil = to;
        advice.willNeed(from, to - from);
    }

}
