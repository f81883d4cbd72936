package io.pdla.patterns.template;

import io.pdla.access.Extent;
import io.pdla.access.IoOp;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.RandomGeometries;
import org.junit.jupiter.api.Test;

import java.util.Iterator;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Requests generated from random closed forms (every segment instance one request) are recovered as one
 * pattern with the same byte mapping, whatever equivalent form the matcher picks.
 */
class MatcherRecoversGeneratedPatternsTest {

    @Test
    void recoversRandomStridedNestedAndCyclePatterns() {
        // a fresh seed per run; -Dpdla.matcher.seed=N replays one, -Dpdla.matcher.seeds=K draws K in a row
        Long fixed = Long.getLong("pdla.matcher.seed");
        int seeds = fixed != null ? 1 : Integer.getInteger("pdla.matcher.seeds", 1);
        long drawn = System.nanoTime();
        for (int i = 0; i < seeds; i++) recoverAll(fixed != null ? fixed : drawn + i);
    }

    private static void recoverAll(long seed) {
        Random r = new Random(seed);
        int checked = 0;
        for (int round = 0; round < 10000; round++) {
            Geometry.Spec spec = RandomGeometries.randomSpec(r);
            Geometry g = Geometry.of(spec);
            if (!learnable(g)) continue;
            StreamMatcher m = new StreamMatcher(0, 0, MatcherConfig.defaults());
            long t = 0, requests = 0;
            for (Iterator<Extent> it = g.extents(); it.hasNext(); ) {
                Extent e = it.next();
                m.accept(IoOp.READ, e.offset(), e.length(), t, t + 1);
                t += 1000;
                requests++;
            }
            MatchResult res = m.finish();
            String ctx = "seed " + seed + " (replay: -Dpdla.matcher.seed=" + seed + ") round " + round + " " + spec + " found " + res.patterns();
            assertEquals(requests, res.explainedRequests(), ctx);
            assertEquals(1, res.patterns().size(), ctx);
            Geometry found = res.patterns().get(0).geometry();
            assertEquals(g.totalBytes(), found.totalBytes(), ctx);
            for (long pos = 0; pos < g.totalBytes(); pos++) {
                long o = g.offsetAt(pos);
                assertEquals(pos, found.positionOf(o), ctx + " offset " + o);
            }
            checked++;
        }
        System.out.println("seed " + seed + ": recovered " + checked + " generated patterns");
        assertTrue(checked > 200, "seed " + seed + ": too few learnable cases: " + checked);
    }

    /**
     * Cases the templates promise to learn: single-segment nests of any depth and size cycles under one
     * level; every level repeats at least twice and is complete, at least
     * minRequests requests, and no request starting where the previous one ended.
     */
    static boolean learnable(Geometry g) {
        if (!g.complete()) return false;
        long instances = 1;
        for (int l = 0; l < g.levels(); l++) {
            if (g.count(l) < 2) return false;
            instances *= g.count(l);
        }
        // a size cycle is learned under one stride level; under more levels the greedy runs cut it (documented limit)
        if (g.segments() > 1 && g.levels() != 1) return false;
        // a request starting where the previous one ended is read as one contiguous run (a different, equally
        // valid pattern), so generated forms with such neighbours are not expected back as they were made
        // (the same holds backwards: a request ending where the previous one started, as descending strides make
        // when a level's stride equals the span below it)
        long prevEnd = -1, prevStart = -1;
        for (Iterator<Extent> it = g.extents(); it.hasNext(); ) {
            Extent e = it.next();
            if (e.offset() == prevEnd || e.end() == prevStart) return false;
            prevEnd = e.end();
            prevStart = e.offset();
        }
        if (aRunContinuesOntoARequest(g)) return false;
        return instances * g.segments() >= 3 && g.segments() <= 3;
    }

    /**
     * The aliasing forms the greedy matcher reads differently (found by CI: strides 3, -7, -31 with counts 3, 4, 3;
     * again here with 2, -7, -16 and 3, 2, 4): one step past the end of a level's run lands on a request of the
     * pattern, so the next block's requests continue the level below and "a longer run of that level" explains
     * them as well as the generated nest does. The matcher commits to a run as it reads and cannot see which
     * reading the rest of the stream will confirm, so it keeps the longer run; such streams have two closed forms
     * and the test expects back only the unambiguous ones.
     */
    static boolean aRunContinuesOntoARequest(Geometry g) {
        java.util.List<Long> offsets = new java.util.ArrayList<>();
        for (Iterator<Extent> it = g.extents(); it.hasNext(); ) offsets.add(it.next().offset());
        java.util.Set<Long> starts = new java.util.HashSet<>(offsets);
        // requests come segment fastest, then level 0, level 1, ...: request i's index at level l is
        // (i / (segments * count(0) * ... * count(l-1))) % count(l)
        for (int i = 0; i < offsets.size(); i++) {
            long below = g.segments();
            for (int l = 0; l < g.levels(); l++) {
                boolean lastOfRun = (i / below) % g.count(l) == g.count(l) - 1;
                if (lastOfRun && starts.contains(offsets.get(i) + g.stride(l))) return true;
                below *= g.count(l);
            }
        }
        return false;
    }
}
