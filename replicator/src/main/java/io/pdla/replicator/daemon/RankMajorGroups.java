package io.pdla.replicator.daemon;

import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The local patterns that the ranks of one job hand in for one file, as one global pattern whose replica holds rank
 * after rank: each rank's bytes one consecutive region of it, in the rank's own order (a rank-major
 * {@link Geometry#grouped grouped} geometry).
 *
 * <p>Why one replica rather than one per rank: a job's ranks read their replicas at once, and one file per rank puts
 * each rank's data at its own place on every server, so the servers seek between the ranks' files; one replica laid
 * over all servers is read as one stream per server (sim-pfs, 64 ranks: 2.34 times the original's pass against at
 * most 1.42 for any layout of per-rank files; bench/RESULTS-online.md). And one catalog entry is published at once
 * for all ranks, so no pass is served partly from replicas and partly from the original, which is slower than
 * either (the ranks left on the original no longer read it as one stream).
 *
 * <p>Only patterns of the same shape whose starts are equally spaced combine (IOR's strided and segmented shapes,
 * a tile per rank of a row), and only where the copies interleave without sharing a byte (what
 * {@link Geometry#grouped} accepts); anything else stays one replica per rank.
 */
public final class RankMajorGroups {
    /**
     * What the redirect layer reads a replica in, by default: two windows of half its read-ahead budget
     * ({@code RedirectConfig.DEFAULT_READAHEAD}, 4 MiB; a redirect test keeps the two equal). A rank reads its region
     * of a combined replica in requests of this size, which is what the placement prices.
     */
    public static final long SERVED_WINDOW_BYTES = 2L << 20;

    private RankMajorGroups() {
    }

    /** The window the cost model prices a pattern's replica as read in: {@link #SERVED_WINDOW_BYTES} for a rank-major one, 0 otherwise. */
    public static long servedWindow(KeyedPattern p) {
        return p.geometry().groups() > 1 ? SERVED_WINDOW_BYTES : 0;
    }

    /**
     * The one global pattern of {@code locals}, or empty when they do not combine: fewer than two, not all local
     * patterns of one job and file with distinct ranks, not the same shape, starts not equally spaced, or copies that
     * would share bytes. The regions follow the starts (lowest first); requests are the ranks' together.
     */
    public static Optional<KeyedPattern> combine(List<KeyedPattern> locals) {
        if (locals.size() < 2) return Optional.empty();
        KeyedPattern first = locals.get(0);
        PatternKey key = first.key().asGlobal();
        Set<Integer> ranks = new HashSet<>();
        for (KeyedPattern p : locals) {
            if (p.key().global() || !p.key().asGlobal().equals(key) || !ranks.add(p.key().rank())) return Optional.empty();
            if (!sameShape(first.geometry().spec(), p.geometry().spec())) return Optional.empty();
        }
        List<KeyedPattern> byStart = new ArrayList<>(locals);
        byStart.sort(Comparator.comparingLong(p -> p.geometry().start()));
        long step = byStart.get(1).geometry().start() - byStart.get(0).geometry().start();
        for (int i = 1; i < byStart.size(); i++) {
            if (byStart.get(i).geometry().start() - byStart.get(i - 1).geometry().start() != step) return Optional.empty();
        }
        Geometry grouped;
        try {
            grouped = Geometry.grouped(byStart.get(0).geometry(), byStart.size(), step);
        } catch (IllegalArgumentException wouldOverlap) {
            return Optional.empty();
        }
        long requests = 0;
        for (KeyedPattern p : locals) requests = Math.addExact(requests, p.requests());
        return Optional.of(new KeyedPattern(key, grouped, requests, byStart.get(0).totalBytes()));
    }

    /** Everything but the start: the same bytes relative to it, in the same order. */
    private static boolean sameShape(Geometry.Spec a, Geometry.Spec b) {
        return a.groups() == 1 && b.groups() == 1 && a.totalBytes() == b.totalBytes()
                && Arrays.equals(a.segOffsets(), b.segOffsets()) && Arrays.equals(a.segLengths(), b.segLengths())
                && Arrays.equals(a.strides(), b.strides()) && Arrays.equals(a.counts(), b.counts());
    }
}
