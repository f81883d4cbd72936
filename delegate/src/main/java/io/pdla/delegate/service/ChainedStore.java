package io.pdla.delegate.service;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.delegate.cache.PageStore;
import io.pdla.intercept.AppIdentity;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.Interceptors;
import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.IoInterceptorProvider;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A delegate's open file: its storage requests go through the interceptors configured for the file that sit
 * inside the delegate interceptor (order above {@value #DELEGATE_ORDER}, such as sim-pfs's timing recorder),
 * as the application's own requests would without delegates; those outside it (tracer, redirect) already saw
 * the application's calls on the application ranks.
 */
final class ChainedStore implements PageStore {
    static final int DELEGATE_ORDER = 300;

    private final FileContext context;
    private final InterceptorChain chain;

    private ChainedStore(FileContext context, InterceptorChain chain) {
        this.context = context;
        this.chain = chain;
    }

    static ChainedStore open(String uriText, boolean writable, Map<String, String> hints, int rank) throws IOException {
        URI uri = URI.create(uriText);
        StorageDriver driver = StorageDrivers.installed().forUri(uri);
        StorageFile storage = driver.open(uri, new OpenOptions(true, writable, false, false, hints));
        List<IoInterceptor> inner = new ArrayList<>();
        for (IoInterceptorProvider p : new Interceptors().configured(hints, writable)) {
            if (p.order() > DELEGATE_ORDER) inner.add(p.create(hints));
        }
        int amode = writable ? 0 : FileContext.MODE_RDONLY;
        FileContext context = new FileContext(uriText, uri, amode, rank, 1, AppIdentity.detect(hints, 1), hints, driver, storage);
        InterceptorChain chain = new InterceptorChain(inner);
        try {
            chain.opened(context);
        } catch (IOException | RuntimeException e) {
            storage.close();
            throw e;
        }
        return new ChainedStore(context, chain);
    }

    @Override
    public int read(long offset, ByteBuffer dst) throws IOException {
        int before = dst.position();
        chain.execute(IoCall(IoOp.READ, ExtentList.of(offset, dst.remaining()), dst));
        return dst.position() - before;
    }

    @Override
    public void readv(ExtentList extents, ByteBuffer dst) throws IOException {
        chain.execute(IoCall(IoOp.READ, extents, dst));
    }

    @Override
    public void writev(ExtentList extents, ByteBuffer src) throws IOException {
        chain.execute(IoCall(IoOp.WRITE, extents, src));
    }

    private io.pdla.intercept.IoCall IoCall(IoOp op, ExtentList extents, ByteBuffer buffer) {
        return io.pdla.intercept.IoCall.data(context, op, Positioning.EXPLICIT_OFFSET, false, extents, buffer);
    }

    @Override
    public long size() throws IOException {
        return context.file().size();
    }

    @Override
    public void sync() throws IOException {
        chain.execute(io.pdla.intercept.IoCall.meta(context, IoOp.SYNC, false, 0));
    }

    @Override
    public void close() throws IOException {
        chain.closing(context);
        chain.closed(context);
    }

    /** The file's layout as the store reports it, what the ranks' split into domains was made from. */
    io.pdla.storage.Layout layout() throws IOException {
        return context.driver().layout(context.uri());
    }

    @Override
    public String name() {
        return context.name();
    }
}
