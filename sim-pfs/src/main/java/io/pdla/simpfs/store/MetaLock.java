package io.pdla.simpfs.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Mutual exclusion for namespace changes of one sim-pfs root, across threads, class loaders (MPJ multicore
 * ranks) and JVMs (niodev ranks). A file lock covers other JVMs; inside one JVM a second lock on the same
 * file throws {@link OverlappingFileLockException}, which here just means "someone in this JVM holds it":
 * we wait and retry, so no static state is needed.
 */
final class MetaLock {
    private final Path file;

    MetaLock(Path file) {
        this.file = file;
    }

    interface Action<T> {
        T run() throws IOException;
    }

    <T> T locked(Action<T> action) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = acquire(ch);
            try {
                return action.run();
            } finally {
                lock.release();
            }
        }
    }

    private static FileLock acquire(FileChannel ch) throws IOException {
        long sleepNanos = 50_000;
        while (true) {
            try {
                return ch.lock();
            } catch (OverlappingFileLockException busy) {
                java.util.concurrent.locks.LockSupport.parkNanos(sleepNanos);
                sleepNanos = Math.min(sleepNanos * 2, 5_000_000);
                if (Thread.interrupted()) throw new java.io.InterruptedIOException("interrupted waiting for the sim-pfs metadata lock");
            }
        }
    }
}
