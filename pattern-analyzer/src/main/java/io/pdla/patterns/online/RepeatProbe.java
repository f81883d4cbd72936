package io.pdla.patterns.online;

import io.pdla.pattern.Geometry;

/**
 * Watches the start of a pass over a file whose previous pass was a candidate: when its first {@value #REQUESTS}
 * requests (or all of the previous pass's first pattern, if fewer) touch exactly the bytes the previous pass's first
 * pattern touches, in its order, the pattern is seen to repeat, and it can be handed on then rather than at the
 * pass's end: a pass earlier for the replica. Any request off that order ends the watch; the pass is then judged
 * whole at its end, as without the probe. Costs one closed-form lookup per request for at most
 * {@value #REQUESTS} requests.
 */
public final class RepeatProbe {
    static final int REQUESTS = 64;

    private final Geometry expected;
    private final long needed;
    private long position;
    private long seen;
    private boolean off;

    public RepeatProbe(Geometry expected, long patternRequests) {
        this.expected = expected;
        this.needed = Math.max(1, Math.min(REQUESTS, patternRequests));
    }

    /**
     * One read extent of the pass, in issue order; true exactly once, at the request that completes the repeat.
     */
    public boolean accept(long offset, long length) {
        if (off || seen >= needed) return false;
        if (length <= 0 || position + length > expected.totalBytes() || expected.offsetAt(position) != offset
                || expected.segmentRemaining(position) < length) {
            off = true;
            return false;
        }
        position += length;
        return ++seen == needed;
    }
}
