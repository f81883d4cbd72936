package io.pdla.mpiio.programs;

import io.pdla.intercept.FileContext;
import io.pdla.intercept.IoCall;
import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.IoInterceptorProvider;
import io.pdla.intercept.Key;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test interceptor ({@code pdla_interceptors=test-per-open}) that only watches the opens its {@link #opened} hook
 * finds nothing to do in, as redirect does for an open no replica serves: files whose name starts with "idle". It
 * counts, by file name, the data calls it was told of after they ran ({@code observed}) and those that went through
 * it ({@code intercept}), so that {@code PerOpenWatcherProgram} can check that the shim asks once the open's hooks
 * ran. Per rank (each multicore rank loads its own copy of this test class).
 */
public final class PerOpenWatcherProvider implements IoInterceptorProvider {
    public static final String NAME = "test-per-open";
    public static final Map<String, AtomicInteger> OBSERVED = new ConcurrentHashMap<>(), INTERCEPTED = new ConcurrentHashMap<>();
    private static final Key<Boolean> IDLE = Key.of("test-per-open-idle");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int order() {
        return 200;
    }

    private static void count(Map<String, AtomicInteger> to, FileContext file) {
        String path = file.uri().getPath();
        to.computeIfAbsent(path.substring(path.lastIndexOf('/') + 1), k -> new AtomicInteger()).incrementAndGet();
    }

    @Override
    public IoInterceptor create(Map<String, String> hints) {
        return new IoInterceptor() {
            @Override
            public void opened(FileContext file) {
                String path = file.uri().getPath();
                file.put(IDLE, path.substring(path.lastIndexOf('/') + 1).startsWith("idle"));
            }

            @Override
            public boolean observesOnly(FileContext file) {
                return Boolean.TRUE.equals(file.get(IDLE));
            }

            @Override
            public long intercept(IoCall call, Chain next) throws IOException {
                if (call.op().movesData()) count(INTERCEPTED, call.file());
                return next.proceed(call);
            }

            @Override
            public void observed(FileContext file, IoOp op, Positioning positioning, long offset, long length, long moved, long start, long end) {
                count(OBSERVED, file);
            }
        };
    }
}
