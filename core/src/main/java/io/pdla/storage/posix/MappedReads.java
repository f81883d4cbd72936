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
 *
 * <p>{@link #close} unmaps at once instead of leaving it to the garbage collector: a mapping keeps its file's
 * pages referenced, so a file deleted after reading stays in the page cache, dirty pages and all, until a GC
 * happens to run. Measured with {@code pdla bench ior -np 4 -b 16m -t 1m -s 4 -w -r} (each iteration writes,
 * reads and deletes 256 MiB): up to 12 deleted files stayed mapped and 1.1 GB dirty, and writes ran at 77-93 MiB/s
 * until a GC unmapped them, then at 1,930 MiB/s; a job whose heap happened to collect more often wrote up to
 * 5x faster. Unmapping while another thread copies from the mapping would crash the JVM, so reads hold a
 * read lock that close waits for, and a mapping whose views were handed out ({@link #view}: other ranks may
 * still copy from them) is left to the collector as before.
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
    private static final int UNDECIDED = 0, MAPPING = 1, PREAD = 2;

    private final FileChannel channel;
    private final long size;
    private final MappedByteBuffer[] chunks;
    private volatile boolean broken;
    /** Held by each copy out of the mapping; {@link #close} takes it exclusively before unmapping. */
    private final java.util.concurrent.locks.ReentrantReadWriteLock inUse = new java.util.concurrent.locks.ReentrantReadWriteLock();
    private boolean closed;
    private volatile boolean viewsHandedOut;
    /**
     * Whether reads copy from the mapping, decided by this handle's first read of {@link #MIN_BYTES} or more: when its
     * pages are already in the page cache the file is warm, and {@code pread} (one copy too) costs less than faulting
     * a fresh mapping in and unmapping it at close; when they are not, the mapping's read-around (the device's whole
     * read-ahead window per fault) fills them faster than {@code pread}'s read-ahead. Measured on this project's VM
     * (read_ahead_kb 8192), 4 ranks, 256 MiB per phase: warm 256 KiB strided 18.3-18.8 GB/s mapped, 21.7-28.1 with
     * pread (close 5.5-7.7 ms against 2.4-5.2: the unmapping); cold 1 MiB segmented 1.6-2.2 GB/s mapped, 1.0 with
     * pread; cold 256 KiB 1.5-1.7 against 1.0-2.2. 0: not decided yet, 1: mapping, 2: pread.
     */
    private volatile int use;

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
        if (!dst.hasArray()) return -1;
        int pos = dst.position();
        int n = readArray(offset, dst.array(), dst.arrayOffset() + pos, dst.remaining());
        if (n > 0) dst.position(pos + n);
        return n;
    }

    /** {@link #read} into {@code dst[dstOffset, dstOffset + len)}: the everyday call, with no buffer to make. */
    int readArray(long offset, byte[] dst, int dstOffset, int len) {
        if (use == PREAD) return -1;
        int chunk = chunkCovering(offset, len);
        if (chunk < 0) return -1;
        inUse.readLock().lock();
        try {
            if (closed) return -1;   // the channel's read reports the closed file
            MappedByteBuffer m = chunk(chunk);
            if (use == UNDECIDED) {
                use = m.slice((int) (offset - chunk * CHUNK), len).isLoaded() ? PREAD : MAPPING;
                if (use == PREAD) return -1;
            }
            m.get((int) (offset - chunk * CHUNK), dst, dstOffset, len);
            return len;
        } catch (IOException | InternalError e) {
            broken = true; // cannot map, or the file shrank behind our back: the channel reads from now on
            return -1;
        } finally {
            inUse.readLock().unlock();
        }
    }

    /**
     * Unmaps now, once no read is copying from the mapping, unless views were handed out (then the collector
     * unmaps when the last view is gone). Reads after close return -1.
     */
    void close() {
        inUse.writeLock().lock();
        try {
            if (closed) return;
            closed = true;
            if (viewsHandedOut) return;
            for (int i = 0; i < chunks.length; i++) {
                if (chunks[i] != null) Unmapper.unmap(chunks[i]);
                chunks[i] = null;
            }
        } finally {
            inUse.writeLock().unlock();
        }
    }

    /** A read-only view of the mapped bytes at {@code offset}, or null when the mapping does not cover them in one chunk. */
    ByteBuffer view(long offset, int len) {
        int chunk = chunkCovering(offset, len);
        if (chunk < 0) return null;
        inUse.readLock().lock();
        try {
            if (closed) return null;
            viewsHandedOut = true;   // before the view exists: close must not unmap under it
            return chunk(chunk).slice((int) (offset - chunk * CHUNK), len).asReadOnlyBuffer();
        } catch (IOException | InternalError e) {
            broken = true;
            return null;
        } finally {
            inUse.readLock().unlock();
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
