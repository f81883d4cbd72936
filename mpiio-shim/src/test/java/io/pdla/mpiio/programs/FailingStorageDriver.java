package io.pdla.mpiio.programs;

import io.pdla.access.ExtentList;
import io.pdla.storage.Capability;
import io.pdla.storage.Layout;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.RangeLock;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageFile;
import io.pdla.storage.StorageStatus;
import io.pdla.storage.posix.PosixDriver;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;

/**
 * A test driver, scheme {@code failfs}: POSIX files whose writes fail on the ranks that set
 * {@link #failWrites} (a static is per rank under MPJ's multicore device: each rank has its own class loader).
 */
public final class FailingStorageDriver implements StorageDriver {
    /** Set by a test program on the rank whose storage writes must fail. */
    public static volatile boolean failWrites;
    /** Set by a test program on the rank whose storage reads must fail. */
    public static volatile boolean failReads;
    /** Set by a test program to make this driver one without byte-range locks (as HDFS is). */
    public static volatile boolean lockless;
    /** Calls that reached the store as one array request ({@link StorageFile#readArray}, {@link StorageFile#writeArray}). */
    public static final java.util.concurrent.atomic.AtomicLong ARRAY_CALLS = new java.util.concurrent.atomic.AtomicLong();

    private final PosixDriver posix = new PosixDriver();

    private static URI file(URI u) {
        return URI.create("file://" + u.getPath());
    }

    @Override
    public String scheme() {
        return "failfs";
    }

    @Override
    public Set<Capability> capabilities() {
        if (!lockless) return posix.capabilities();
        java.util.EnumSet<Capability> caps = java.util.EnumSet.copyOf(posix.capabilities());
        caps.remove(Capability.BYTE_RANGE_LOCK);
        return caps;
    }

    @Override
    public StorageFile open(URI uri, OpenOptions options) throws IOException {
        StorageFile f = posix.open(file(uri), options);
        return new StorageFile() {
            public URI uri() { return uri; }
            public int read(long offset, ByteBuffer dst) throws IOException {
                if (failReads) throw new StorageException(StorageException.Reason.IO, "failfs: injected storage failure reading at " + offset);
                return f.read(offset, dst);
            }
            public void write(long offset, ByteBuffer src) throws IOException {
                if (failWrites) throw new StorageException(StorageException.Reason.NO_SPACE, "failfs: injected storage failure writing at " + offset);
                f.write(offset, src);
            }
            public int readArray(long offset, byte[] dst, int dstOffset, int length) throws IOException {
                if (failReads) throw new StorageException(StorageException.Reason.IO, "failfs: injected storage failure reading at " + offset);
                ARRAY_CALLS.incrementAndGet();
                return f.readArray(offset, dst, dstOffset, length);
            }
            public void writeArray(long offset, byte[] src, int srcOffset, int length) throws IOException {
                if (failWrites) throw new StorageException(StorageException.Reason.NO_SPACE, "failfs: injected storage failure writing at " + offset);
                ARRAY_CALLS.incrementAndGet();
                f.writeArray(offset, src, srcOffset, length);
            }
            public long size() throws IOException { return f.size(); }
            public void setSize(long size) throws IOException { f.setSize(size); }
            public void sync() throws IOException { f.sync(); }
            public void close() throws IOException { f.close(); }
            public Layout layout() throws IOException { return f.layout(); }
            public RangeLock lock(long offset, long length) throws IOException { return f.lock(offset, length); }
        };
    }

    @Override
    public boolean exists(URI uri) throws IOException {
        return posix.exists(file(uri));
    }

    @Override
    public void delete(URI uri) throws IOException {
        posix.delete(file(uri));
    }

    @Override
    public StorageStatus stat(URI uri) throws IOException {
        return posix.stat(file(uri));
    }

    @Override
    public List<StorageStatus> list(URI dir) throws IOException {
        return posix.list(file(dir));
    }

    @Override
    public void mkdirs(URI dir) throws IOException {
        posix.mkdirs(file(dir));
    }
}
