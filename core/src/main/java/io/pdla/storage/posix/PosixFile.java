package io.pdla.storage.posix;

import io.pdla.access.ExtentList;
import io.pdla.storage.ChannelRangeLock;
import io.pdla.storage.Layout;
import io.pdla.storage.MemoryMapping;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.RangeLock;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A POSIX file. With direct I/O requested, a second channel is opened with {@code O_DIRECT}; a request
 * whose offset, length and buffer are all aligned to the file system's block size goes through it, any
 * other request through the ordinary channel. That keeps MPI semantics (any offset, any length) while
 * large aligned transfers, the ones O_DIRECT is for, skip the page cache.
 *
 * <p>Without direct I/O, and where {@link NativePosix} is loaded, the file is opened a second time by the
 * native library: reads into and writes from heap arrays go through that descriptor ({@code pread}/{@code pwrite}
 * straight into the array: one copy per byte), everything else (direct buffers, read-only heap buffers, size,
 * sync, locks) through the channel. Both descriptors are the same open file to the kernel's page cache.
 */
final class PosixFile implements StorageFile, MemoryMapping {
    private final URI uri;
    private final Path path;
    private final FileChannel channel;
    private final FileChannel direct;
    private final int alignment;
    /** Reads into heap memory of a file opened read-only without direct I/O; else null. */
    private final MappedReads mapped;
    /** Large fills through a mapping, for a file opened for writing without direct I/O; else null. */
    private final MappedWrites mappedWrites;
    /** The native library's descriptor of the file, or -1 when heap arrays go through the channel. */
    private final int fd;
    private final boolean nativeReads;
    private final boolean nativeWrites;
    /**
     * Native calls in progress, with the sign bit set once closing: {@link #close} waits for them before it closes
     * {@link #fd}, so a call racing a close never reads or writes a file that got the same descriptor number.
     */
    private final AtomicInteger nativeUsers = new AtomicInteger();
    /** Byte-range locks held by {@link #fd}'s open file description; null when the handle cannot write or has no {@link #fd}. */
    private final DescriptionLocks locks;
    /** Read-ahead of strided reads through {@link #fd}; null when off or without {@link #fd}. */
    private final StridedReadAhead readAhead;
    /** The file's key and read-ahead frontier among this JVM's handles, when {@link #readAhead} uses one; else null. */
    private final Object fileKey;
    private final ReadAheadFrontiers.Frontier frontier;

    private PosixFile(URI uri, Path path, FileChannel channel, FileChannel direct, int alignment, MappedReads mapped,
                      int fd, OpenOptions o, long readAheadWindow) {
        this.uri = uri;
        this.path = path;
        this.channel = channel;
        this.direct = direct;
        this.alignment = alignment;
        this.mapped = mapped;
        this.mappedWrites = direct == null && o.write() ? new MappedWrites(channel, path) : null;
        this.fd = fd;
        this.nativeReads = fd >= 0 && o.read();
        this.nativeWrites = fd >= 0 && o.write();
        this.locks = nativeWrites ? new DescriptionLocks(this, path) : null;
        Object key = nativeReads && readAheadWindow > 0 ? fileKey(path) : null;
        this.fileKey = key;
        this.frontier = key == null ? null : ReadAheadFrontiers.join(key);
        this.readAhead = !nativeReads || readAheadWindow <= 0 ? null
                : new StridedReadAhead(readAheadWindow, frontier == null ? null : frontier.until);
    }

    /** {@code readAheadWindow}: see {@link StridedReadAhead}; 0 leaves read-ahead to the kernel. */
    static PosixFile open(URI uri, Path path, OpenOptions o, boolean directIo, boolean nativeIo, long readAheadWindow) throws IOException {
        return open(uri, path, o, directIo, false, nativeIo, readAheadWindow);
    }

