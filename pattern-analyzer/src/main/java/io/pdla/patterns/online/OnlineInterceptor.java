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
 * from a replica or not). A pass is one sweep of a rank over a file: its reads go through the offline analyzer's
 * template matcher ({@link PassMatcher}) as they complete; at the pass's end its patterns are compared with the
 * previous pass over the file ({@link RepeatDetector}), and a pattern seen to repeat is handed to the pattern
 * database's spool as a compact record, which the replicator daemon stores and builds from ({@link PatternHandoff}).
 * Redirect serves the replica from a later open (or, where it can, from a switch within the open), with all its checks.
 * Nothing here can fail or delay the application's I/O: every problem is reported and the call goes on as if online
 * PDLA were off.
 *
 * <p><b>Where a pass begins and ends.</b> A read-only open begins a pass, and its close ends it. Within an open, a pass
 * also ends, and the next begins, when the rank's reads start over: a read whose first extent has exactly the offset
 * and length of the current pass's first request, once the pass has had at least one other request, ends the pass
 * there as a close would (its result to the repeat check, which may hand it on), and that read is the first request
 * of a new pass over the file, with the probe a new open gets ({@link RepeatDetector#probe}), so a second pass that
 * starts as the first hands the first on early ({@link RepeatProbe}). That is what an iterative job that opens its file
 * once and loops over it (training epochs over a sharded file, a solver re-reading its input through one handle)
 * needs to be seen at all: without it its whole open was one pass (given up over the window when long), and one
 * pass establishes nothing.
 * Why this rule: a loop over a file restarts at the same first read (same offset, same length: the same datatype and
 * view), and the rule needs no knowledge of the pattern, only two field compares per read, so the cost per read stays
 * what it was. The "one other request" keeps a pass's first read, repeated at once (a read retried, a block read
 * twice), inside the pass; a pass of one read cannot be a loop anyway. As a consequence, a job that re-reads a single
 * block over and over makes passes of two reads, which may repeat and be handed on: exactly what two opens of that
 * file with two reads each give.
 *
 * <p><b>A pass that re-reads its first block mid-pass</b> (a header read again, say): the pass ends at the re-read,
 * and what follows until the next restart is another pass. The pieces so cut are short passes, each judged as any
 * pass: a piece that repeats the previous piece (the same cut every sweep) is a pattern that really repeats and is
 * handed on; pieces that differ from the one before (the first half, then the second half of a sweep) never repeat,
 * so nothing goes on from them (the file is seen as it would be without the rule: not handed on), and the probe,
 * started for a piece whose previous piece was a candidate, finds the next piece off its start and ends its watch.
 * Nothing is handed on that did not repeat, so such a job at worst gains nothing. A header re-read once (in the
 * first sweep only) costs one more pass: the whole sweeps after it repeat and are handed on. (A sweep that starts with
 * a lone header read is handed on at its end, not early: the header is no pattern, so the probe, which watches the
 * previous pass's first pattern, is off at the header; two opens of such a file fare the same.) Both cases are tested.
 *
 * <p><b>Cost and the chain.</b> The interceptor leaves the chain's active list only at the open
 * ({@link #ignores(FileContext)}): an open it watches stays watched until its close or its file's hand-off. A pass given
 * up over its window ends at once (its result, none, to the repeat check), as before, but the open stays watched for
 * the read that starts the next pass: its matcher is then null, and each read costs a volatile load and two
 * compares, unlocked, untimed, not counted (no clock, no shared counter), until that restart. After a hand-off (early,
 * or at a pass's end) the open's state is dropped: no read of the file is matched again in this job (later opens of it
 * are not watched at all). A job whose passes are longer than the window matches a window's worth of requests per
 * pass, as a job reopening the file per pass always did. Each new pass allocates its matcher, as an open does; a read
 * allocates nothing.
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

    /**
     * One watched open of a file: the settings its passes need, and its current pass: the pass's matcher (null once
     * the pass was given up and ended, until the next pass begins), its probe (null when the previous pass was no
     * candidate), its first request, and whether it had another. Guarded by itself: nonblocking reads of one file
     * may complete on several threads. (Named Pass, as when it was one pass's state: mpiio-shim's shared-classes.txt
     * lists {@code OnlineInterceptor$Pass} by name, and a multicore rank cannot load a nested class missing from it.)
     */
    private static final class Pass {
        final Path db;
        final int window;
        /** Volatile: read unlocked by every read of the open, to take the given-up pass's path (see {@link OnlineInterceptor#idle}). */
        volatile PassMatcher matcher;
        RepeatProbe probe;
        long firstOffset, firstLength;
        boolean more;
        /** The open is watched no more (handed on, closed, or failed); a read that got it before sees this. */
        boolean dropped;

        Pass(Path db, int window) {
            this.db = db;
            this.window = window;
        }
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
            Pass w = new Pass(s.patternDb(), s.window());
            begin(file, w);
            file.put(PASS, w);
        } catch (RuntimeException e) {
            warnOnce("online PDLA is off for " + file.uri() + ": " + e.getMessage());
        }
    }

    /** A new pass in {@code w}'s open: a fresh matcher, the probe a new open gets; its first request still to come. */
    private void begin(FileContext file, Pass w) {
        w.matcher = new PassMatcher(file.rank(), FILE_ID, config, w.window);
        w.probe = detector.probe(file.uri());
        w.firstOffset = -1;
        w.firstLength = -1;
        w.more = false;
    }

    @Override
    public long intercept(IoCall call, Chain next) throws IOException {
        if (call.op() != IoOp.READ) return next.proceed(call);
        Pass w = call.file().get(PASS);
        if (w == null) return next.proceed(call);
        if (w.matcher == null) return idle(call, w, next.proceed(call));
        long t1 = System.nanoTime();
        long moved = next.proceed(call);
        long t2 = System.nanoTime();
        ExtentList ex = call.extents();
        match(call.file(), w, ex, 0, 0, t1, t2);
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
     * An open it does not watch (writable, of a file handed on already, or one whose settings failed) never gets a
     * pass later, so its data calls can skip this interceptor: after a file's hand-off, every later open's reads. An
     * open it watches is kept for its whole life, as a later pass may begin in it (even after a pass given up).
     */
    @Override
    public boolean ignores(FileContext file) {
        return file.get(PASS) == null;
    }

    @Override
    public void observed(FileContext file, IoOp op, Positioning positioning, long offset, long length, long moved,
                         long startNanos, long endNanos) {
        if (op != IoOp.READ) return;
        Pass w = file.get(PASS);
        if (w == null) return;
        if (w.matcher == null && (offset != w.firstOffset || length != w.firstLength)) return;   // as in idle
        long t0 = System.nanoTime();
        match(file, w, null, offset, length, startNanos, endNanos);
        stats.matchNanos.addAndGet(System.nanoTime() - t0);
    }

    /**
     * A read through the chain in an open whose pass was given up: it is only looked at for the start of the next
     * pass, by two compares, unlocked and untimed, as cheap as the open no longer watched it was before passes could
     * begin within an open. The read that does start the next pass is matched with its end time as its start (its
     * start was not taken, to spare every other read the clock): a request's times only order the pass's patterns.
     */
    private long idle(IoCall call, Pass w, long moved) {
        try {
            ExtentList ex = call.extents();
            if (ex.size() > 0 && ex.offset(0) == w.firstOffset && ex.length(0) == w.firstLength) {
                long t = System.nanoTime();
                match(call.file(), w, ex, 0, 0, t, t);
                stats.matchNanos.addAndGet(System.nanoTime() - t);
            }
        } catch (RuntimeException e) {
            warnOnce("online PDLA stopped matching " + call.file().uri() + ": " + e);
        }
        return moved;
    }

    /**
     * The read's extents ({@code ex}, or the one extent {@code offset}/{@code length} when null): first whether it
     * starts a new pass (see the class comment), then through the pass's matcher and probe.
     */
    private void match(FileContext file, Pass w, ExtentList ex, long offset, long length, long t1, long t2) {
        try {
            int n = ex == null ? 1 : ex.size();
            if (n == 0) return;
            long at0 = ex == null ? offset : ex.offset(0);
            long len0 = ex == null ? length : ex.length(0);
            synchronized (w) {
                if (w.dropped) return;   // handed on, or closed, on another thread meanwhile
                if (w.more && at0 == w.firstOffset && len0 == w.firstLength) {
                    // the reads start over: this pass ends here, as at a close, and the read begins the next one
                    PassMatcher ended = w.matcher;
                    w.matcher = null;
                    if (ended != null && endPass(file, w, ended)) return;
                    if (detector.handedOn(file.uri())) {   // by another open of the file meanwhile
                        drop(file, w);
                        return;
                    }
                    begin(file, w);
                }
                if (w.firstLength < 0) {
                    w.firstOffset = at0;
                    w.firstLength = len0;
                    w.more = n > 1;
                } else {
                    w.more = true;
                }
                PassMatcher m = w.matcher;
                if (m == null) return;   // the pass was given up: only the next pass's start is looked for
                boolean repeated = false;
                for (int i = 0; i < n; i++) {
                    long at = ex == null ? offset : ex.offset(i);
                    long len = ex == null ? length : ex.length(i);
                    m.accept(IoOp.READ, at, len, t1, t2);
                    if (w.probe != null && w.probe.accept(at, len)) repeated = true;
                }
                stats.requestsMatched.addAndGet(n);
                if (repeated) handOnEarly(file, w);
                // over the window: the pass is decided (no candidate), so it ends here rather than being told every
                // further read of a long pass for nothing; the open stays watched for the next pass's start
                else if (m.givenUp()) {
                    w.matcher = null;
                    w.probe = null;
                    endPass(file, w, m);
                }
            }
        } catch (RuntimeException e) {
            drop(file, w);
            warnOnce("online PDLA stopped matching " + file.uri() + ": " + e);
        }
    }

    @Override
    public void closing(FileContext file) {
        Pass w = file.get(PASS);
        if (w == null) return;
        long t0 = System.nanoTime();
        try {
            synchronized (w) {
                drop(file, w);
                PassMatcher m = w.matcher;
                w.matcher = null;
                if (m != null) endPass(file, w, m);
            }
        } catch (RuntimeException e) {
            warnOnce("online PDLA could not end the pass over " + file.uri() + ": " + e);
        }
        stats.matchNanos.addAndGet(System.nanoTime() - t0);
    }

    /**
     * A pass's end, at its close, at the start of the next pass in its open, or once it is given up: its result goes
     * to the repeat check, once. True when the file was handed on (the open's state is then dropped).
     */
    private boolean endPass(FileContext file, Pass w, PassMatcher m) {
        long t0 = System.nanoTime();
        try {
            if (m.finished()) return false;
            MatchResult r = m.finish();
            stats.passes.incrementAndGet();
            if (r == null) stats.passesGivenUp.incrementAndGet();
            if (detector.passEnded(file.uri(), r)) {
                drop(file, w);
                stats.filesHandedOn.incrementAndGet();
                handoff.handOn(item(file, w, r));
                return true;
            }
            return false;
        } catch (RuntimeException e) {
            drop(file, w);
            warnOnce("online PDLA could not end the pass over " + file.uri() + ": " + e);
            return true;
        } finally {
            stats.endNanos.addAndGet(System.nanoTime() - t0);   // within the caller's matchNanos
        }
    }

    /**
     * This pass began as the previous one did: the previous pass's patterns go on now, not at this pass's end, and
     * the rest of the open is not matched (the file is handed on; no later pass could decide anything more), which
     * halves the matching a file costs.
     */
    private void handOnEarly(FileContext file, Pass w) {
        long t0 = System.nanoTime();
        drop(file, w);
        stats.passes.incrementAndGet();
        MatchResult before = detector.repeatedEarly(file.uri());
        if (before != null) {
            stats.filesHandedOn.incrementAndGet();
            handoff.handOn(item(file, w, before));
        }
        stats.endNanos.addAndGet(System.nanoTime() - t0);   // within the read's matchNanos
    }

    /** The open is watched no more: no later read of it is matched or looked at beyond finding no state. */
    private static void drop(FileContext file, Pass w) {
        w.dropped = true;
        file.put(PASS, null);
    }

    private static PatternHandoff.Item item(FileContext file, Pass w, MatchResult pass) {
        return new PatternHandoff.Item(w.db, new PassRecord(file.app(), file.uri(), file.hints(), pass));
    }

    private void warnOnce(String message) {
        if (warned) return;
        warned = true;
        LOG.warning(message);
    }
}
