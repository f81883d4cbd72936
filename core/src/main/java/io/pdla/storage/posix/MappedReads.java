package io.pdla.storage.posix;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads of a read-only file into heap memory served from a memory mapping of the file: one copy per byte
 * (page cache to the caller's array), where {@link FileChannel#read} into a heap buffer makes two (the
 * kernel into a temporary direct buffer, then into the array) and a system call. Covers the bytes that
 * existed when the file was opened, in mappings of up to {@link #CHUNK} bytes made on first use; a read
 * past them, across two mappings, or smaller than {@link #MIN_BYTES}, is the caller's to do through the channel.
 *
 * <p>Only for files this handle cannot write, so nothing of ours truncates under the mapping; a file
 * truncated by someone else makes the JDK raise {@link InternalError} on access (SIGBUS), after which
 * every read goes through the channel again.
 */
final class MappedReads {
    static final long CHUNK = 1L << 30;
    /**
     * Smaller reads take the channel: a mapped read pays a page fault per 64 KiB it touches first (the
     * kernel's fault-around), four rank threads fault in their own mappings, and with reads strided across
     * ranks that cost what the system call and copy save. Measured with `pdla bench ior -np 4 -r -w -i 3`
     * (loaded machine, read ratio to FileChannel without open/close): 64 KiB strided 0.58 mapped vs 0.68
     * through the channel, 256 KiB strided about even (0.71-0.90 vs 0.81-0.83), 1 MiB segmented 5.5-7.9 vs
     * 0.66-0.97. A single thread reading sequentially gains at every size (10-12 GB/s mapped, 1.2-1.5 GB/s
     * through the channel into a heap array).
     */
    static final int MIN_BYTES = 256 << 10;

    private final FileChannel channel;
    private final long size;
    private final MappedByteBuffer[] chunks;
    private volatile boolean broken;

    private MappedReads(FileChannel channel, long size) {
        this.channel = channel;
        this.size = size;
        this.chunks = new MappedByteBuffer[(int) ((size + CHUNK - 1) / CHUNK)];
    }

    /** Mapped reads of {@code channel}'s current bytes, or null when the file is empty. */
    static MappedReads of(FileChannel channel) throws IOException {
        long size = channel.size();
        return size == 0 ? null : new MappedReads(channel, size);
    }

    /**
     * Copies {@code dst.remaining()} bytes at {@code offset} into {@code dst} (a heap buffer) and returns
     * their number, or -1 when the mapping does not cover them all and the caller must read them itself.
     */
    int read(long offset, ByteBuffer dst) {
        int len = dst.remaining();
        int chunk = chunkCovering(offset, len);
        if (chunk < 0 || !dst.hasArray()) return -1;
        try {
            MappedByteBuffer m = chunk(chunk);
            int pos = dst.position();
            m.get((int) (offset - chunk * CHUNK), dst.array(), dst.arrayOffset() + pos, len);
            dst.position(pos + len);
            return len;
        } catch (IOException | InternalError e) {
            broken = true; // cannot map, or the file shrank behind our back: the channel reads from now on
            return -1;
        }
    }

    /** A read-only view of the mapped bytes at {@code offset}, or null when the mapping does not cover them in one chunk. */
    ByteBuffer view(long offset, int len) {
        int chunk = chunkCovering(offset, len);
        if (chunk < 0) return null;
        try {
            return chunk(chunk).slice((int) (offset - chunk * CHUNK), len).asReadOnlyBuffer();
        } catch (IOException | InternalError e) {
            broken = true;
            return null;
        }
    }

    /** The mapping chunk holding all of {@code [offset, offset + len)}, or -1 (too small, past the mapped bytes, across two chunks, broken). */
    private int chunkCovering(long offset, int len) {
        if (broken || len < MIN_BYTES || offset < 0 || offset > size - len) return -1;
        int chunk = (int) (offset / CHUNK);
        return (offset + len - 1) / CHUNK == chunk ? chunk : -1;
    }

    private MappedByteBuffer chunk(int index) throws IOException {
        MappedByteBuffer m = chunks[index];
        if (m == null) {
            synchronized (this) {
                m = chunks[index];
                if (m == null) {
                    long start = index * CHUNK;
                    m = channel.map(FileChannel.MapMode.READ_ONLY, start, Math.min(CHUNK, size - start));
                    chunks[index] = m;
                }
            }
        }
        return m;
    }
}
