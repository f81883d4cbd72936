package io.pdla.patterns;

import io.pdla.access.IoOp;
import io.pdla.patterns.global.GlobalPattern;
import io.pdla.patterns.global.MemberRef;
import io.pdla.patterns.synth.SyntheticTraces;
import io.pdla.pattern.Geometry;
import io.pdla.patterns.template.LocalPattern;
import io.pdla.patterns.template.OpMix;
import io.pdla.patterns.template.PatternKind;
import io.pdla.patterns.template.Temporal;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Generated traces of the benchmarks give exactly the expected local and global patterns and coverage. */
class AnalyzerBenchmarkTracesTest {
    static final long K = 1024, M = 1024 * 1024;

    private static void assertFullCoverage(AnalysisReport r) {
        assertEquals(1.0, r.total().requestFraction(), r.total().toString());
        assertEquals(1.0, r.total().byteFraction(), r.total().toString());
        r.byRank().forEach((rank, c) -> assertEquals(c.requests(), c.explainedRequests(), "rank " + rank));
        assertFalse(r.partial());
    }

    private static List<MemberRef> allRanks(int p) {
        return IntStream.range(0, p).mapToObj(i -> new MemberRef(i, 0)).toList();
    }

    @Test
    void iorSegmentedGivesOneContiguousRunPerRankAndOneContiguousGlobal() {
        int p = 4;
        long b = 1 * M, t = 64 * K;
        AnalysisReport r = new Analyzer().analyze(SyntheticTraces.ior(p, b, t, 1, IoOp.WRITE));
        assertFullCoverage(r);
        assertEquals(p, r.locals().size());
        for (LocalPattern lp : r.locals()) {
            assertEquals(Geometry.contiguous(lp.rank() * b, b), lp.geometry());
            assertEquals(PatternKind.CONTIGUOUS, lp.kind());
            assertEquals(OpMix.WRITE_ONLY, lp.ops());
            assertEquals(b / t, lp.requests());
            assertEquals(Temporal.Kind.FIXED, lp.temporal().kind());
            assertEquals(SyntheticTraces.INTERVAL_NANOS, lp.temporal().meanIntervalNanos());
        }
        assertEquals(1, r.globals().size());
        GlobalPattern g = r.globals().get(0);
        assertEquals(Geometry.contiguous(0, p * b), g.geometry());
        assertEquals(allRanks(p), g.members());
        assertTrue(r.localOnly().isEmpty());
    }

    @Test
    void iorStridedGivesFixedStridePerRankInterleavedIntoOneContiguousGlobal() {
        int p = 8;
        long t = 64 * K, segments = 32;
        AnalysisReport r = new Analyzer().analyze(SyntheticTraces.ior(p, t, t, segments, IoOp.READ));
        assertFullCoverage(r);
        for (LocalPattern lp : r.locals()) {
            assertEquals(Geometry.strided(lp.rank() * t, t, p * t, segments), lp.geometry());
            assertEquals(PatternKind.STRIDED, lp.kind());
            assertEquals("{READ, @" + (lp.rank() * 64) + (lp.rank() == 0 ? "B" : "KiB") + ", 64KiB, STRIDE 512KiB x 32, 32 req, fixed 1.00ms}",
                    io.pdla.patterns.template.Notation.local(lp));
        }
        assertEquals(1, r.globals().size());
        assertEquals(Geometry.contiguous(0, p * t * segments), r.globals().get(0).geometry());
        assertEquals(allRanks(p), r.globals().get(0).members());
    }

    @Test
    void iorBlocksOfSeveralTransfersNestContiguousBlocksInAStride() {
        int p = 4;
        long b = 256 * K, t = 64 * K, s = 8;
        AnalysisReport r = new Analyzer().analyze(SyntheticTraces.ior(p, b, t, s, IoOp.WRITE));
        assertFullCoverage(r);
        for (LocalPattern lp : r.locals()) assertEquals(Geometry.strided(lp.rank() * b, b, p * b, s), lp.geometry());
        assertEquals(Geometry.contiguous(0, p * b * s), r.globals().get(0).geometry());
    }

    @Test
    void filePerProcessStaysLocal() {
        int p = 3;
        AnalysisReport r = new Analyzer().analyze(SyntheticTraces.iorFilePerProcess(p, 1 * M, 128 * K, 2, IoOp.WRITE));
        assertFullCoverage(r);
        assertEquals(p, r.locals().size());
        for (LocalPattern lp : r.locals()) {
            assertEquals(lp.rank(), lp.fileId());
            assertEquals(Geometry.contiguous(0, 2 * M), lp.geometry());
        }
        assertTrue(r.globals().isEmpty());
        assertEquals(p, r.localOnly().size());
        assertEquals(p, r.byFile().size());
    }

