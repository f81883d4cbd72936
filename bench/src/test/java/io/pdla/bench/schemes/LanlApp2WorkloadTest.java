package io.pdla.bench.schemes;

import io.pdla.access.IoOp;
import io.pdla.access.TraceRecord;
import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.Analyzer;
import io.pdla.patterns.TraceSource;
import io.pdla.patterns.global.GlobalPattern;
import io.pdla.patterns.template.PatternKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The LANL App2-like workload: three parts of one shared file, small, medium and alternating large requests. */
class LanlApp2WorkloadTest {
    static final long K = 1 << 10, M = 1 << 20;

    static List<TraceRecord> records(TraceSource s, int rank) {
        List<TraceRecord> out = new ArrayList<>();
        for (Iterator<TraceRecord> it = s.records(rank); it.hasNext(); ) out.add(it.next());
        return out;
    }

    @Test
    void eachRankDoesSmallThenMediumThenAlternatingLargeRequestsInItsOwnRegions() {
        int procs = 4;
        long perPart = 8 * M;
        var w = SchemeWorkloads.lanlApp2(procs, perPart, 16 * K, 128 * K, M, 4 * M);
        // part sizes per rank: 512 x 16k and 64 x 128k (8 MiB each), 8m / 5m -> at least 2 pairs of 1m + 4m
        long part1Region = 512 * 32 * K, part2Region = 64 * 256 * K, part3Region = 2 * 10 * M;
        long part2Base = procs * part1Region, part3Base = part2Base + procs * part2Region;
        for (int r = 0; r < procs; r++) {
            List<TraceRecord> recs = records(w.read(), r);
            assertEquals(512 + 64 + 4, recs.size(), "rank " + r);
            for (int k = 0; k < 512; k++) {
                TraceRecord x = recs.get(k);
                assertEquals(16 * K, x.length());
                assertEquals(r * part1Region + k * 32 * K, x.offset(), "rank " + r + " part 1 request " + k);
            }
            for (int k = 0; k < 64; k++) {
                TraceRecord x = recs.get(512 + k);
                assertEquals(128 * K, x.length());
                assertEquals(part2Base + r * part2Region + k * 256 * K, x.offset(), "rank " + r + " part 2 request " + k);
            }
            long base = part3Base + r * part3Region;
            long[] expectedOffsets = {base, base + 2 * M, base + 10 * M, base + 12 * M};
            long[] expectedSizes = {M, 4 * M, M, 4 * M};
            for (int k = 0; k < 4; k++) {
                TraceRecord x = recs.get(576 + k);
                assertEquals(expectedSizes[k], x.length(), "rank " + r + " part 3 request " + k);
                assertEquals(expectedOffsets[k], x.offset(), "rank " + r + " part 3 request " + k);
            }
            for (int k = 1; k < recs.size(); k++) {
                assertTrue(recs.get(k).startNanos() > recs.get(k - 1).startNanos(), "issue order kept across parts, rank " + r);
            }
            // the write phase touches the same bytes
            List<TraceRecord> writes = records(w.write(), r);
            assertEquals(recs.size(), writes.size());
            for (int k = 0; k < recs.size(); k++) {
                assertEquals(IoOp.WRITE, writes.get(k).op());
                assertEquals(recs.get(k).offset(), writes.get(k).offset());
                assertEquals(recs.get(k).length(), writes.get(k).length());
            }
        }
    }

    @Test
    void noTwoRanksShareAByteAndTheTotalIsEveryRanksThreeParts() {
        int procs = 8;
        long perPart = 2 * M;
        var w = SchemeWorkloads.lanlApp2(procs, perPart);
        List<TraceRecord> all = new ArrayList<>();
        for (int r = 0; r < procs; r++) all.addAll(records(w.read(), r));
        all.sort(Comparator.comparingLong(TraceRecord::offset));
        for (int i = 1; i < all.size(); i++) {
            TraceRecord a = all.get(i - 1), b = all.get(i);
            assertTrue(a.offset() + a.length() <= b.offset(), "rank " + a.rank() + " and rank " + b.rank() + " overlap at " + b.offset());
        }
        // per rank: 2 MiB of 16k, 2 MiB of 128k, and 2 pairs of 1m + 4m (2m / 5m rounds down below the minimum of 2)
        long perRank = 2 * M + 2 * M + 2 * (M + 4 * M);
        assertEquals(procs * perRank, all.stream().mapToLong(TraceRecord::length).sum());
    }

