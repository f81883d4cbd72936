package io.pdla.patterns;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.access.TraceRecord;
import io.pdla.patterns.synth.SyntheticTraces;
import io.pdla.pattern.Geometry;
import io.pdla.patterns.template.LocalPattern;
import io.pdla.patterns.template.OpMix;
import io.pdla.patterns.template.PatternKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Noise, changes, and damaged input: patterns still found, coverage honest, damage reported. */
class AnalyzerNoisyAndDamagedTracesTest {
    private static final TracedJob JOB = SyntheticTraces.job("app --in x", 1, "/data/x");

    private static final class Trace {
        final List<TraceRecord> recs = new ArrayList<>();
        long t = 0;

        Trace data(IoOp op, long off, long len) {
            recs.add(new TraceRecord(0, 0, op, Positioning.EXPLICIT_OFFSET, false, off, len, t, t + 10));
            t += 1000;
            return this;
        }

        Trace meta(IoOp op) {
            recs.add(new TraceRecord(0, 0, op, Positioning.NONE, false, 0, 0, t, t + 5));
            t += 1000;
            return this;
        }

        AnalysisReport analyze() {
            return new Analyzer().analyze(InMemoryTraceSource.of(JOB, Map.of(0, recs)));
        }
    }

    @Test
    void metadataInterleavedIsSkippedAndCounted() {
        Trace tr = new Trace().meta(IoOp.OPEN);
        for (int k = 0; k < 40; k++) {
            tr.data(IoOp.WRITE, k * 8192L, 4096);
            if (k % 5 == 0) tr.meta(IoOp.SEEK);
        }
        tr.meta(IoOp.CLOSE);
        AnalysisReport r = tr.analyze();
        assertEquals(1, r.locals().size());
        assertEquals(Geometry.strided(0, 4096, 8192, 40), r.locals().get(0).geometry());
        assertEquals(1.0, r.total().requestFraction());
        assertEquals(2 + 8, r.metadataRecords());
    }

    @Test
    void outliersInsideAPatternAreDroppedAndCoverageIsBelowOne() {
        Trace tr = new Trace();
        int outliers = 0;
        for (int k = 0; k < 60; k++) {
            tr.data(IoOp.READ, k * 65536L, 4096);
            if (k == 20 || k == 41) {
                tr.data(IoOp.READ, 999_999_999L + k, 100);
                outliers++;
            }
        }
        AnalysisReport r = tr.analyze();
        assertEquals(1, r.locals().size(), r.locals().toString());
        assertEquals(Geometry.strided(0, 4096, 65536, 60), r.locals().get(0).geometry());
        Coverage c = r.total();
        assertEquals(60 + outliers, c.requests());
        assertEquals(60, c.explainedRequests());
        assertTrue(c.requestFraction() < 1.0);
        assertEquals(60 * 4096, c.explainedBytes());
    }

    @Test
    void aPatternThatChangesHalfwayGivesTwoPatterns() {
        Trace tr = new Trace();
        for (int k = 0; k < 30; k++) tr.data(IoOp.WRITE, k * 8192L, 4096);
        long base = 10_000_000;
        for (int k = 0; k < 30; k++) tr.data(IoOp.WRITE, base + k * 3 * 16384L, 16384);
        AnalysisReport r = tr.analyze();
        List<LocalPattern> l = r.locals();
        assertEquals(2, l.size(), l.toString());
        assertEquals(Geometry.strided(0, 4096, 8192, 30), l.get(0).geometry());
        assertEquals(Geometry.strided(base, 16384, 3 * 16384, 30), l.get(1).geometry());
        assertEquals(1.0, r.total().requestFraction());
    }

