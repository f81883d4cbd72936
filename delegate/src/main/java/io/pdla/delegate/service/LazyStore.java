package io.pdla.delegate.service;

import io.pdla.access.ExtentList;
import io.pdla.delegate.cache.PageStore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * A delegate's handle on a file, opened at the first request that needs storage rather than at the ranks'
 * open: a file whose calls all bypass the delegates (large pieces, the idle path) costs the delegate no
 * open, no interceptor lookup and no close. A failure to open is reported by that first request.
 */
final class LazyStore implements PageStore {
    private final String uri;
    private final boolean writable;
    private final Map<String, String> hints;
    private final int rank;
    private ChainedStore store;

    LazyStore(String uri, boolean writable, Map<String, String> hints, int rank) {
        this.uri = uri;
        this.writable = writable;
        this.hints = hints;
        this.rank = rank;
    }

    private ChainedStore store() throws IOException {
        if (store == null) store = ChainedStore.open(uri, writable, hints, rank);
        return store;
    }

    /** Whether storage was opened (tests). */
    boolean isOpen() {
        return store != null;
    }

    @Override
    public int read(long offset, ByteBuffer dst) throws IOException {
        return store().read(offset, dst);
    }

    @Override
    public void readv(ExtentList extents, ByteBuffer dst) throws IOException {
        store().readv(extents, dst);
    }

    @Override
    public void writev(ExtentList extents, ByteBuffer src) throws IOException {
        store().writev(extents, src);
    }

    /** The file's layout (opens storage: asked at the first load, which needs it anyway). */
    io.pdla.storage.Layout layout() throws IOException {
        return store().layout();
    }

    @Override
    public long size() throws IOException {
        return store().size();
    }

    @Override
    public void sync() throws IOException {
        if (store != null) store.sync();   // nothing of ours to make durable otherwise
    }

    @Override
    public void close() throws IOException {
        if (store != null) store.close();
        store = null;
    }

    @Override
    public String name() {
        return uri;
    }
}
