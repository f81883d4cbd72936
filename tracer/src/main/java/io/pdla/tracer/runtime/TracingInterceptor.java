package io.pdla.tracer.runtime;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.IoCall;
import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.Key;

import java.io.IOException;
import java.util.Map;

/**
 * The outermost interceptor: times each call around {@code next.proceed} and hands it to the rank's
 * {@link RankTracer}. Never fails a call: tracing problems switch tracing off (see {@link RankTracer}).
 * Failed calls (the chain threw) are not recorded, as Darshan does not count failed calls.
 */
public final class TracingInterceptor implements IoInterceptor {
    static final Key<TracedFile> TRACED = Key.of("pdla.tracer.file");

    private final Map<String, String> hints;
    /** The file of the previous call: saves the file context's synchronized lookup on repeated calls. */
    private volatile Last last;

    private record Last(FileContext file, TracedFile traced) {
    }

    public TracingInterceptor(Map<String, String> hints) {
        this.hints = Map.copyOf(hints);
    }

    @Override
    public void opened(FileContext file) {
        TracedFile t = RankTracer.forFile(file, hints).opened(file);
        if (t != null) file.put(TRACED, t);
    }

    @Override
    public long intercept(IoCall call, Chain next) throws IOException {
        Last l = last;
        TracedFile t;
        if (l != null && l.file == call.file()) {
            t = l.traced;
        } else {
            t = call.file().get(TRACED);
            if (t == null) return next.proceed(call);
            last = new Last(call.file(), t);
        }
        long t1 = System.nanoTime();
        long moved = next.proceed(call);
        long t2 = System.nanoTime();
        t.tracer().record(t, call, moved, t1, t2);
        return moved;
    }

    /** The aggregator layer: recorded apart from the application's calls (its own trace file and counter records). */
    @Override
    public void aggregated(FileContext file, IoOp op, ExtentList extents, long startNanos, long endNanos) {
        TracedFile t = file.get(TRACED);
        if (t != null) t.tracer().aggregated(t, op, extents, startNanos, endNanos);
    }

    @Override
    public void closing(FileContext file) {
        TracedFile t = file.get(TRACED);
        Last l = last;
        if (l != null && l.file == file) last = null;
        if (t != null) t.tracer().closing(t, file.commSize() > 1);
    }
}
