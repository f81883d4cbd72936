package io.pdla.patterns.online;

import io.pdla.access.IoOp;
import io.pdla.patterns.template.MatchResult;
import io.pdla.patterns.template.MatcherConfig;
import io.pdla.patterns.template.StreamMatcher;

/**
 * One rank's requests of one pass over a file (one open), matched as they come by the offline analyzer's own
 * {@link StreamMatcher} and templates. At most {@code window} requests are matched: a longer pass stops costing
 * anything at once and ends as no candidate, which bounds both the CPU and the patterns held. Public, as
 * {@link RepeatProbe}, so that all multicore ranks of a JVM share its one compiled copy (the launcher's shared classes)
 * while the interceptor, which reaches the pattern database, stays in each rank's loader.
 */
public final class PassMatcher {
    private final StreamMatcher matcher;
    private final int window;
    private int requests;
    private boolean overflowed;
    private boolean wrote;
    private boolean finished;

    public PassMatcher(int rank, int fileId, MatcherConfig config, int window) {
        this.matcher = new StreamMatcher(rank, fileId, config);
        this.window = window;
    }

    /** One extent of a data call, in the rank's issue order. */
    public void accept(IoOp op, long offset, long length, long startNanos, long endNanos) {
        if (overflowed || finished) return;
        if (op == IoOp.WRITE) wrote = true;
        if (++requests > window) {
            overflowed = true;
            return;
        }
        matcher.accept(op, offset, length, startNanos, endNanos);
    }

    /** Whether matching stopped: the pass is over the window (or wrote), so its result can be no candidate. */
    public boolean givenUp() {
        return overflowed || wrote;
    }

    /** Whether {@link #finish} ran: the pass was ended, by its close or once it was given up. */
    public boolean finished() {
        return finished;
    }

    /** Ends the pass: what it matched, or null when it was given up. */
    public MatchResult finish() {
        finished = true;
        MatchResult r = matcher.finish();
        return givenUp() || requests == 0 ? null : r;
    }
}
