package io.pdla.delegate.cache;

import io.pdla.access.ExtentList;

import java.io.IOException;
import java.nio.ByteBuffer;

/** Where a delegate's pages come from and go to: the file on storage, through whatever sits below the delegate. */
public interface PageStore {
    /** Reads up to {@code dst.remaining()} bytes at {@code offset}; short only at end-of-file. */
    int read(long offset, ByteBuffer dst) throws IOException;

    void writev(ExtentList extents, ByteBuffer src) throws IOException;

    long size() throws IOException;

    void sync() throws IOException;

    void close() throws IOException;

    String name();
}