    /** {@code directOptional}: where O_DIRECT is refused (by the JVM or the file system), the file is opened without it. */
    static PosixFile open(URI uri, Path path, OpenOptions o, boolean directIo, boolean directOptional, boolean nativeIo,
                          long readAheadWindow) throws IOException {
        Set<OpenOption> opts = new HashSet<>();
        if (o.read()) opts.add(StandardOpenOption.READ);
        if (o.write()) opts.add(StandardOpenOption.WRITE);
        if (o.exclusive()) opts.add(StandardOpenOption.CREATE_NEW);
        else if (o.create()) opts.add(StandardOpenOption.CREATE);
        FileChannel ch = FileChannel.open(path, opts);
        if (!directIo) return plain(uri, path, ch, o, nativeIo, readAheadWindow);
        try {
            Set<OpenOption> dopts = new HashSet<>(opts);
            dopts.remove(StandardOpenOption.CREATE_NEW);
            dopts.remove(StandardOpenOption.CREATE);
            dopts.add(com.sun.nio.file.ExtendedOpenOption.DIRECT);
            int align = Math.toIntExact(PosixDriver.blockSize(path));
            return new PosixFile(uri, path, ch, FileChannel.open(path, dopts), align, null, -1, o, 0);
        } catch (UnsupportedOperationException e) {
            if (directOptional) return plain(uri, path, ch, o, nativeIo, readAheadWindow);
            ch.close();
            throw new StorageException(StorageException.Reason.UNSUPPORTED,
                    path + ": direct I/O (hint " + PosixDriver.HINT_DIRECT_IO + ") not supported by this JVM: " + e.getMessage(), e);
        } catch (IOException e) {
            if (directOptional && PosixDriver.directIoRefused(e)) return plain(uri, path, ch, o, nativeIo, readAheadWindow);
            ch.close();
            // a file system without O_DIRECT refuses the open with EINVAL; any other failure (permissions, a vanished
            // file, an I/O error) is that failure, not "unsupported"
            if (PosixDriver.directIoRefused(e)) {
                throw new StorageException(StorageException.Reason.UNSUPPORTED, path + ": direct I/O (hint "
                        + PosixDriver.HINT_DIRECT_IO + ") not supported by this file system (open with O_DIRECT: EINVAL)", e);
            }
            throw PosixDriver.translate(e, path);
        }
    }

    private static PosixFile plain(URI uri, Path path, FileChannel ch, OpenOptions o, boolean nativeIo, long readAheadWindow) throws IOException {
        int fd = -1;
        try {
            if (nativeIo) fd = NativePosix.open(path, o.read(), o.write());
            return new PosixFile(uri, path, ch, null, 0, o.write() ? null : MappedReads.of(ch), fd, o, readAheadWindow);
        } catch (IOException e) {
            ch.close();
            if (fd >= 0) NativePosix.close(fd, path);
            throw e;
        }
    }

    @Override
    public URI uri() {
        return uri;
    }

    /** The POSIX store maps every file; each range may still decline (see {@link MappedReads}, {@link MappedWrites}). */
    @Override
    public java.util.Optional<MemoryMapping> memoryMapping() {
        return java.util.Optional.of(this);
    }

    @Override
    public ByteBuffer mappedView(long offset, int length) {
        return mapped == null ? null : mapped.view(offset, length);
    }

    @Override
    public boolean writeMapped(long offset, int length, MappedFill fill) throws IOException {
        return mappedWrites != null && mappedWrites.write(offset, length, fill);
    }

    @Override
    public int read(long offset, ByteBuffer dst) throws IOException {
        if (mapped != null) {
            int n = mapped.read(offset, dst);
            if (n >= 0) return n;
        }
        if (nativeReads && dst.hasArray() && offset >= 0 && enterNative()) {
            try {
                int pos = dst.position();
                int n = nativeRead(dst.array(), dst.arrayOffset() + pos, dst.remaining(), offset);
                dst.position(pos + n);
                return n;
            } finally {
                nativeUsers.decrementAndGet();
            }
        }
        if (needsBounce(offset, dst)) {
            ByteBuffer b = bounce(dst.remaining());
            int n = read(offset, b);
            dst.put(b.flip());
            return n;
        }
        FileChannel ch = pick(offset, dst);
        int total = 0;
        try {
            while (dst.hasRemaining()) {
                int n = ch.read(dst, offset + total);
                if (n < 0) break;
                total += n;
            }
        } catch (IOException e) {
            throw PosixDriver.translate(e, path);
        }
        return total;
    }

