package io.pdla.storage;

import java.io.IOException;

/** A held byte-range lock ({@link StorageFile#lock}); {@link #close()} releases it and may be called twice. */
public interface RangeLock extends AutoCloseable {
    long offset();

    long length();

    @Override
    void close() throws IOException;
}
