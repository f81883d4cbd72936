package io.pdla.storage.posix;

import io.pdla.storage.ChannelRangeLock;
import io.pdla.storage.Layout;
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

/**
 * A POSIX file. With direct I/O requested, a second channel is opened with {@code O_DIRECT}; a request
 * whose offset, length and buffer are all aligned to the file system's block size goes through it, any
 * other request through the ordinary channel. That keeps MPI semantics (any offset, any length) while
 * large aligned transfers, the ones O_DIRECT is for, skip the page cache.
 */
final class PosixFile implements StorageFile {
    private final URI uri;
    private final Path path;
    private final FileChannel channel;
    private final FileChannel direct;
    private final int alignment;
    /** Reads into heap memory of a file opened read-only without direct I/O; else null. */
    private final MappedReads mapped;

    private PosixFile(URI uri, Path path, FileChannel channel, FileChannel direct, int alignment, MappedReads mapped) {
        this.uri = uri;
        this.path = path;
        this.channel = channel;
        this.direct = direct;
        this.alignment = alignment;
        this.mapped = mapped;
    }

    static PosixFile open(URI uri, Path path, OpenOptions o, boolean directIo) throws IOException {
        Set<OpenOption> opts = new HashSet<>();
        if (o.read()) opts.add(StandardOpenOption.READ);
        if (o.write()) opts.add(StandardOpenOption.WRITE);
        if (o.exclusive()) opts.add(StandardOpenOption.CREATE_NEW);
        else if (o.create()) opts.add(StandardOpenOption.CREATE);
        FileChannel ch = FileChannel.open(path, opts);
        if (!directIo) {
            try {
                return new PosixFile(uri, path, ch, null, 0, o.write() ? null : MappedReads.of(ch));
            } catch (IOException e) {
                ch.close();
                throw e;
            }
        }
        try {
            Set<OpenOption> dopts = new HashSet<>(opts);
            dopts.remove(StandardOpenOption.CREATE_NEW);
            dopts.remove(StandardOpenOption.CREATE);
            dopts.add(com.sun.nio.file.ExtendedOpenOption.DIRECT);
            int align = Math.toIntExact(PosixDriver.blockSize(path));
            return new PosixFile(uri, path, ch, FileChannel.open(path, dopts), align, null);
        } catch (IOException | UnsupportedOperationException e) {
            ch.close();
            throw new StorageException(StorageException.Reason.UNSUPPORTED,
                    path + ": direct I/O (hint " + PosixDriver.HINT_DIRECT_IO + ") not supported here: " + e.getMessage(), e);
        }
    }

    @Override
    public URI uri() {
        return uri;
    }

    @Override
    public ByteBuffer mappedView(long offset, int length) {
        return mapped == null ? null : mapped.view(offset, length);
    }

    @Override
    public int read(long offset, ByteBuffer dst) throws IOException {
        if (mapped != null) {
            int n = mapped.read(offset, dst);
            if (n >= 0) return n;
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

    /** Whether this file routes aligned direct buffers around the page cache. */
    boolean directIo() {
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
        return ChannelRangeLock.acquire(channel, offset, length, path.toString());
    }

    @Override
    public void close() throws IOException {
        if (mapped != null) mapped.close();
        try {
            channel.close();
        } finally {
            if (direct != null) direct.close();
        }
    }
}