    @Override
    public void write(long offset, ByteBuffer src) throws IOException {
        if (nativeWrites && src.hasArray() && offset >= 0 && enterNative()) {
            try {
                int pos = src.position();
                NativePosix.pwrite(fd, src.array(), src.arrayOffset() + pos, src.remaining(), offset, path);
                src.position(src.limit());
                return;
            } finally {
                nativeUsers.decrementAndGet();
            }
        }
        if (needsBounce(offset, src)) {
            ByteBuffer b = bounce(src.remaining());
            b.put(src.duplicate()).flip();
            write(offset, b);
            src.position(src.limit());
            return;
        }
        FileChannel ch = pick(offset, src);
        long pos = offset;
        try {
            while (src.hasRemaining()) pos += ch.write(src, pos);
        } catch (NonWritableChannelException e) {
            throw new StorageException(StorageException.Reason.READ_ONLY, path + ": opened read-only");
        } catch (IOException e) {
            throw PosixDriver.translate(e, path);
        }
    }

    /**
     * A list of pieces into a heap array in one crossing into native code (one {@code pread} per piece: POSIX has
     * no call taking several file offsets). A read-only file keeps the per-piece path, where pieces of
     * {@link MappedReads#MIN_BYTES} or more come from its mapping.
     */
    @Override
    public long readv(ExtentList extents, ByteBuffer dst) throws IOException {
        if (!nativeReads || mapped != null || !dst.hasArray() || !fits(extents, dst) || !enterNative()) {
            return StorageFile.super.readv(extents, dst);
        }
        try {
            if (extents.size() == 1) { // the everyday call: one piece, no lists to build
                int pos = dst.position();
                int got = nativeRead(dst.array(), dst.arrayOffset() + pos, (int) extents.length(0), extents.offset(0));
                dst.position(pos + got);
                return got;
            }
            int n = extents.size();
            long[][] pieces = columns(extents);
            int pos = dst.position();
            long got = NativePosix.preadList(fd, dst.array(), dst.arrayOffset() + pos, pieces[0], pieces[1], n, path);
            dst.position(pos + (int) got);
            return got;
        } finally {
            nativeUsers.decrementAndGet();
        }
    }

    @Override
    public long writev(ExtentList extents, ByteBuffer src) throws IOException {
        if (!nativeWrites || !src.hasArray() || !fits(extents, src) || !enterNative()) {
            return StorageFile.super.writev(extents, src);
        }
        try {
            if (extents.size() == 1) {
                int pos = src.position();
                NativePosix.pwrite(fd, src.array(), src.arrayOffset() + pos, (int) extents.length(0), extents.offset(0), path);
                src.position(pos + (int) extents.length(0));
                return extents.length(0);
            }
            int n = extents.size();
            long[][] pieces = columns(extents);
            int pos = src.position();
            NativePosix.pwriteList(fd, src.array(), src.arrayOffset() + pos, pieces[0], pieces[1], n, path);
            src.position(pos + (int) extents.totalBytes());
            return extents.totalBytes();
        } finally {
            nativeUsers.decrementAndGet();
        }
    }

    @Override
    public int readArray(long offset, byte[] dst, int dstOffset, int length) throws IOException {
        // read's order, without the buffer read takes: the mapping's large reads, then one pread
        if (mapped != null) {
            int n = mapped.readArray(offset, dst, dstOffset, length);
            if (n >= 0) return n;
        }
        if (!nativeReads || offset < 0 || !enterNative()) return StorageFile.super.readArray(offset, dst, dstOffset, length);
        try {
            return nativeRead(dst, dstOffset, length, offset);
        } finally {
            nativeUsers.decrementAndGet();
        }
    }