    @Test
    void repeatingSizeSequenceIsOneCyclePattern() {
        Trace tr = new Trace();
        long period = 1 << 20;
        for (int k = 0; k < 25; k++) {
            tr.data(IoOp.READ, k * period, 100 * 1024);
            tr.data(IoOp.READ, k * period + 200 * 1024, 300 * 1024);
        }
        AnalysisReport r = tr.analyze();
        assertEquals(1, r.locals().size(), r.locals().toString());
        LocalPattern p = r.locals().get(0);
        assertEquals(PatternKind.SIZE_SEQUENCE, p.kind());
        assertEquals(Geometry.of(new Geometry.Spec(0, new long[]{0, 200 * 1024}, new long[]{100 * 1024, 300 * 1024},
                new long[]{period}, new long[]{25}, 25 * 400 * 1024)), p.geometry());
        assertEquals(50, p.requests());
        assertEquals(1.0, r.total().requestFraction());
    }

    @Test
    void contiguousRequestsOfVaryingSizeAreOneRun() {
        Trace tr = new Trace();
        long off = 4096;
        long[] sizes = {100, 5000, 100, 70000, 3};
        for (int rep = 0; rep < 4; rep++) for (long s : sizes) {
            tr.data(IoOp.WRITE, off, s);
            off += s;
        }
        LocalPattern p = tr.analyze().locals().get(0);
        assertEquals(Geometry.contiguous(4096, off - 4096), p.geometry());
        assertEquals(20, p.requests());
        assertEquals(4, p.requestSizes().length);
    }

    @Test
    void repetitionsOfTheSamePatternAreCounted() {
        Trace tr = new Trace();
        for (int rep = 0; rep < 4; rep++) for (int k = 0; k < 16; k++) tr.data(IoOp.READ, k * 10_000L, 1000);
        AnalysisReport r = tr.analyze();
        assertEquals(1, r.locals().size(), r.locals().toString());
        LocalPattern p = r.locals().get(0);
        assertEquals(4, p.repetitions());
        assertEquals(64, p.requests());
        assertEquals(Geometry.strided(0, 1000, 10_000, 16), p.geometry());
        assertTrue(io.pdla.patterns.template.Notation.local(p).contains("rep 4"));
    }

    @Test
    void readModifyWriteIsOneReadWritePattern() {
        Trace tr = new Trace();
        for (int k = 0; k < 20; k++) {
            tr.data(IoOp.READ, k * 4096L * 4, 4096);
            tr.data(IoOp.WRITE, k * 4096L * 4, 4096);
        }
        AnalysisReport r = tr.analyze();
        LocalPattern p = r.locals().get(0);
        assertEquals(OpMix.READ_WRITE, p.ops());
        assertEquals(40, p.requests());
        assertEquals(Geometry.strided(0, 4096, 16384, 20), p.geometry());
        assertEquals(1.0, r.total().requestFraction());
    }

    @Test
    void aSingleLargeRequestIsASingleOccurrencePatternButTwoScatteredOnesAreNot() {
        AnalysisReport one = new Trace().data(IoOp.READ, 1 << 20, 1_024_000).analyze();
        assertEquals(1, one.locals().size());
        assertEquals(Geometry.contiguous(1 << 20, 1_024_000), one.locals().get(0).geometry());
        assertEquals(1.0, one.total().requestFraction());
        AnalysisReport two = new Trace().data(IoOp.READ, 0, 100).data(IoOp.READ, 5000, 300).analyze();
        assertTrue(two.locals().isEmpty(), two.locals().toString());
        assertEquals(0.0, two.total().requestFraction());
    }

