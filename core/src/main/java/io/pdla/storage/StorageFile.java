package io.pdla.storage;

import io.pdla.access.ExtentList;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;

/**
 * An open file of some storage driver. Positional only: file pointers, views and collective logic live in
 * the shim above, as in ROMIO's ADIO split. Implementations must be safe for concurrent positional calls
 * on disjoint ranges (several nonblocking requests, several ranks of one JVM).
 *
 * <p>Drivers implement the two contiguous primitives; the vectored forms have generic defaults that a
 * driver overrides only when it can do better (one RPC per list, server-side sieving...).
 */
public interface StorageFile extends Closeable {
    URI uri();

    /**
     * Reads up to {@code dst.remaining()} bytes starting at {@code offset} into {@code dst}, advancing its
     * position. Returns the number of bytes read, which is short only at end-of-file.
     */
    int read(long offset, ByteBuffer dst) throws IOException;

    /** Writes all of {@code src.remaining()} bytes at {@code offset}, advancing its position. */
    void write(long offset, ByteBuffer src) throws IOException;

    long size() throws IOException;

    /** Sets the size: truncates, or extends with zeros. */
    void setSize(long size) throws IOException;

    /**
     * The file's memory mappings, when its store can map it (see {@link MemoryMapping}); empty otherwise. A
     * decorator answers with the file it wraps, so the engine asks for the capability, whatever is around it.
     */
    default java.util.Optional<MemoryMapping> memoryMapping() {
        return java.util.Optional.empty();
    }

    /**
     * The driver's own file under any generic decorators the shim put around it (data sieving): what a
     * driver-specific interceptor looks at to recognise its driver's files, and what takes a byte-range lock that a
     * decorator's own locking would wait for.
     */
    default StorageFile unwrapped() {
        return this;
    }

    /**
     * Whether this handle's requests reach the device as they are made, with no cache in between to merge small
     * ones or read ahead (POSIX opened with direct I/O). Collective I/O then gains from gathering even requests that
     * do not interleave into fewer, larger ones. A decorator answers with the file it wraps.
     */
    default boolean bypassesCache() {
        return false;
    }

    /**
     * How many times this handle opened the file in its store: what a tool below pdla counts as opens (Darshan's
     * POSIX module counts every {@code open} of the C library). One, unless the driver keeps several descriptors.
     */
    default int storeOpens() {
        return 1;
    }

    /** Makes written data durable. */
    void sync() throws IOException;

    /**
     * Reads the extents in list order into consecutive bytes of {@code dst}. Stops at the first extent
     * cut short by end-of-file, as a contiguous read would. Returns the bytes read.
     */
    default long readv(ExtentList extents, ByteBuffer dst) throws IOException {
        long total = 0;
        int limit = dst.limit();
        try {
            for (int i = 0; i < extents.size(); i++) {
                long len = extents.length(i);
                dst.limit(Math.toIntExact(dst.position() + len));
                long got = 0;
                while (got < len) {
                    int n = read(extents.offset(i) + got, dst);
                    if (n <= 0) break;
                    got += n;
                }
                total += got;
                if (got < len) break;
            }
        } finally {
            dst.limit(limit);
        }
        return total;
    }

    /** Writes consecutive bytes of {@code src} to the extents, in list order. Returns the bytes written. */
    default long writev(ExtentList extents, ByteBuffer src) throws IOException {
        int limit = src.limit();
        try {
            for (int i = 0; i < extents.size(); i++) {
                src.limit(Math.toIntExact(src.position() + extents.length(i)));
                write(extents.offset(i), src);
            }
        } finally {
            src.limit(limit);
        }
        return extents.totalBytes();
    }

    /**
     * {@link #readv} of one extent into {@code dst[dstOffset, dstOffset+length)}: the everyday independent call
     * (a contiguous view, a byte array, no interceptor), which the shim hands over without building an extent list
     * and a buffer for it. Until the JIT has compiled a job's path, each object and call of it costs microseconds per
     * request, in every multicore rank's own copy. A driver that can read straight into the array overrides it; a
     * decorator passes it on with its own rules applied. Returns the bytes read, short only at end-of-file.
     */
    default int readArray(long offset, byte[] dst, int dstOffset, int length) throws IOException {
        return (int) readv(ExtentList.of(offset, length), ByteBuffer.wrap(dst, dstOffset, length).slice());
    }

    /** {@link #writev} of one extent from {@code src[srcOffset, srcOffset+length)}; see {@link #readArray}. */
    default void writeArray(long offset, byte[] src, int srcOffset, int length) throws IOException {
        writev(ExtentList.of(offset, length), ByteBuffer.wrap(src, srcOffset, length).slice());
    }

    /**
     * The open file's layout, with its server counts: what the collective-I/O engine reads
     * {@link Layout#stripeSize()} and {@link Layout#serverCount()} from. Unstriped by default.
     */
    default Layout layout() throws IOException {
        return Layout.unstriped(Layout.DEFAULT_BLOCK);
    }

    /**
     * Takes an exclusive lock on {@code [offset, offset+length)} of the file, waiting while another
     * handle, thread or process holds an overlapping one; closing the returned lock releases it. Requires
     * {@link Capability#BYTE_RANGE_LOCK}; without it the request fails with {@code UNSUPPORTED}.
     */
    default RangeLock lock(long offset, long length) throws IOException {
        throw new StorageException(StorageException.Reason.UNSUPPORTED, uri() + ": driver cannot lock byte ranges");
    }

    /** Makes sure the file has at least {@code size} bytes of storage (MPI_File_preallocate). */
    default void preallocate(long size) throws IOException {
        if (size() < size) setSize(size);
    }
}
