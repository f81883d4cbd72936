package io.pdla.storage.posix;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Another process's view of a file's byte-range locks: tries, without waiting, an exclusive fcntl lock of
 * {@code length} bytes at {@code offset} and prints {@code granted} or {@code refused}. Run by {@link PosixDescriptionLocksTest}.
 */
public final class LockProbeMain {
    private LockProbeMain() {
    }

    public static void main(String[] args) throws Exception {
        try (FileChannel ch = FileChannel.open(Path.of(args[0]), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock l = ch.tryLock(Long.parseLong(args[1]), Long.parseLong(args[2]), false);
            System.out.println(l == null ? "refused" : "granted");
            if (l != null) l.release();
        }
    }
}
