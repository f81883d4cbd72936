package io.pdla.tracer.runtime;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
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
        TracedFile t = traced(call.file());
        if (t == null) return next.proceed(call);
        long t1 = System.nanoTime();
        long moved = next.proceed(call);
        long t2 = System.nanoTime();
        t.tracer().record(t, call, moved, t1, t2);
        return moved;
    }

    /** It times and records calls, never changes them: the shim may hand it everyday calls as {@link #observed}. */
    @Override
    public boolean observesOnly() {
        return true;
    }

    @Override
    public void observed(FileContext file, IoOp op, Positioning positioning, long offset, long length, long moved,
                         long startNanos, long endNanos) {
        TracedFile t = traced(file);
        if (t != null) t.tracer().recordOne(t, op, positioning, offset, length, moved, startNanos, endNanos);
    }

    /** The file's tracing state, or null when it is not traced; remembers the last file asked for. */
    private TracedFile traced(FileContext file) {
        Last l = last;
        if (l != null && l.file == file) return l.traced;
        TracedFile t = file.get(TRACED);
        if (t != null) last = new Last(file, t);
        return t;
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
