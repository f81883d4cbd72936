package io.pdla.hdfs;

import io.pdla.storage.StorageException;
import io.pdla.storage.StorageException.Reason;
import io.pdla.storage.StorageFile;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * An open HDFS file. HDFS files are write-once/append-only with one writer (lease holder) per file, so:
 *
 * <ul>
 * <li><b>Writes</b> are accepted only at the current end of the file (an append); any other offset fails
 *     with {@link Reason#UNSUPPORTED} naming the file, the offset and the length, before anything is sent,
 *     so a refused write never changes the file. The append stream (the lease) is opened at the first
 *     write, not at open: MPI programs open collectively with read-write access and often only one rank
 *     writes, and a lease taken at open by a rank that never writes would lock the others out.</li>
 * <li><b>Reads</b> are positional reads ({@code pread}) on a separate input stream, safe from many threads
 *     at once. An input stream sees the file as it was when the stream was opened; when a read reaches past
 *     that length and this handle has written since, the writer is {@code hflush}ed and the input stream
 *     reopened, so a handle always reads its own writes. Bytes already visible never change (append-only),
 *     except by {@link #setSize} shrinking the file, which replaces the input stream.</li>
 * <li>{@link #sync()} is {@code hsync} (durable on the DataNodes' disks, as MPI_File_sync asks) and makes the
 *     next read past the known end, and the next {@link #size()}, look for data written by other handles
 *     (MPI's sync-barrier-sync rule).</li>
 * <li>{@link #setSize}: growing appends zeros; shrinking closes the writer and uses HDFS truncate, waiting
 *     for the NameNode's block recovery when the new end falls inside a block.</li>
 * </ul>
 */
final class HdfsFile implements StorageFile {
    private static final int COPY_CHUNK = 256 * 1024;
    private static final long TRUNCATE_WAIT_MILLIS = 60_000;

    private final URI uri;
    private final FileSystem fs;
    private final Path path;
    private final boolean readable;
    private final boolean writable;
    private final int bufferSize;

    /** Guards the writer side; taken before {@link #readerLock} when both are needed. */
    private final Object writeMonitor = new Object();
    private FSDataOutputStream out;
    private boolean unflushed;
    /** Bumped on every change of content by this handle; readers compare it with {@link #inGeneration}. */
    private volatile long writeGeneration;

    /** Read lock for preads on {@link #in}, write lock for replacing it. */
    private final ReentrantReadWriteLock readerLock = new ReentrantReadWriteLock();
    private FSDataInputStream in;
    private long inLength;
    private long inGeneration;
    /** Where the last read ended: a read starting there takes the stateful stream path. */
    private volatile long nextSequentialOffset = -1;

    private volatile boolean closed;

    HdfsFile(URI uri, FileSystem fs, Path path, boolean readable, boolean writable, int bufferSize) {
        this.uri = uri;
        this.fs = fs;
        this.path = path;
        this.readable = readable;
        this.writable = writable;
        this.bufferSize = bufferSize;
    }

    @Override
    public URI uri() {
        return uri;
    }

    @Override
    public int read(long offset, ByteBuffer dst) throws IOException {
        requireOpen();
        if (!readable) throw new StorageException(Reason.ACCESS_DENIED, uri + ": opened write-only, cannot read");
        if (offset < 0) throw new StorageException(Reason.BAD_ARGUMENT, uri + ": negative read offset " + offset);
        if (!dst.hasRemaining()) return 0;
        long end = offset + dst.remaining();
        for (int attempt = 0; ; attempt++) {
            readerLock.readLock().lock();
            try {
                // After one refresh, read whatever is there even if another write raced in meanwhile.
                if (in != null && (attempt > 0 || !stale(end))) return pread(offset, dst);
            } finally {
                readerLock.readLock().unlock();
            }
            refreshReader(end);
        }
    }

    /** Whether {@link #in} may be missing bytes of [.., end) that this handle wrote or sync() asked for. */
    private boolean stale(long end) {
        return in == null || (end > inLength && inGeneration != writeGeneration);
    }

    private void refreshReader(long end) throws IOException {
        synchronized (writeMonitor) {
            readerLock.writeLock().lock();
            try {
                if (!stale(end)) return;
                requireOpen(); // do not open a stream that a concurrent close() would leak
                try {
                    if (out != null && unflushed) {
                        out.hflush(); // makes the appended bytes visible to the new input stream
                        unflushed = false;
                    }
                    closeReader();
                    in = fs.open(path, bufferSize);
                    inLength = in instanceof HdfsDataInputStream h ? h.getVisibleLength() : fs.getFileStatus(path).getLen();
                    inGeneration = writeGeneration;
                } catch (IOException e) {
                    throw HdfsErrors.translate(e, uri, "open for reading");
                }
            } finally {
                readerLock.writeLock().unlock();
            }
        }
    }

    /**
     * Caller holds the read lock. A request that starts where the previous one ended continues the
     * stream's own (stateful) read, which keeps its DataNode connection and reads ahead: about twice the
     * throughput of a pread per request (bench/RESULTS-hdfs.md). Any other request is a pread, which
     * DFSInputStream allows from many threads at once.
     */
    private int pread(long offset, ByteBuffer dst) throws IOException {
        int want = dst.remaining();
        int total = 0;
        boolean sequential = offset == nextSequentialOffset;
        try {
            if (dst.hasArray()) {
                total = sequential ? streamRead(offset, dst.array(), dst.arrayOffset() + dst.position(), want)
                        : positionalRead(offset, dst.array(), dst.arrayOffset() + dst.position(), want);
                dst.position(dst.position() + total);
            } else {
                byte[] tmp = new byte[Math.min(want, COPY_CHUNK)];
                while (total < want) {
                    int len = Math.min(tmp.length, want - total);
                    int n = sequential ? streamRead(offset + total, tmp, 0, len) : positionalRead(offset + total, tmp, 0, len);
                    dst.put(tmp, 0, n);
                    total += n;
                    if (n < len) break;
                }
            }
        } catch (IOException e) {
            throw HdfsErrors.translate(e, uri, "read " + want + " bytes at offset " + offset);
        }
        nextSequentialOffset = offset + total;
        return total;
    }

    private int positionalRead(long offset, byte[] a, int off, int len) throws IOException {
        int total = 0;
        while (total < len) {
            int n = in.read(offset + total, a, off + total, len - total);
            if (n <= 0) break;
            total += n;
        }
        return total;
    }

    private int streamRead(long offset, byte[] a, int off, int len) throws IOException {
        synchronized (in) {
            if (in.getPos() != offset) in.seek(offset);
            int total = 0;
            while (total < len) {
                int n = in.read(a, off + total, len - total);
                if (n <= 0) break;
                total += n;
            }
            return total;
        }
    }

    @Override
    public void write(long offset, ByteBuffer src) throws IOException {
        requireOpen();
        requireWritable("write");
        if (!src.hasRemaining()) return; // a zero-length write changes nothing, wherever it points
        synchronized (writeMonitor) {
            long length = currentLength();
            if (offset != length) throw notAnAppend(offset, src.remaining(), length);
            appendBytes(src, length);
        }
    }

    private StorageException notAnAppend(long offset, int bytes, long length) {
        String why = offset < length
                ? "it would overwrite existing data (random writes into an HDFS file are not possible)"
                : "it would leave a hole of " + (offset - length) + " bytes (HDFS files can only grow by appending)";
        return new StorageException(Reason.UNSUPPORTED, uri + ": cannot write " + bytes + " bytes at offset " + offset
                + ": HDFS files are append-only and this file is " + length + " bytes long, so only a write at offset "
                + length + " is possible; " + why);
    }

    /** Caller holds {@link #writeMonitor}. */
    private long currentLength() throws IOException {
        try {
            return out != null ? out.getPos() : fs.getFileStatus(path).getLen();
        } catch (IOException e) {
            throw HdfsErrors.translate(e, uri, "get length");
        }
    }

    /** Caller holds {@link #writeMonitor} and has checked that the bytes go at the end. */
    private void appendBytes(ByteBuffer src, long at) throws IOException {
        int bytes = src.remaining();
        try {
            if (out == null) out = fs.append(path, bufferSize);
            if (src.hasArray()) {
                out.write(src.array(), src.arrayOffset() + src.position(), bytes);
                src.position(src.position() + bytes);
            } else {
                byte[] tmp = new byte[Math.min(bytes, COPY_CHUNK)];
                while (src.hasRemaining()) {
                    int n = Math.min(tmp.length, src.remaining());
                    src.get(tmp, 0, n);
                    out.write(tmp, 0, n);
                }
            }
        } catch (IOException e) {
            abandonWriter();
            throw HdfsErrors.translate(e, uri, "append " + bytes + " bytes at offset " + at);
        } finally {
            unflushed = true;
            writeGeneration++;
        }
    }

    /** After a failed write the stream is unusable; drop it so the next write re-opens for append. */
    private void abandonWriter() {
        if (out == null) return;
        try {
            out.close();
        } catch (IOException ignored) {
            // the original failure is what the caller reports
        }
        out = null;
    }

    @Override
    public long size() throws IOException {
        requireOpen();
        synchronized (writeMonitor) {
            if (out != null) return out.getPos();
            // After sync() (or this handle's own changes) the NameNode's length may lag behind bytes another
            // handle hsync'ed: a fresh input stream asks the DataNodes for the visible length.
            if (inGeneration != writeGeneration) refreshReader(Long.MAX_VALUE);
            long len = currentLength();
            readerLock.readLock().lock();
            try {
                // A file another client is writing: the NameNode's length lags behind what readers see.
                return in != null ? Math.max(len, inLength) : len;
            } finally {
                readerLock.readLock().unlock();
            }
        }
    }

    @Override
    public void setSize(long size) throws IOException {
        requireOpen();
        requireWritable("set the size");
        if (size < 0) throw new StorageException(Reason.BAD_ARGUMENT, uri + ": negative size " + size);
        synchronized (writeMonitor) {
            long length = currentLength();
            if (size > length) {
                ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(COPY_CHUNK, size - length));
                for (long at = length; at < size; at += zeros.limit()) {
                    zeros.clear().limit((int) Math.min(zeros.capacity(), size - at));
                    appendBytes(zeros, at);
                }
            } else if (size < length) {
                truncate(size, length);
            }
        }
    }

    /** Caller holds {@link #writeMonitor}. Readers are held off while the tail disappears. */
    private void truncate(long size, long length) throws IOException {
        readerLock.writeLock().lock();
        try {
            closeWriter(); // truncate needs a closed file (no lease)
            closeReader();
            boolean done = fs.truncate(path, size);
            if (!done) awaitRecovery(size);
        } catch (IOException e) {
            throw HdfsErrors.translate(e, uri, "truncate from " + length + " to " + size + " bytes");
        } finally {
            writeGeneration++;
            readerLock.writeLock().unlock();
        }
    }

    /** A cut inside a block triggers block recovery on the DataNodes; the file reopens once it is closed. */
    private void awaitRecovery(long size) throws IOException {
        if (!(fs instanceof DistributedFileSystem dfs)) return;
        long deadline = System.currentTimeMillis() + TRUNCATE_WAIT_MILLIS;
        while (!dfs.isFileClosed(path)) {
            if (System.currentTimeMillis() > deadline) {
                throw new StorageException(Reason.IO, uri + ": truncate to " + size + " bytes: block recovery did not finish within "
                        + TRUNCATE_WAIT_MILLIS / 1000 + " s");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException(uri + ": interrupted while waiting for truncate to " + size);
            }
        }
    }

    @Override
    public void sync() throws IOException {
        requireOpen();
        synchronized (writeMonitor) {
            if (out != null) {
                try {
                    out.hsync();
                    unflushed = false;
                } catch (IOException e) {
                    throw HdfsErrors.translate(e, uri, "hsync");
                }
            }
            readerLock.writeLock().lock();
            try {
                inGeneration = -1; // the next read past inLength reopens and sees other handles' synced data
            } finally {
                readerLock.writeLock().unlock();
            }
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) return;
        closed = true;
        IOException failure = null;
        synchronized (writeMonitor) {
            try {
                closeWriter();
            } catch (IOException e) {
                failure = HdfsErrors.translate(e, uri, "close (completing the last block)");
            }
            readerLock.writeLock().lock();
            try {
                closeReader();
            } catch (IOException e) {
                if (failure == null) failure = HdfsErrors.translate(e, uri, "close");
            } finally {
                readerLock.writeLock().unlock();
            }
        }
        if (failure != null) throw failure;
    }

    private void closeWriter() throws IOException {
        if (out == null) return;
        FSDataOutputStream o = out;
        out = null;
        unflushed = false;
        o.close();
    }

    private void closeReader() throws IOException {
        if (in == null) return;
        FSDataInputStream i = in;
        in = null;
        i.close();
    }

    private void requireOpen() throws StorageException {
        if (closed) throw new StorageException(Reason.BAD_ARGUMENT, uri + ": file handle is closed");
    }

    private void requireWritable(String what) throws StorageException {
        if (!writable) throw new StorageException(Reason.READ_ONLY, uri + ": opened read-only, cannot " + what);
    }

    /** The file's layout as {@link HdfsDriver#layout} reports it: 1-DH with its block size. */
    @Override
    public io.pdla.storage.Layout layout() throws IOException {
        try {
            FileStatus st = fs.getFileStatus(path);
            return HdfsLayouts.describe(fs, path, st, st.getBlockSize());
        } catch (IOException e) {
            throw HdfsErrors.translate(e, uri, "layout");
        }
    }
}
