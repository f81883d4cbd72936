package io.pdla.testing;

import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;

/**
 * A real file seen through a wrapper that tests extend to count or fail some of its calls (fault injection around the
 * real thing, not a mock of it). Forwards the calls every file must answer; the SPI's other calls take their generic
 * defaults, which come back through these.
 */
public abstract class ForwardingStorageFile implements StorageFile {
    protected final StorageFile file;

    protected ForwardingStorageFile(StorageFile file) {
        this.file = file;
    }

    @Override
    public URI uri() {
        return file.uri();
    }

    @Override
    public int read(long offset, ByteBuffer dst) throws IOException {
        return file.read(offset, dst);
    }

    @Override
    public void write(long offset, ByteBuffer src) throws IOException {
        file.write(offset, src);
    }

    @Override
    public long size() throws IOException {
        return file.size();
    }

    @Override
    public void setSize(long size) throws IOException {
        file.setSize(size);
    }

    @Override
    public void sync() throws IOException {
        file.sync();
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
