package io.pdla.patterns.rootcause;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SweepLineTest {

    @Test
    void publishedFigure3() {
        // IOMiner Fig. 3: File1 0-10, File3 4-8, File2 6-12, File4 16-18 (starts 0,4,6,16; ends 8,10,12,18)
        List<FileIoStats> files = List.of(FileIoStats.interval("File1", 0, 10), FileIoStats.interval("File3", 4, 8),
                FileIoStats.interval("File2", 6, 12), FileIoStats.interval("File4", 16, 18));
        CriticalPath cp = SweepLine.run(files);
        assertEquals(List.of(new Share("File1", 0, 10), new Share("File2", 10, 12), new Share("File4", 16, 18)), cp.shares());
        assertEquals(14, cp.seconds());
        assertEquals(18, cp.span());
    }

    /** Brute force: union length by merging, minimum cover by trying every subset. */
    private static double unionLength(List<double[]> iv) {
        List<double[]> s = new ArrayList<>(iv);
        s.sort((a, b) -> Double.compare(a[0], b[0]));
        double total = 0, cs = Double.NaN, ce = Double.NaN;
        for (double[] x : s) {
            if (x[1] <= x[0]) continue;
            if (Double.isNaN(cs) || x[0] > ce) {
                if (!Double.isNaN(cs)) total += ce - cs;
                cs = x[0];
                ce = x[1];
            } else ce = Math.max(ce, x[1]);
        }
        if (!Double.isNaN(cs)) total += ce - cs;
        return total;
    }

    @Test
    void agreesWithBruteForceOnRandomIntervals() {
        long seed = System.nanoTime();
        System.out.println("SweepLineTest seed " + seed);
        Random r = new Random(seed);
        for (int round = 0; round < 2000; round++) {
            int n = 1 + r.nextInt(10);
            List<FileIoStats> files = new ArrayList<>();
            List<double[]> iv = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                double s = r.nextInt(30), e = s + r.nextInt(12);
                files.add(FileIoStats.interval("f" + i, s, e));
                iv.add(new double[]{s, e});
            }
            String ctx = "seed " + seed + " round " + round + " " + files;
            CriticalPath cp = SweepLine.run(files);
            double union = unionLength(iv);
            assertEquals(union, cp.seconds(), 1e-9, ctx);
            // shares: disjoint, each inside its own file's interval, positive
            double prevEnd = Double.NEGATIVE_INFINITY;
            for (Share s : cp.shares()) {
                int i = Integer.parseInt(s.file().substring(1));
                assertTrue(s.from() >= iv.get(i)[0] && s.to() <= iv.get(i)[1] && s.to() > s.from(), ctx);
                assertTrue(s.from() >= prevEnd, ctx);
                prevEnd = s.to();
            }
            assertEquals(cp.shares().size(), cp.shares().stream().map(Share::file).distinct().count(), ctx);
            // the critical files are a minimum cover
            int best = Integer.MAX_VALUE;
            for (int mask = 0; mask < (1 << n); mask++) {
                List<double[]> sub = new ArrayList<>();
                for (int i = 0; i < n; i++) if ((mask & (1 << i)) != 0) sub.add(iv.get(i));
                if (Math.abs(unionLength(sub) - union) < 1e-9) best = Math.min(best, Integer.bitCount(mask));
            }
            assertEquals(best, cp.shares().size(), ctx + " shares " + cp.shares());
        }
    }

    @Test
    void factorsAreWeightedByExclusiveTime() {
        // A: 0-10 exclusive 10 s, all small; B: 10-12 exclusive 2 s, none small; C inside A: not critical
        List<FileIoStats> files = List.of(
                new FileIoStats("A", 0, 10, 0L, 1000L, 100L, 100L, 0L, false, java.util.Set.of(0), 1, java.util.Set.of(7), 1.0),
                new FileIoStats("B", 5, 12, 0L, 3000L, 50L, 0L, 50L, true, java.util.Set.of(0, 1, 2, 3), 2, java.util.Set.of(1, 2), 0.0),
                new FileIoStats("C", 2, 3, 0L, 500L, 10L, 10L, 10L, false, java.util.Set.of(1), 1, java.util.Set.of(9), null));
        RootCauseReport rep = RootCauseAnalyzer.analyze(files, java.util.Map.of(0, 3000L, 1, 1000L, 2, 250L, 3, 250L));
        assertEquals(12, rep.criticalPath().seconds());
        Factor small = rep.factors().get(0);
        assertEquals((1.0 * 10 + 0.0 * 2) / 12, small.value(), 1e-12);
        assertEquals((0.0 * 10 + 1.0 * 2) / 12, rep.factors().get(1).value(), 1e-12);
        assertEquals(2.0 / 12, rep.factors().get(2).value(), 1e-12);
        assertEquals((1.0 * 10 + 2.0 * 2) / 12, rep.factors().get(3).value(), 1e-12); // procs / stripes
        assertEquals((0.1 * 10 + 0.0) / 12, rep.factors().get(5).value(), 1e-12);      // 1 s of A's 10 s in metadata
        assertEquals(4500.0 / 12, rep.criticalPathBandwidth(), 1e-9);
        assertEquals(4500.0 / 12, rep.spanBandwidth(), 1e-9);
        assertEquals("A", rep.dominantFiles().get(0).file());
        assertEquals(10.0 / 12, rep.dominantFiles().get(0).fraction(), 1e-12);
        assertEquals("N-M", rep.ioMode());
        assertEquals(4, rep.storageTargetsUsed());
        assertEquals(3000.0 / (4500.0 / 4), rep.rankImbalance(), 1e-12);
        String text = RootCauseText.text(rep, 5);
        assertTrue(text.contains("critical files: 2"), text);
        assertTrue(RootCauseText.json(rep).contains("\"ioMode\" : \"N-M\""));
    }

    @Test
    void ioModes() {
        assertEquals("N-1", RootCauseAnalyzer.ioMode(List.of(stats("x", 0, 1, 2))));
        assertEquals("1-1", RootCauseAnalyzer.ioMode(List.of(stats("x", 0))));
        assertEquals("1-M", RootCauseAnalyzer.ioMode(List.of(stats("x", 0), stats("y", 0))));
        assertEquals("N-N", RootCauseAnalyzer.ioMode(List.of(stats("x", 0), stats("y", 1))));
        assertEquals("N-M", RootCauseAnalyzer.ioMode(List.of(stats("x", 0, 1), stats("y", 2, 3))));
    }

    private static FileIoStats stats(String f, Integer... ranks) {
        return new FileIoStats(f, 0, 1, null, null, null, null, null, null, java.util.Set.of(ranks), null, null, null);
    }

    @Test
    void aMillionFilesSweepQuicklyAndStillCoverTheUnion() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        List<FileIoStats> files = new ArrayList<>(1_000_000);
        List<double[]> iv = new ArrayList<>(1_000_000);
        for (int i = 0; i < 1_000_000; i++) {
            double s = r.nextDouble() * 1e5, e = s + r.nextDouble() * 10;
            files.add(FileIoStats.interval("f" + i, s, e));
            iv.add(new double[]{s, e});
        }
        SweepLine.run(files); // warm-up
        long t0 = System.nanoTime();
        CriticalPath cp = SweepLine.run(files);
        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.println("sweep line over 10^6 files: " + secs + " s, " + cp.shares().size() + " critical files");
        String ctx = "seed " + seed;
        // the critical path is the union of the intervals (merged independently here) and its shares tile it
        assertEquals(unionLength(iv), cp.seconds(), 1e-6, ctx);
        double covered = 0, prevEnd = Double.NEGATIVE_INFINITY;
        for (Share sh : cp.shares()) {
            assertTrue(sh.from() >= prevEnd && sh.to() > sh.from(), ctx + ": shares overlap or are empty at " + sh);
            covered += sh.to() - sh.from();
            prevEnd = sh.to();
        }
        assertEquals(cp.seconds(), covered, 1e-6, ctx);
        assertTrue(secs < 5, "10^6 files took " + secs + " s"); // generous on a shared 2-core box; bench records the figure
    }
}
