package io.pdla.patterns.online;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.IoCall;
import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.Key;
import io.pdla.patterns.template.MatchResult;
import io.pdla.patterns.template.MatcherConfig;

import java.io.IOException;
import java.nio.file.Path;
import java.util.logging.Logger;

/**
 * Online PDLA (order 150: inside the tracer, outside redirect, so it sees every read the application makes, served
 * from a replica or not). Each read-only open of a file is one pass: its reads go through the offline analyzer's
 * template matcher ({@link PassMatcher}) as they complete; at close the pass's patterns are compared with the
 * previous pass over the file ({@link RepeatDetector}), and a pattern seen to repeat is handed to the pattern
 * database's spool as a compact record, which the replicator daemon stores and builds from ({@link PatternHandoff}). Redirect serves the replica from a later open, with
 * all its checks. Nothing here can fail or delay the application's I/O: every problem is reported and the call goes
 * on as if online PDLA were off.
 */
public final class OnlineInterceptor implements IoInterceptor {
    private static final Logger LOG = Logger.getLogger(OnlineInterceptor.class.getName());
    private static final Key<Pass> PASS = Key.of("pdla.online.pass");
    private static final int FILE_ID = 0;

    private final MatcherConfig config = MatcherConfig.defaults();
    private final RepeatDetector detector = new RepeatDetector();
    private final OnlineStats stats = OnlineStats.global();
    private final PatternHandoff handoff = new PatternHandoff(stats);
    private volatile boolean warned;

    /** One open of a file being matched; {@code probe} watches its start when the previous pass was a candidate. */
    private record Pass(PassMatcher matcher, Path db, RepeatProbe probe) {
    }

    /** For the rank's warm-up ({@link OnlineProvider#warmUp}): the class of an open's state, loaded at the first open otherwise. */
    static Class<?> passClass() {
        return Pass.class;
    }

    @Override
    public void opened(FileContext file) {
        try {
            if (file.writable() || detector.handedOn(file.uri())) return;
            OnlineSettings s = OnlineSettings.from(file.hints());
            handoff.start();
            file.put(PASS, new Pass(new PassMatcher(file.rank(), FILE_ID, config, s.window()), s.patternDb(), detector.probe(file.uri())));
        } catch (RuntimeException e) {
            warnOnce("online PDLA is off for " + file.uri() + ": " + e.getMessage());
        }
    }

    @Override
    public long intercept(IoCall call, Chain next) throws IOException {
        if (call.op() != IoOp.READ) return next.proceed(call);
        Pass p = call.file().get(PASS);
        if (p == null) return next.proceed(call);
        long t1 = System.nanoTime();
        long moved = next.proceed(call);
        long t2 = System.nanoTime();
        ExtentList ex = call.extents();
        match(call.file(), p, ex, 0, 0, t1, t2);
        stats.matchNanos.addAndGet(System.nanoTime() - t2);
        return moved;
    }

    /**
     * It matches the reads it sees and never changes one: the shim may hand it everyday reads as {@link #observed},
     * without an {@link IoCall}, when the chain's others only watch too (the tracer; redirect in an open no replica
     * serves, which is every open before the replicas exist).
     */
    @Override
    public boolean observesOnly() {
        return true;
    }

    /**
     * An open it does not match (writable, of a file handed on already, or one whose settings failed) never gets a
     * pass later, so its data calls can skip this interceptor: after a file's hand-off, every later pass's reads.
     */
    @Override
    public boolean ignores(FileContext file) {
        return file.get(PASS) == null;
    }

    @Override
    public void observed(FileContext file, IoOp op, Positioning positioning, long offset, long length, long moved,
                         long startNanos, long endNanos) {
        if (op != IoOp.READ) return;
        Pass p = file.get(PASS);
        if (p == null) return;
        long t0 = System.nanoTime();
        match(file, p, null, offset, length, startNanos, endNanos);
        stats.matchNanos.addAndGet(System.nanoTime() - t0);
    }

    /** The read's extents ({@code ex}, or the one extent {@code offset}/{@code length} when null) through the pass's matcher and probe. */
    private void match(FileContext file, Pass p, ExtentList ex, long offset, long length, long t1, long t2) {
        try {
            int n = ex == null ? 1 : ex.size();
            boolean repeated = false, givenUp;
            synchronized (p.matcher) {   // nonblocking reads of one file may complete on several threads
                for (int i = 0; i < n; i++) {
                    long at = ex == null ? offset : ex.offset(i);
                    long len = ex == null ? length : ex.length(i);
                    p.matcher.accept(IoOp.READ, at, len, t1, t2);
                    if (p.probe != null && p.probe.accept(at, len)) repeated = true;
                }
                givenUp = p.matcher.givenUp();
            }
            stats.requestsMatched.addAndGet(n);
            if (repeated) handOnEarly(file, p);
            // over the window: the pass is decided (no candidate), so it ends here rather than being told every
            // further read of a long open for nothing
            else if (givenUp) endPass(file, p);
        } catch (RuntimeException e) {
            file.put(PASS, null);
            warnOnce("online PDLA stopped matching " + file.uri() + ": " + e);
        }
    }

    @Override
    public void closing(FileContext file) {
        Pass p = file.get(PASS);
        if (p == null) return;
        long t0 = System.nanoTime();
        endPass(file, p);
        stats.matchNanos.addAndGet(System.nanoTime() - t0);
    }

    /** The pass's end, at its close or once it is given up: its result goes to the repeat check, once. */
    private void endPass(FileContext file, Pass p) {
        long t0 = System.nanoTime();
        try {
            file.put(PASS, null);
            MatchResult r;
            synchronized (p.matcher) {
                if (p.matcher.finished()) return;
                r = p.matcher.finish();
            }
            stats.passes.incrementAndGet();
            if (r == null) stats.passesGivenUp.incrementAndGet();
            if (detector.passEnded(file.uri(), r)) {
                stats.filesHandedOn.incrementAndGet();
                handoff.handOn(item(file, p, r));
            }
        } catch (RuntimeException e) {
            warnOnce("online PDLA could not end the pass over " + file.uri() + ": " + e);
        } finally {
            stats.endNanos.addAndGet(System.nanoTime() - t0);   // within the caller's matchNanos
        }
    }

    /**
     * This pass began as the previous one did: the previous pass's patterns go on now, not at this pass's end, and
     * the rest of this pass is not matched (the file is handed on; its end could decide nothing more), which halves
     * the matching a file costs.
     */
    private void handOnEarly(FileContext file, Pass p) {
        long t0 = System.nanoTime();
        file.put(PASS, null);
        stats.passes.incrementAndGet();
        MatchResult before = detector.repeatedEarly(file.uri());
        if (before != null) {
            stats.filesHandedOn.incrementAndGet();
            handoff.handOn(item(file, p, before));
        }
        stats.endNanos.addAndGet(System.nanoTime() - t0);   // within the read's matchNanos
    }

    private static PatternHandoff.Item item(FileContext file, Pass p, MatchResult pass) {
        return new PatternHandoff.Item(p.db, new PassRecord(file.app(), file.uri(), file.hints(), pass));
    }

    private void warnOnce(String message) {
        if (warned) return;
        warned = true;
        LOG.warning(message);
    }
}