    /** One read through {@link #fd}, with the strided read-ahead's window when one is due; between enterNative and leaveNative. */
    private int nativeRead(byte[] a, int offset, int length, long position) throws IOException {
        StridedReadAhead ra = readAhead;
        if (ra == null || !ra.due(position, length)) return NativePosix.pread(fd, a, offset, length, position, path);
        long r = NativePosix.preadAhead(fd, a, offset, length, position, ra.askFrom(), ra.askLength(), ra.streaming(), path);
        if ((r & NativePosix.ASKED_AHEAD) != 0) ra.asked();
        else ra.cached();
        if ((r & NativePosix.NO_NOWAIT) != 0) ra.stop();   // each due read would cost a second system call for nothing
        return (int) (r & ~(NativePosix.ASKED_AHEAD | NativePosix.NO_NOWAIT));
    }

    @Override
    public void writeArray(long offset, byte[] src, int srcOffset, int length) throws IOException {
        if (!nativeWrites || offset < 0 || !enterNative()) {
            StorageFile.super.writeArray(offset, src, srcOffset, length);
            return;
        }
        try {
            NativePosix.pwrite(fd, src, srcOffset, length, offset, path);
        } finally {
            nativeUsers.decrementAndGet();
        }
    }

    /** The list's offsets and lengths as the two arrays the native list calls take. */
    private static long[][] columns(ExtentList extents) {
        int n = extents.size();
        long[] offsets = new long[n], lengths = new long[n];
        for (int i = 0; i < n; i++) {
            offsets[i] = extents.offset(i);
            lengths[i] = extents.length(i);
        }
        return new long[][]{offsets, lengths};
    }

    /** Whether the buffer holds every byte of the list and no piece starts before 0; else the generic path says what is wrong. */
    private static boolean fits(ExtentList extents, ByteBuffer buf) {
        if (extents.totalBytes() > buf.remaining()) return false;
        for (int i = 0; i < extents.size(); i++) if (extents.offset(i) < 0) return false;
        return true;
    }

    /** Counts a native call in, unless the file is closing (then the channel path reports the closed file). */
    boolean enterNative() {
        int u;
        do {
            u = nativeUsers.get();
            if (u < 0) return false;
        } while (!nativeUsers.compareAndSet(u, u + 1));
        return true;
    }

    /** Ends a native call counted in by {@link #enterNative}. */
    void leaveNative() {
        nativeUsers.decrementAndGet();
    }

    /** The native descriptor; valid between {@link #enterNative} and {@link #leaveNative}. */
    int fd() {
        return fd;
    }

    private FileChannel pick(long offset, ByteBuffer buf) {
        if (direct == null || !buf.isDirect()) return channel;
        boolean aligned = offset % alignment == 0 && buf.remaining() % alignment == 0
                && buf.alignmentOffset(buf.position(), alignment) == 0;
        return aligned ? direct : channel;
    }

    /**
     * An aligned request into memory O_DIRECT cannot take (a heap array, an unaligned buffer) goes through an
     * aligned bounce buffer, so the hint means what it says whatever the caller's memory: aligned requests
     * bypass the page cache. One copy, as the JDK makes anyway for heap buffers.
     */
    private boolean needsBounce(long offset, ByteBuffer buf) {
        if (direct == null || buf.remaining() == 0 || buf.remaining() > MAX_BOUNCE) return false;
        if (offset % alignment != 0 || buf.remaining() % alignment != 0) return false;
        return !buf.isDirect() || buf.alignmentOffset(buf.position(), alignment) != 0;
    }

    private static final int MAX_BOUNCE = 16 << 20;
    private final ThreadLocal<ByteBuffer> bounce = new ThreadLocal<>();

    private ByteBuffer bounce(int bytes) {
        ByteBuffer b = bounce.get();
        if (b == null || b.capacity() < bytes) {
            int cap = Math.max(bytes, 1 << 20);
            b = ByteBuffer.allocateDirect(cap + alignment).alignedSlice(alignment);
            bounce.set(b);
        }
        return b.clear().limit(bytes);
    }

