package io.pdla.patterns.template;

import io.pdla.access.IoOp;

import java.util.ArrayList;
import java.util.List;

/**
 * IOSIG-style template matching over one rank's data requests to one file, streaming: memory is bounded by
 * {@link MatcherConfig#stackLimit()} sub-patterns, whatever the trace length.
 *
 * <p>The cursor is the current {@link PatternBuilder}. Each request is first offered to it (contiguous,
 * then fixed stride, then "where the closed form predicts", which covers nested levels and size cycles once
 * learned). When it does not fit, the current run is pushed on a short stack and the top of the stack is
 * folded while it can be: two equal-shaped neighbours shifted by D become one more stride level (this is how
 * nested strides of any depth are learned, one level per fold), the same run twice at the same place becomes
 * a repetition, and 2m neighbours A_0..A_{m-1}, A_0+D..A_{m-1}+D become a repeating size sequence. A run of
 * at most {@code outlierMax} requests after which the previous pattern resumes is dropped as outliers. Runs
 * that fall off the bottom of the stack, or remain at the end, are patterns if they have at least
 * {@code minRequests} requests and otherwise count as unexplained (random).
 */
public final class StreamMatcher {
    private final int rank;
    private final int fileId;
    private final MatcherConfig cfg;
    private final List<PatternBuilder> stack = new ArrayList<>(); // bottom first; at most stackLimit()
    private final List<LocalPattern> found = new ArrayList<>();
    private PatternBuilder cur;
    private long lastOffset = -1, lastLength = -1;
    private long requests, bytes, explainedRequests, explainedBytes;

    public StreamMatcher(int rank, int fileId, MatcherConfig cfg) {
        this.rank = rank;
        this.fileId = fileId;
        this.cfg = cfg;
    }

    /** One data request, in the rank's issue order. */
    public void accept(IoOp op, long offset, long length, long startNanos, long endNanos) {
        if (length == 0) return;
        requests++;
        bytes += length;
        if (cur != null && offset == lastOffset && length == lastLength) {
            cur.reaccess(length, op, startNanos, endNanos);
            return;
        }
        lastOffset = offset;
        lastLength = length;
        place(op, offset, length, startNanos, endNanos);
    }

    private void place(IoOp op, long offset, long length, long startNanos, long endNanos) {
        if (cur != null) {
            // only an established pattern resumes; a lone request on the stack is no pattern to return to
            if (cur.requests <= cfg.outlierMax() && !stack.isEmpty() && last().requests >= cfg.minRequests()
                    && last().tryAccept(offset, length, op, startNanos, endNanos)) {
                // cur's requests were outliers inside a pattern that resumes: counted, never explained
                cur = stack.remove(stack.size() - 1);
                return;
            }
            if (cur.tryAccept(offset, length, op, startNanos, endNanos)) return;
            push(cur);
            cur = null;
            PatternBuilder f;
            while ((f = foldTop()) != null) {
                if (f.tryAccept(offset, length, op, startNanos, endNanos)) {
                    cur = f;
                    return;
                }
                push(f);
            }
        }
        cur = PatternBuilder.single(offset, length, op, startNanos, endNanos);
    }

    private PatternBuilder last() {
        return stack.get(stack.size() - 1);
    }

    private void push(PatternBuilder b) {
        stack.add(b);
        if (stack.size() > cfg.stackLimit()) finish(stack.remove(0));
    }

