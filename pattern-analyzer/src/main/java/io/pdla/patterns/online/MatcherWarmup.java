package io.pdla.patterns.online;

import io.pdla.access.IoOp;
import io.pdla.patterns.template.LocalPattern;
import io.pdla.patterns.template.MatchResult;
import io.pdla.patterns.template.MatcherConfig;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the online matcher over made-up passes at a rank's start, so that the JIT has compiled it before the job's
 * first pass is matched.
 *
 * <p>Why: a job's first pass over a file is the one online PDLA matches whole, and in a fresh JVM it ran in the
 * interpreter and in C1's first tiers: 4-15 us a request against 17-30 ns compiled ({@code MatcherFootprint}), and
 * the JIT compiled the matcher while the pass ran, on the same cores as the ranks. That was most of online
 * matching's cost beyond the tracer's on a 4 KiB-read job (bench/RESULTS-online.md). Here the same code runs once on
 * the rank's warm-up thread, beside MPJ's start-up, and the pass's own matching finds it compiled.
 *
 * <p>The passes are shaped like the ones the matcher meets (a strided pass as IOR's, a sequential one, one with
 * nested strides, and the start of a repeat), so that their profiles take the same branches the job's passes take.
 * It is one warm-up per class copy: per JVM when the ranks share the matcher's classes (the compiled code is then
 * every rank's), per rank otherwise. Nothing here touches a file, the rank's statistics or any state a job reads.
 */
public final class MatcherWarmup {
    /** Requests of each made-up pass: enough for the matcher's hot methods to reach C2's thresholds. */
    static final int REQUESTS_PER_PASS = 6144;

    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private MatcherWarmup() {
    }

    /**
     * Starts the warm-up on a daemon thread when the process's settings turn online PDLA on ({@code PDLA_ONLINE}, as
     * {@code pdla run --online} sets it) and this copy was not warmed yet; whether it started one. The launcher's
     * agent calls it as soon as the shared classes are on the class path, before MPJ starts the ranks, so the
     * matcher is compiled by the time a rank opens its first file; a bad setting starts nothing (the open reports it).
     */
    public static boolean startIfOnline() {
        try {
            if (!OnlineSettings.requested(java.util.Map.of())) return false;
        } catch (IllegalArgumentException badSetting) {
            return false;
        }
        if (!STARTED.compareAndSet(false, true)) return false;
        Thread t = new Thread(MatcherWarmup::run, "pdla-online-warmup");
        t.setDaemon(true);   // never keeps a finished job alive
        t.start();
        return true;
    }

    /** Warms the matcher on the caller's thread unless this copy of it was warmed already; whether it ran now. */
    public static boolean runOnce() {
        if (!STARTED.compareAndSet(false, true)) return false;
        run();
        return true;
    }

    /**
     * Matches the made-up passes; returns the bytes their patterns explain, which is all of their bytes (the warm-up
     * ran the real matching, not a short cut of it).
     */
    static long run() {
        long explained = 0;
        explained += pass(0, 4, 16384, 1, 0);        // IOR's strided shape, 4 ranks
        explained += pass(1, 8, 4096, 1, 1_000_000);  // strided, 4 KiB, another stride
        explained += pass(0, 1, 4096, 1, 2_000_000);  // sequential
        explained += pass(2, 4, 8192, 16, 3_000_000); // nested: 16 blocks of a row, rows strided
        explained += repeatStart(4, 16384);
        return explained;
    }

    /**
     * One pass of {@code rank} of {@code ranks}: {@code run} consecutive blocks of {@code block} bytes, then the
     * other ranks' runs, over and over; the pass's matched bytes.
     */
    private static long pass(int rank, int ranks, long block, int run, long t0) {
        PassMatcher m = new PassMatcher(rank, 0, MatcherConfig.defaults(), OnlineSettings.DEFAULT_WINDOW);
        long t = t0;
        for (int k = 0; k < REQUESTS_PER_PASS; k++) {
            m.accept(IoOp.READ, offset(k, rank, ranks, block, run), block, t, t + 700);
            t += 1000 + (k & 7);
        }
        MatchResult r = m.finish();
        return r == null ? 0 : r.explainedBytes();
    }

    /** A made-up pass of rank 1 of 4 over 16 KiB strided blocks, as a job hands it on (the daemon's intake warm-up; public because {@link HandedInPasses} is no shared class, so a package-private part of this shared one would be out of its reach in a rank). */
    public static MatchResult stridedPass() {
        PassMatcher m = new PassMatcher(1, 0, MatcherConfig.defaults(), OnlineSettings.DEFAULT_WINDOW);
        for (int k = 0; k < 512; k++) m.accept(IoOp.READ, offset(k, 1, 4, 16384, 1), 16384, k * 1000L, k * 1000L + 700);
        return m.finish();
    }

    private static long offset(int k, int rank, int ranks, long block, int run) {
        long row = k / run, inRow = k % run;
        return ((row * ranks + rank) * run + inRow) * block;
    }

    /** The start of a pass that repeats the strided pass: the probe's path at the next open. */
    private static long repeatStart(int ranks, long block) {
        PassMatcher first = new PassMatcher(0, 0, MatcherConfig.defaults(), OnlineSettings.DEFAULT_WINDOW);
        for (int k = 0; k < 256; k++) first.accept(IoOp.READ, offset(k, 0, ranks, block, 1), block, k * 1000L, k * 1000L + 700);
        MatchResult r = first.finish();
        if (r == null || r.patterns().isEmpty()) return 0;
        LocalPattern p = r.patterns().get(0);
        RepeatProbe probe = new RepeatProbe(p.geometry(), p.requests());
        long seen = 0;
        for (int k = 0; k < RepeatProbe.REQUESTS; k++) {
            if (probe.accept(offset(k, 0, ranks, block, 1), block)) seen = (long) RepeatProbe.REQUESTS * block;
        }
        return seen;
    }
}