    @Test
    void mpiTileIoTilesAreFixedStrideLocallyAndTheWholeArrayGlobally() {
        int nx = 3, ny = 2;
        long szx = 16, szy = 10, elem = 8;
        AnalysisReport r = new Analyzer().analyze(SyntheticTraces.tileIo(nx, ny, szx, szy, elem, IoOp.READ));
        assertFullCoverage(r);
        long rowBytes = nx * szx * elem;
        for (LocalPattern lp : r.locals()) {
            long x0 = (lp.rank() % nx) * szx * elem, y0 = (lp.rank() / nx) * szy;
            assertEquals(Geometry.strided(y0 * rowBytes + x0, szx * elem, rowBytes, szy), lp.geometry());
        }
        assertEquals(1, r.globals().size());
        assertEquals(Geometry.contiguous(0, rowBytes * ny * szy), r.globals().get(0).geometry());
        assertEquals(nx * ny, r.globals().get(0).members().size());
    }

    @Test
    void tilesInsideAWiderArrayMergeIntoAStridedGlobalOverBothTileDimensions() {
        // 2 x 2 tiles of 16 x 8 elements in an array with 40 extra columns: the tiles do not tile the rows, so the
        // global pattern is the tile rows of both tile columns (one segment) at the array's row stride
        int nx = 2, ny = 2;
        long szx = 16, szy = 8, elem = 8, rowX = nx * szx + 40;
        AnalysisReport r = new Analyzer().analyze(SyntheticTraces.formula("tiles-padded", nx * ny, IoOp.READ, szx * elem, szy,
                (rank, k) -> (((rank / nx) * szy + k) * rowX + (rank % nx) * szx) * elem));
        assertFullCoverage(r);
        assertEquals(1, r.globals().size());
        assertEquals(Geometry.strided(0, nx * szx * elem, rowX * elem, ny * szy), r.globals().get(0).geometry());
        assertEquals(allRanks(nx * ny), r.globals().get(0).members());
    }

    @Test
    void tilesOfOneColumnMergeIntoOneLongerStride() {
        // only the first tile column's ranks write: their rows continue one stride
        int nx = 1, ny = 4;
        long szx = 32, szy = 8, elem = 4, rowBytes = 3 * szx * elem;
        AnalysisReport r = new Analyzer().analyze(SyntheticTraces.formula("tiles", nx * ny, IoOp.WRITE, szx * elem, szy,
                (rank, k) -> (rank * szy + k) * rowBytes));
        assertFullCoverage(r);
        GlobalPattern g = r.globals().get(0);
        assertEquals(Geometry.strided(0, szx * elem, rowBytes, ny * szy), g.geometry());
    }

    @Test
    void pioBenchNestedStridedIsTwoLevelLocallyAndMergesByRank() {
        int p = 2;
        long size = 4 * K, inner = 8 * K, innerCount = 4, outer = 64 * K, outerCount = 10;
        AnalysisReport r = new Analyzer().analyze(SyntheticTraces.nestedStrided(p, size, inner, innerCount, outer, outerCount, size, IoOp.READ));
        assertFullCoverage(r);
        for (LocalPattern lp : r.locals()) {
            assertEquals(PatternKind.NESTED_STRIDED, lp.kind());
            assertEquals(Geometry.of(new Geometry.Spec(lp.rank() * size, new long[]{0}, new long[]{size},
                    new long[]{inner, outer}, new long[]{innerCount, outerCount}, size * innerCount * outerCount)), lp.geometry());
        }
        assertEquals(Geometry.strided(0, p * size * innerCount, outer, outerCount), r.globals().get(0).geometry());
    }

    @Test
    void threeLevelNestingIsLearned() {
        long size = 512;
        AnalysisReport r = new Analyzer().analyze(SyntheticTraces.formula("k3", 1, IoOp.READ, size, 3 * 4 * 5,
                (rank, k) -> (k % 3) * 1024 + ((k / 3) % 4) * 8192 + (k / 12) * 100_000));
        assertFullCoverage(r);
        assertEquals(1, r.locals().size());
        assertEquals(Geometry.of(new Geometry.Spec(0, new long[]{0}, new long[]{size}, new long[]{1024, 8192, 100_000},
                new long[]{3, 4, 5}, size * 60)), r.locals().get(0).geometry());
    }

    @Test
    void negativeStrideIsFound() {
        long size = 4096, n = 50;
        AnalysisReport r = new Analyzer().analyze(SyntheticTraces.formula("backwards", 1, IoOp.READ, size, n,
                (rank, k) -> (n - 1 - k) * 3 * size));
        assertFullCoverage(r);
        LocalPattern lp = r.locals().get(0);
        assertEquals(PatternKind.NEGATIVE_STRIDED, lp.kind());
        assertEquals(Geometry.strided((n - 1) * 3 * size, size, -3 * size, n), lp.geometry());
    }

    @Test
    void randomAccessIsMostlyUnexplained() {
        AnalysisReport r = new Analyzer().analyze(SyntheticTraces.random(4, 4096, 5000, 1 << 20, 7));
        assertTrue(r.total().requestFraction() < 0.01, r.total().toString());
        assertEquals(20000, r.total().requests());
    }
}
