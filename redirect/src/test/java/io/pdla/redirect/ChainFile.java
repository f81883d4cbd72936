package io.pdla.redirect;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.AppIdentity;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.IoCall;
import io.pdla.intercept.IoInterceptor;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/** One rank's open file driven through the interceptor chain, as the shim does it (no MPJ needed). */
final class ChainFile implements AutoCloseable {
    final FileContext ctx;
    final InterceptorChain chain;

    ChainFile(URI uri, String app, int np, int rank, Map<String, String> hints, List<IoInterceptor> interceptors) throws IOException {
        this(uri, app, np, rank, hints, interceptors, false);
    }

    ChainFile(URI uri, String app, int np, int rank, Map<String, String> hints, List<IoInterceptor> interceptors, boolean readOnly) throws IOException {
        StorageDriver d = StorageDrivers.installed().forUri(uri);
        StorageFile f = d.open(uri, (readOnly ? OpenOptions.readOnly() : OpenOptions.createReadWrite()).withHints(hints));
        ctx = new FileContext(uri.getPath(), uri, readOnly ? FileContext.MODE_RDONLY : 0, rank, np, new AppIdentity(app, np), hints, d, f);
        chain = new InterceptorChain(interceptors);
        chain.opened(ctx);
    }

    byte[] read(ExtentList extents) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(Math.toIntExact(extents.totalBytes()));
        long n = chain.execute(IoCall.data(ctx, IoOp.READ, Positioning.EXPLICIT_OFFSET, false, extents, buf));
        byte[] out = new byte[(int) n];
        System.arraycopy(buf.array(), 0, out, 0, (int) n);
        return out;
    }

    long read(ExtentList extents, ByteBuffer buf) throws IOException {
        return chain.execute(IoCall.data(ctx, IoOp.READ, Positioning.EXPLICIT_OFFSET, false, extents, buf));
    }

    /**
     * A read as the shim's straight path makes it: when every interceptor of the open only watches, the store reads
     * and the chain is told afterwards ({@link InterceptorChain#observed}); otherwise through the chain.
     */
    byte[] readStraight(long offset, int length) throws IOException {
        if (!chain.observersOnly()) return read(offset, length);
        ByteBuffer buf = ByteBuffer.allocate(length);
        long t1 = System.nanoTime();
        long n = ctx.file().read(offset, buf);
        long t2 = System.nanoTime();
        chain.observed(ctx, IoOp.READ, Positioning.EXPLICIT_OFFSET, offset, length, n, t1, t2);
        return java.util.Arrays.copyOf(buf.array(), (int) Math.max(0, n));
    }

    byte[] read(long offset, int length) throws IOException {
        return read(ExtentList.of(offset, length));
    }

    void write(long offset, byte[] data) throws IOException {
        chain.execute(IoCall.data(ctx, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(offset, data.length), ByteBuffer.wrap(data)));
    }

    void write(ExtentList extents, ByteBuffer data) throws IOException {
        chain.execute(IoCall.data(ctx, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, false, extents, data));
    }

    void setSize(long size) throws IOException {
        chain.execute(IoCall.meta(ctx, IoOp.SET_SIZE, false, size));
    }

    void sync() throws IOException {
        chain.execute(IoCall.meta(ctx, IoOp.SYNC, false, 0));
    }

    @Override
    public void close() throws IOException {
        try {
            chain.closing(ctx);
        } finally {
            ctx.file().close();
        }
        chain.closed(ctx);
    }
}