    /**
     * The descriptors this handle opened: the channel, and the native library's (heap-array reads and writes) or the
     * O_DIRECT channel's. Each is an {@code open} of the file as the kernel and a POSIX-level tracer see it; they share
     * the page cache, and only the one a request goes through keeps read-ahead state for it.
     */
    @Override
    public int storeOpens() {
        return 1 + (fd >= 0 ? 1 : 0) + (direct != null ? 1 : 0);
    }

    /** Whether this file routes aligned direct buffers around the page cache. */
    boolean directIo() {
        return direct != null;
    }

    @Override
    public boolean bypassesCache() {
        return direct != null;
    }

    @Override
    public long size() throws IOException {
        return channel.size();
    }

    @Override
    public void setSize(long size) throws IOException {
        try {
            long current = channel.size();
            if (size < current) {
                channel.truncate(size);
            } else if (size > current) {
                channel.write(ByteBuffer.allocate(1), size - 1);
            }
        } catch (NonWritableChannelException e) {
            throw new StorageException(StorageException.Reason.READ_ONLY, path + ": opened read-only, cannot set size");
        } catch (IOException e) {
            throw PosixDriver.translate(e, path);
        }
    }

    /**
     * Allocates for real (MPI_File_preallocate): the JDK has no fallocate, so the bytes past the end are
     * written as zeros, which the file system must back with blocks; a sparse setSize would leave a hole.
     */
    @Override
    public void preallocate(long size) throws IOException {
        try {
            long at = channel.size();
            ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(1 << 20, Math.max(0, size - at)));
            while (at < size) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), size - at));
                while (zeros.hasRemaining()) at += channel.write(zeros, at);
            }
        } catch (NonWritableChannelException e) {
            throw new StorageException(StorageException.Reason.READ_ONLY, path + ": opened read-only, cannot preallocate");
        } catch (IOException e) {
            throw PosixDriver.translate(e, path);
        }
    }

    @Override
    public void sync() throws IOException {
        try {
            channel.force(true);
        } catch (IOException e) {
            throw PosixDriver.translate(e, path);
        }
    }

    @Override
    public Layout layout() {
        return PosixDriver.unstriped(path);
    }

    @Override
    public RangeLock lock(long offset, long length) throws IOException {
        if (locks != null && offset >= 0 && length > 0 && offset + length > 0) {
            RangeLock held = locks.acquire(offset, length);
            if (held != null) return held;
        }
        return ChannelRangeLock.acquire(channel, offset, length, path.toString());
    }

    @Override
    public void close() throws IOException {
        if (frontier != null && closedFrontier.compareAndSet(false, true)) ReadAheadFrontiers.leave(fileKey, frontier);
        if (mapped != null) mapped.close();
        try {
            closeNative();
        } finally {
            try {
                channel.close();
            } finally {
                if (direct != null) direct.close();
            }
        }
    }

    private final java.util.concurrent.atomic.AtomicBoolean closedFrontier = new java.util.concurrent.atomic.AtomicBoolean();

    /** The file system's key of {@code path} (device and inode), or null when it has none or cannot say. */
    private static Object fileKey(Path path) {
        try {
            return Files.readAttributes(path, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
        } catch (IOException e) {
            return null;   // read-ahead then stays this handle's own
        }
    }

    private void closeNative() throws IOException {
        if (fd < 0) return;
        int u;
        do {
            u = nativeUsers.get();
            if (u < 0) return; // closed before
        } while (!nativeUsers.compareAndSet(u, u | Integer.MIN_VALUE));
        while ((nativeUsers.get() & Integer.MAX_VALUE) != 0) Thread.yield();
        NativePosix.close(fd, path);
    }

    /** Whether heap-array reads and writes of this handle go through {@link NativePosix}. */
    boolean nativeIo() {
        return fd >= 0;
    }
}
