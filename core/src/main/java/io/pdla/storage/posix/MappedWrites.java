package io.pdla.storage.posix;

import io.pdla.storage.StorageException;
import io.pdla.storage.MemoryMapping;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Writes of a large range filled through a memory mapping of it: one copy per byte (the caller's memory into
 * the page cache), where a write from the caller's memory through a window buffer makes two (into the
 * window, then the kernel's copy out of it). The collective engine's aggregators fill their write windows
 * this way, straight from the ranks' pieces; bytes the fill leaves alone keep the file's contents, so a
 * window with holes needs no read-modify-write and no lock.
 *
 * <p>Each fill gets its own mapping, unmapped before {@link #write} returns: a mapping left to the garbage
 * collector would keep address space (and, at {@code vm.max_map_count}, the ability to map) long after the
 * call. Only for handles opened for writing without direct I/O (a mapping is the page cache).
 */
final class MappedWrites {
    /**
     * Smaller ranges take the ordinary path: mapping and unmapping cost two system calls and a TLB shoot-down,
     * about what the saved copy of 256 KiB is worth here (4.0-4.5 GB/s copied and written against 4.8-5.0 GB/s
     * mapped for 16 MiB windows, one thread, ext4 page cache, 2026-11-26).
     */
    static final int MIN_BYTES = 256 << 10;

    private final FileChannel channel;
    private final Path path;
    private volatile boolean broken;

    MappedWrites(FileChannel channel, Path path) {
        this.channel = channel;
        this.path = path;
    }

    /**
     * Maps {@code [offset, offset + length)}, lets {@code fill} put bytes into it (buffer position 0 is
     * {@code offset}; the last byte of the range must be one it puts) and unmaps it. False, with nothing
     * written, when the range is too small, unmapping is not available, or mapping failed before.
     */
    boolean write(long offset, int length, MemoryMapping.MappedFill fill) throws IOException {
        if (broken || length < MIN_BYTES || offset < 0 || !Unmapper.AVAILABLE) return false;
        MappedByteBuffer m;
        try {
            growTo(offset + length);
            m = channel.map(FileChannel.MapMode.READ_WRITE, offset, length);
        } catch (IOException | UnsupportedOperationException e) {
            broken = true; // this file cannot be mapped (a file system without mmap): the ordinary path from now on
            return false;
        }
        try {
            fill.fill(m);
            return true;
        } catch (InternalError e) {
            // SIGBUS: the file was truncated under the mapping by someone else
            broken = true;
            throw new StorageException(StorageException.Reason.IO,
                    path + ": the file shrank while bytes " + offset + "-" + (offset + length) + " were being written through a mapping", e);
        } finally {
            Unmapper.unmap(m);
        }
    }

    /**
     * Makes the file at least {@code end} bytes long without ever shortening it: FileChannel.map would extend it
     * with ftruncate, which shrinks a file another aggregator has grown meanwhile. The zero written at
     * {@code end - 1} belongs to the caller's range, whose fill overwrites it.
     */
    private void growTo(long end) throws IOException {
        if (channel.size() >= end) return;
        ByteBuffer zero = ByteBuffer.allocate(1);
        while (zero.hasRemaining()) channel.write(zero, end - 1);
    }
}
