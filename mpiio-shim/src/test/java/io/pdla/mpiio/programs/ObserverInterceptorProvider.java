package io.pdla.mpiio.programs;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.IoCall;
import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.IoInterceptorProvider;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test interceptor that only watches ({@code pdla_interceptors=test-observer}): it logs every data call it hears
 * of, through {@link #intercept} or {@link #observed}, in the same words, by the file's name, so that
 * {@code PlainCallDifferentialProgram} can check that the calls the shim told it of after they ran are the calls a
 * general-path handle passes through it. Per rank (each multicore rank loads its own copy of this test class).
 */
public final class ObserverInterceptorProvider implements IoInterceptorProvider {
    public static final String NAME = "test-observer";
    /** What the interceptor heard, by the last part of the file's path. */
    public static final Map<String, List<String>> HEARD = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int order() {
        return 150;
    }

    private static void log(FileContext file, String what) {
        String path = file.uri().getPath();
        HEARD.computeIfAbsent(path.substring(path.lastIndexOf('/') + 1), k -> new CopyOnWriteArrayList<>()).add(what);
    }

    private static String words(IoOp op, Positioning positioning, long offset, long length, long moved, long start, long end) {
        if (end < start) throw new AssertionError("a call that ended at " + end + " before it started at " + start);
        return op + " " + positioning + " " + length + " at " + offset + " moved " + moved;
    }

    @Override
    public IoInterceptor create(Map<String, String> hints) {
        return new IoInterceptor() {
            @Override
            public boolean observesOnly() {
                return true;
            }

            @Override
            public long intercept(IoCall call, Chain next) throws IOException {
                long t1 = System.nanoTime();
                long moved = next.proceed(call);
                long t2 = System.nanoTime();
                if (call.op().movesData() && !call.collective()) {
                    ExtentList e = call.extents();
                    if (e.size() == 1) log(call.file(), words(call.op(), call.positioning(), e.offset(0), e.length(0), moved, t1, t2));
                    else log(call.file(), call.op() + " " + call.positioning() + " " + e.size() + " extents moved " + moved);
                }
                return moved;
            }

            @Override
            public void observed(FileContext file, IoOp op, Positioning positioning, long offset, long length, long moved, long start, long end) {
                log(file, words(op, positioning, offset, length, moved, start, end));
            }
        };
    }
}
