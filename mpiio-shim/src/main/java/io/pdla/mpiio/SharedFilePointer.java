package io.pdla.mpiio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.LockSupport;

/**
 * The communicator's shared file pointer, kept as ROMIO does in a small side file guarded by a file
 * lock: any rank can fetch-and-add it without the others taking part. Under MPJ's multicore device the
 * ranks are threads of one JVM, where a second lock on the same file throws
 * {@link OverlappingFileLockException} instead of waiting, so we retry briefly.
 *
 * <p>The side file lives next to the file when the file is a local path (so ranks on several hosts that share
 * the file share its pointer, as with ROMIO), else, or when that directory is not writable, in the JVM's
 * temporary directory; hint {@code pdla_shared_fp_dir} moves it to a directory of the user's choice, which
 * all ranks must share.
 */
final class SharedFilePointer implements AutoCloseable {
    static final String HINT_DIR = "pdla_shared_fp_dir";

    private final Path path;
    private final long initial;
    private FileChannel channel;

    SharedFilePointer(Path path, long initial) {
        this.path = path;
        this.initial = initial;
    }

    /** Where the side file of the open with job-unique {@code token} of {@code uri} goes (see the class comment). */
    static Path sideFile(java.net.URI uri, java.util.Map<String, String> hints, String token) {
        String dir = hints.get(HINT_DIR);
        if (dir != null) return Path.of(dir).resolve("pdla-shfp-" + token);
        java.util.Optional<Path> local = localPath(uri);
        if (local.isPresent()) {
            Path file = local.get();
            Path parent = file.getParent();
            if (parent != null && Files.isDirectory(parent) && Files.isWritable(parent)) {
                return parent.resolve("." + file.getFileName() + ".pdla-shfp-" + token);
            }
        }
        return Path.of(System.getProperty("java.io.tmpdir")).resolve("pdla-shfp-" + token);
    }

    /** The file as a local path where its store keeps it as one (beside which the side file can go). */
    private static java.util.Optional<Path> localPath(java.net.URI uri) {
        try {
            return io.pdla.storage.StorageDrivers.installed().forUri(uri).localPath(uri);
        } catch (IllegalArgumentException noDriver) {
            return java.util.Optional.empty();
        }
    }

    Path path() {
        return path;
    }

    /** Atomically returns the pointer and advances it by {@code delta} etypes. */
    synchronized long fetchAndAdd(long delta) throws IOException {
        return update(old -> old + delta);
    }

    /** Sets the pointer, returning the old value. */
    synchronized long set(long value) throws IOException {
        return update(old -> value);
    }

    synchronized long get() throws IOException {
        return update(old -> old);
    }

    private long update(java.util.function.LongUnaryOperator f) throws IOException {
        FileChannel ch = channel();
        try (FileLock ignored = lock(ch)) {
            ByteBuffer b = ByteBuffer.allocate(8);
            int n = ch.read(b, 0);
            long old = n == 8 ? b.flip().getLong() : initial;
            long now = f.applyAsLong(old);
            if (now != old || n != 8) {
                ch.write(ByteBuffer.allocate(8).putLong(0, now), 0);
            }
            return old;
        }
    }

    private FileChannel channel() throws IOException {
        if (channel == null) {
            Files.createDirectories(path.getParent());
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        }
        return channel;
    }

    private static FileLock lock(FileChannel ch) throws IOException {
        while (true) {
            try {
                return ch.lock();
            } catch (OverlappingFileLockException busy) {
                LockSupport.parkNanos(20_000);
            }
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (channel != null) channel.close();
        channel = null;
    }

    void delete() throws IOException {
        close();
        Files.deleteIfExists(path);
    }
}