    /** Replaces the top 2 (or 2m) stack entries by their fold, returned popped; null if none folds. */
    private PatternBuilder foldTop() {
        int n = stack.size();
        if (n < 2) return null;
        List<PatternBuilder> top = stack.subList(Math.max(0, n - 2 * cfg.maxPeriod()), n);
        PatternBuilder b = top.get(top.size() - 1), a = top.get(top.size() - 2);
        PatternBuilder f = PatternBuilder.foldRepetition(a, b);
        if (f == null) f = PatternBuilder.foldLevel(a, b);
        int used = 2;
        for (int m = 2; f == null && m <= cfg.maxPeriod() && 2 * m <= top.size(); m++) {
            f = PatternBuilder.foldCycle(top.subList(top.size() - 2 * m, top.size()), cfg.maxCycleSegments());
            used = 2 * m;
        }
        if (f == null) {
            f = foldFlat(top);
            if (f == null) return null;
            used = flatUsed;
        }
        stack.subList(n - used, n).clear();
        return f;
    }

    private final long[] flatOff = new long[4 * 16 * 2];
    private final long[] flatLen = new long[flatOff.length];
    private int flatUsed;

    /**
     * When the greedy runs cut a size cycle at the wrong places (equal sizes at first look like a stride), the
     * trailing small runs are flattened into their requests and searched for a period m: request k + m is
     * request k shifted by one common D, over the whole suffix. Longest suffix first, smallest period first.
     */
    private PatternBuilder foldFlat(List<PatternBuilder> top) {
        int max = flatOff.length / 2;
        int n = top.size();
        int[] startAt = new int[n + 1];
        int from = n;
        int count = 0;
        // find the longest suffix of small runs
        int[] sizes = new int[n];
        for (int i = n - 1; i >= 0; i--) {
            int k = top.get(i).instancesUpTo(cfg.maxCycleSegments());
            if (k < 0 || top.get(i).repetitions != 1 || count + k > max) break;
            sizes[i] = k;
            count += k;
            from = i;
        }
        if (n - from < 2) return null;
        int at = 0;
        for (int i = from; i < n; i++) {
            startAt[i] = at;
            at = top.get(i).flatten(flatOff, flatLen, at);
        }
        for (int s = from; s <= n - 2; s++) {
            int base = startAt[s], f = at - base;
            for (int m = 1; 2 * m <= f && m <= cfg.maxCycleSegments(); m++) {
                long d = flatOff[base + m] - flatOff[base];
                if (d == 0) continue;
                boolean periodic = true;
                for (int k = 0; k + m < f && periodic; k++) {
                    periodic = flatLen[base + k + m] == flatLen[base + k] && flatOff[base + k + m] - flatOff[base + k] == d;
                }
                if (!periodic) continue;
                long[] o = java.util.Arrays.copyOfRange(flatOff, base, at), l = java.util.Arrays.copyOfRange(flatLen, base, at);
                PatternBuilder c = PatternBuilder.flatCycle(top.subList(s, n), o, l, f, m, d);
                if (c != null) {
                    flatUsed = n - s;
                    return c;
                }
            }
        }
        return null;
    }

    private void finish(PatternBuilder b) {
        if (b.requests >= cfg.minRequests()) {
            found.add(b.toPattern(rank, fileId, cfg));
            explainedRequests += b.requests;
            explainedBytes += b.requestBytes;
        }
    }

    /** Ends the stream: every open run is closed. */
    public MatchResult finish() {
        if (cur != null) {
            push(cur);
            cur = null;
            PatternBuilder f;
            while ((f = foldTop()) != null) push(f);
        }
        if (found.isEmpty() && stack.size() == 1 && stack.get(0).requests == requests
                && stack.get(0).geometry().levels() == 0) {
            // the whole stream is one contiguous access of fewer than minRequests requests: IOSIG's
            // "single occurrence" pattern (MPI-Tile-IO with one call per tile)
            PatternBuilder only = stack.remove(0);
            found.add(only.toPattern(rank, fileId, cfg));
            explainedRequests += only.requests;
            explainedBytes += only.requestBytes;
        }
        for (PatternBuilder b : stack) finish(b);
        stack.clear();
        found.sort((x, y) -> Long.compare(x.firstStartNanos(), y.firstStartNanos()));
        return new MatchResult(rank, fileId, found, requests, bytes, explainedRequests, explainedBytes);
    }
}