    @Test
    void theAnalyzerFindsTheAlternatingPartAsASizeCycle() {
        var w = SchemeWorkloads.lanlApp2(8, 16 * M);
        AnalysisReport report = new Analyzer().analyze(w.read());
        assertEquals(1.0, report.total().byteFraction(), 1e-12, "every byte explained: " + report.total());
        List<GlobalPattern> globals = report.globals();
        assertEquals(3, globals.size(), globals.toString());
        assertEquals(List.of(16 * K), sizes(globals.get(0)), globals.get(0).toString());
        assertEquals(List.of(128 * K), sizes(globals.get(1)), globals.get(1).toString());
        GlobalPattern large = globals.get(2);
        assertEquals(PatternKind.SIZE_SEQUENCE, large.kind(), large.toString());
        assertEquals(List.of(M, 4 * M), sizes(large), large.toString());
        assertEquals(2, large.geometry().segments(), "one cycle of two segments: " + large);
        assertEquals(8 * 3 * 5 * M, large.geometry().totalBytes(), "3 pairs per rank, 8 ranks: " + large);
        // the three share one key (the application, all ranks, the file): the catalog holds one replica per key, so the
        // daemon replicates the one with the most bytes and says so
        var sel = io.pdla.patterns.ReplicaSelection.choose(io.pdla.patterns.db.PatternEntries.of(report));
        assertEquals(1, sel.chosen().size(), sel.toString());
        GlobalPattern most = globals.stream().max(java.util.Comparator.comparingLong(g -> g.geometry().totalBytes())).orElseThrow();
        assertEquals(most.geometry(), sel.chosen().get(0).geometry());
        assertTrue(sel.notes().stream().anyMatch(n -> n.contains("3 patterns under one key")), sel.notes().toString());
    }

    static List<Long> sizes(GlobalPattern g) {
        return java.util.Arrays.stream(g.requestSizes()).sorted().boxed().toList();
    }

    @Test
    void everySchemeRunsAndTheReplicatingSchemesMoveTheSameBytes() {
        var cmp = new SchemeComparison(SchemeComparison.Settings.defaults());
        SchemeComparison.Table t = cmp.compare(SchemeWorkloads.lanlApp2(16, 4 * M));
        assertEquals(List.of("Original", "PD", "H-PDLA", "S-ORIG", "NS-PDLA", "S-PDLA"),
                t.rows().stream().map(SchemeComparison.Row::name).toList());
        for (SchemeComparison.Row r : t.rows()) assertTrue(r.readMiBps() > 0 && r.writeMiBps() > 0, r.toString());
        assertEquals(1, t.readPatterns());
        assertEquals(1, t.writePatterns());
        SchemeComparison.Row h = t.row(Scheme.H_PDLA), s = t.row(Scheme.S_PDLA), o = t.row(Scheme.ORIGINAL);
        // Not asserted since issue 17: H-PDLA over Original (at this small size the 1-DV replica of one part of
        // three is below the original on reads, see RESULTS-schemes.md); every scheme moved the same bytes.
        assertTrue(h.readSeconds() > 0 && o.readSeconds() > 0);
        assertTrue(s.readMiBps() > h.readMiBps() && s.writeMiBps() > h.writeMiBps(), "S-PDLA " + s + " vs H-PDLA " + h);
        assertTrue(t.markdown().contains("LANL App2-like 16k / 128k / 1m+4m alternating, 16 procs"), t.markdown());
    }

    @Test
    void badParametersAreNamed() {
        var e = assertThrows(IllegalArgumentException.class, () -> SchemeWorkloads.lanlApp2(0, M));
        assertTrue(e.getMessage().contains("processes"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SchemeWorkloads.lanlApp2(4, 0));
        assertTrue(e.getMessage().contains("bytes per part"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SchemeWorkloads.lanlApp2(4, M, 0, 128 * K, M, 4 * M));
        assertTrue(e.getMessage().contains("small request size"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SchemeWorkloads.lanlApp2(4, M, 16 * K, -1, M, 4 * M));
        assertTrue(e.getMessage().contains("medium request size"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SchemeWorkloads.lanlApp2(4, M, 16 * K, 128 * K, 0, 4 * M));
        assertTrue(e.getMessage().contains("large request size A"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SchemeWorkloads.lanlApp2(4, M, 16 * K, 128 * K, 4 * M, 4 * M));
        assertTrue(e.getMessage().contains("must differ"), e.getMessage());
    }
}