    @Test
    void interleavedFilesAreMatchedSeparatelyAndIrregularTimingIsReported() {
        TracedJob job = new TracedJob("two-files", 1, Map.of(0, "/a", 1, "/b"), Map.of(), RuntimeInfo.unknown());
        List<TraceRecord> recs = new ArrayList<>();
        java.util.Random rnd = new java.util.Random(5);
        long t = 0;
        for (int k = 0; k < 30; k++) {
            t += 1000 + rnd.nextInt(50_000);   // irregular intervals
            recs.add(new TraceRecord(0, 0, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, false, k * 4096L, 4096, t, t + 10));
            recs.add(new TraceRecord(0, 1, IoOp.READ, Positioning.EXPLICIT_OFFSET, false, 1_000_000 - k * 8192L, 512, t + 1, t + 20));
        }
        AnalysisReport r = new Analyzer().analyze(InMemoryTraceSource.of(job, Map.of(0, recs)));
        assertEquals(2, r.locals().size(), r.locals().toString());
        LocalPattern a = r.locals().stream().filter(p -> p.fileId() == 0).findFirst().orElseThrow();
        LocalPattern b = r.locals().stream().filter(p -> p.fileId() == 1).findFirst().orElseThrow();
        assertEquals(Geometry.contiguous(0, 30 * 4096), a.geometry());
        assertEquals(PatternKind.NEGATIVE_STRIDED, b.kind());
        assertEquals(Geometry.of(new Geometry.Spec(1_000_000, new long[]{0}, new long[]{512}, new long[]{-8192}, new long[]{30}, 30 * 512)), b.geometry());
        assertEquals(io.pdla.patterns.template.Temporal.Kind.IRREGULAR, a.temporal().kind());
        assertEquals(1.0, r.byFile().get(0).requestFraction());
        assertEquals(1.0, r.byFile().get(1).requestFraction());
        assertTrue(io.pdla.patterns.template.Notation.local(a).endsWith(", irregular}"), io.pdla.patterns.template.Notation.local(a));
    }

    @Test
    void mixedJobsAreRejectedNamingTheRank() {
        InMemoryTraceSource src = SyntheticTraces.ior(4, 65536, 65536, 4, IoOp.WRITE);
        src.withJobOf(2, SyntheticTraces.job("other-app", 4, "/data/x"));
        TraceInputException e = assertThrows(TraceInputException.class, () -> new Analyzer().analyze(src));
        assertTrue(e.getMessage().contains("rank 2") && e.getMessage().contains("other-app"), e.getMessage());
    }

    @Test
    void missingRanksGiveAPartialResultWithAWarning() {
        InMemoryTraceSource full = SyntheticTraces.ior(4, 65536, 65536, 8, IoOp.WRITE);
        InMemoryTraceSource src = new InMemoryTraceSource(full.job(), new TreeSet<>(List.of(0, 1, 3)), full::records);
        AnalysisReport r = new Analyzer().analyze(src);
        assertTrue(r.partial());
        assertTrue(r.warnings().get(0).contains("1 of 4 ranks: [2]"), r.warnings().toString());
        assertEquals(3, r.locals().size());
        // ranks 0,1,3 do not factor into one rank stride: no global pattern is invented
        assertTrue(r.globals().isEmpty(), r.globals().toString());
    }

    @Test
    void truncatedRankTraceKeepsWhatCameBeforeAndIsMarkedPartial() {
        InMemoryTraceSource full = SyntheticTraces.ior(2, 4096, 4096, 100, IoOp.READ);
        InMemoryTraceSource src = new InMemoryTraceSource(full.job(), full.ranks(), rank -> {
            Iterator<TraceRecord> it = full.records(rank);
            if (rank == 0) return it;
            return new Iterator<>() {
                int n = 0;

                @Override
                public boolean hasNext() {
                    return true;
                }

                @Override
                public TraceRecord next() {
                    if (n++ == 40) throw new TruncatedTraceException("rank-1.trace: 17 bytes left after record 40");
                    return it.next();
                }
            };
        });
        AnalysisReport r = new Analyzer().analyze(src);
        assertTrue(r.partial());
        assertTrue(r.warnings().stream().anyMatch(w -> w.contains("rank 1") && w.contains("truncated")), r.warnings().toString());
        assertEquals(40, r.byRank().get(1).requests());
        assertEquals(Geometry.strided(4096, 4096, 8192, 40), r.locals().stream().filter(l -> l.rank() == 1).findFirst().orElseThrow().geometry());
    }
}
