package io.pdla.storage.sieve;

import io.pdla.storage.RangeLock;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real file that counts the contiguous calls reaching it (vectored calls go through the SPI's generic
 * defaults, one contiguous call per piece), and optionally has no byte-range locks, like a driver without
 * {@code BYTE_RANGE_LOCK}.
 */
final class CountingFile extends io.pdla.testing.ForwardingStorageFile {
    final boolean locks;
    final AtomicInteger reads = new AtomicInteger();
    final AtomicInteger writes = new AtomicInteger();

    CountingFile(StorageFile file, boolean locks) {
        super(file);
        this.locks = locks;
    }

    @Override
    public int read(long offset, ByteBuffer dst) throws IOException {
        reads.incrementAndGet();
        return file.read(offset, dst);
    }

    @Override
    public void write(long offset, ByteBuffer src) throws IOException {
        writes.incrementAndGet();
        file.write(offset, src);
    }

    @Override
    public RangeLock lock(long offset, long length) throws IOException {
        return locks ? file.lock(offset, length) : super.lock(offset, length);
    }
}
