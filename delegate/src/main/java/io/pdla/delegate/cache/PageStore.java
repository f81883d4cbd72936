package io.pdla.delegate.cache;

import io.pdla.access.ExtentList;

import java.io.IOException;
import java.nio.ByteBuffer;

/** Where a delegate's pages come from and go to: the file on storage, through whatever sits below the delegate. */
public interface PageStore {
    /** Reads up to {@code dst.remaining()} bytes at {@code offset}; short only at end-of-file. */
    int read(long offset, ByteBuffer dst) throws IOException;

    /**
     * Reads the extents in list order into consecutive bytes of {@code dst}, stopping at end-of-file; one
     * request where the store below can take a list (a striped store then serves each server its share at once).
     */
    default void readv(ExtentList extents, ByteBuffer dst) throws IOException {
        for (int i = 0; i < extents.size(); i++) {
            long want = extents.length(i), got = 0;
            int limit = dst.limit();
            dst.limit(Math.toIntExact(dst.position() + want));
            try {
                while (got < want) {
                    int n = read(extents.offset(i) + got, dst);
                    if (n <= 0) return;
                    got += n;
                }
            } finally {
                dst.limit(limit);
            }
        }
    }

    void writev(ExtentList extents, ByteBuffer src) throws IOException;

    long size() throws IOException;

    void sync() throws IOException;

    void close() throws IOException;

    String name();
}
