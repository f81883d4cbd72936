package io.pdla.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.OverlappingFileLockException;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link RangeLock} held as an exclusive {@link FileLock} on a channel: what the drivers that keep bytes
 * in local files use for {@link StorageFile#lock}.
 *
 * <p>Across processes the operating system makes {@link FileChannel#lock} wait. Inside one JVM it does not:
 * the JDK keeps one lock table per JVM and file, and an overlapping request from any channel (another rank
 * of MPJ's multicore device, another handle, another thread) throws {@link OverlappingFileLockException}.
 * That exception only means "held in this JVM", so we wait and retry. The JDK's table is the one place all
 * ranks of a JVM share whether or not they share pdla's core: with {@code PDLA_SHARED_CLASSES=false} each rank loads
 * pdla with its own class loader, and a queue of ours would be per rank.
 *
 * <p>Known limit (the JDK's {@code FileLock} documentation): on Linux, closing any channel of a file drops
 * the process's operating-system locks on it, so while another handle of the same file in this JVM closes,
 * a lock held here no longer excludes other processes; inside the JVM it still excludes.
 */
public final class ChannelRangeLock implements RangeLock {
    private static final long MAX_PAUSE_NANOS = 2_000_000;

    private final FileLock lock;
    private final long offset;
    private final long length;

    private ChannelRangeLock(FileLock lock, long offset, long length) {
        this.lock = lock;
        this.offset = offset;
        this.length = length;
    }

    /**
     * Waits for and takes an exclusive lock on {@code [offset, offset+length)} of {@code channel}, which
     * must be open for writing. {@code what} names the file in errors.
     */
    public static ChannelRangeLock acquire(FileChannel channel, long offset, long length, String what) throws IOException {
        if (offset < 0 || length <= 0 || offset + length < 0) {
            throw new StorageException(StorageException.Reason.BAD_ARGUMENT, what + ": cannot lock " + length + " bytes at " + offset);
        }
        long pause = 10_000;
        while (true) {
            try {
                return new ChannelRangeLock(channel.lock(offset, length, false), offset, length);
            } catch (OverlappingFileLockException heldInThisJvm) {
                LockSupport.parkNanos(pause);
                pause = Math.min(MAX_PAUSE_NANOS, pause * 2);
                if (Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                    throw new StorageException(StorageException.Reason.IO, what + ": interrupted waiting for the lock on "
                            + length + " bytes at " + offset);
                }
            } catch (NonWritableChannelException e) {
                throw new StorageException(StorageException.Reason.READ_ONLY, what + ": an exclusive lock needs the file open for writing");
            }
        }
    }

    @Override
    public long offset() {
        return offset;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public void close() throws IOException {
        if (lock.isValid()) lock.release();
    }
}
