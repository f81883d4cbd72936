package io.pdla.storage.posix;

import io.pdla.storage.RangeLock;
import io.pdla.storage.StorageException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Byte-range locks of one POSIX handle held by its native descriptor's open file description (Linux OFD locks,
 * {@code lock0} in {@code pdla_posix.c}) rather than through {@link java.nio.channels.FileChannel#lock}.
 *
 * <p>Why: the kernel then excludes every other descriptor, in this process or another, so each MPJ multicore rank's
 * handle waits in the kernel for another rank's lock instead of polling the JDK's in-JVM lock table, and closing
 * some other descriptor of the file (another handle of this JVM) no longer drops the lock for other processes, as it
 * does for the process-owned lock {@code FileChannel.lock} takes. It is also about half the work per lock, which
 * every unsieved write pays while write sieving may run (measured in {@code bench/RESULTS.md}).
 *
 * <p>The kernel does not tell threads sharing one description apart: two threads of the handle would both be granted
 * overlapping ranges, and the first to unlock would free the other's bytes. So a thread first waits here until no
 * other thread of this handle holds an overlapping range; the ranges the kernel holds for the description then never
 * overlap.
 */
final class DescriptionLocks {
    private final PosixFile file;
    private final Path path;
    /** Set once a kernel said it has no OFD locks (Linux before 3.15): every handle then takes channel locks at once. */
    private static volatile boolean kernelHasNone;
    /** [offset, end) of the ranges this handle's threads hold. */
    private final List<long[]> held = new ArrayList<>();

    DescriptionLocks(PosixFile file, Path path) {
        this.file = file;
        this.path = path;
    }

    /**
     * The lock of {@code [offset, offset + length)}, once no other holder's range overlaps it; null when this
     * kernel has no OFD locks or the handle is closing (the caller then takes a channel lock, which fails as it
     * should on a closed file).
     */
    RangeLock acquire(long offset, long length) throws IOException {
        if (kernelHasNone) return null;
        long end = offset + length;
        long[] range = {offset, end};
        enter(range);
        boolean locked = false;
        try {
            if (!file.enterNative()) return null;
            try {
                locked = NativePosix.lock(file.fd(), offset, length, path);
                if (!locked) kernelHasNone = true;
            } finally {
                file.leaveNative();
            }
            return locked ? new Held(range) : null;
        } finally {
            if (!locked) leave(range);
        }
    }

    private synchronized void enter(long[] range) throws IOException {
        while (overlapsHeld(range)) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StorageException(StorageException.Reason.IO, path + ": interrupted waiting for the lock on "
                        + (range[1] - range[0]) + " bytes at " + range[0]);
            }
        }
        held.add(range);
    }

    private synchronized void leave(long[] range) {
        held.remove(range);
        notifyAll();
    }

    private boolean overlapsHeld(long[] range) {
        for (long[] h : held) {
            if (h[0] < range[1] && range[0] < h[1]) return true;
        }
        return false;
    }

    /** One held range: unlocked in the kernel (unless the handle closed, which released it), then here. */
    private final class Held implements RangeLock {
        private final long[] range;
        private boolean released;

        Held(long[] range) {
            this.range = range;
        }

        @Override
        public long offset() {
            return range[0];
        }

        @Override
        public long length() {
            return range[1] - range[0];
        }

        @Override
        public void close() throws IOException {
            if (released) return;
            released = true;
            try {
                if (file.enterNative()) {
                    try {
                        NativePosix.unlock(file.fd(), range[0], range[1] - range[0], path);
                    } finally {
                        file.leaveNative();
                    }
                }
            } finally {
                leave(range);
            }
        }
    }
}
