package io.pdla.patterns;

import io.pdla.access.IoOp;
import io.pdla.pattern.KeyedPattern;
import io.pdla.patterns.db.PatternEntries;
import io.pdla.patterns.synth.SyntheticTraces;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplicaSelectionTest {

    private static ReplicaSelection.Selection select(TraceSource source) {
        return ReplicaSelection.choose(PatternEntries.of(new Analyzer().analyze(source)));
    }

    @Test
    void aSharedFileThatIsOneRunIsReplacedByEachRanksStridedData() {
        // IOR shared file, 4 ranks, 64 KiB blocks of 16 KiB transfers: together one contiguous file
        ReplicaSelection.Selection s = select(SyntheticTraces.ior(4, 65536, 16384, 8, IoOp.READ));
        assertEquals(4, s.chosen().size(), s.toString());
        for (KeyedPattern p : s.chosen()) {
            assertFalse(p.key().global(), p.toString());
            assertFalse(p.geometry().isAscendingRun(), p.toString());
            assertEquals(4L * 8, p.requests(), "each rank's requests, from the analysis: " + p);
            assertEquals(p.totalBytes(), p.processRun(), "a local replica is one process's run");
        }
        assertEquals(4, s.chosen().stream().map(p -> p.key().rank()).distinct().count());
        assertTrue(s.notes().stream().anyMatch(n -> n.contains("one contiguous range")), s.notes().toString());
    }

    @Test
    void aGlobalPatternThatIsNotARunGetsOneReplicaAndItsMembersNone() {
        long size = 4096;
        // 4 ranks interleaved in the first half of every 32 KiB: the global pattern is strided
        ReplicaSelection.Selection s = select(SyntheticTraces.formula("half", 4, IoOp.READ, size, 16, (r, k) -> k * 8 * size + r * size));
        assertEquals(1, s.chosen().size(), s.toString());
        KeyedPattern g = s.chosen().get(0);
        assertTrue(g.key().global());
        assertEquals(4 * 16 * size, g.totalBytes());
        assertEquals(4 * 16, g.requests());
        assertEquals(size, g.processRun(), "ranks interleave request by request: one request per process run");
    }

    @Test
    void ranksOwningRegionsOfAGlobalReplicaRunAShareEach() {
        // IOR with a stride: rank r's 16 requests in its own region, the global strided over all of them
        ReplicaSelection.Selection s = select(SyntheticTraces.formula("regions", 4, IoOp.READ, 4096, 16, (r, k) -> r * 16 * 8192L + k * 8192));
        assertEquals(1, s.chosen().size(), s.toString());
        assertEquals(s.chosen().get(0).totalBytes() / 4, s.chosen().get(0).processRun());
    }

    @Test
    void aContiguousLocalPatternGetsNoReplica() {
        assertEquals(List.of(), select(SyntheticTraces.formula("seq", 1, IoOp.READ, 4096, 64, (r, k) -> k * 4096)).chosen());
    }

    @Test
    void multiSegmentAndPartialPatternsAreChosenToo() {
        // sizes 1000, 3000 repeating every 8 KiB, 63 requests: a two-segment cycle with a partial last block
        ReplicaSelection.Selection s = select(SyntheticTraces.formula("seq2", 1, IoOp.READ, 63, k -> k % 2 == 0 ? 1000 : 3000,
                (r, k) -> (k / 2) * 8192 + (k % 2) * 1500));
        assertEquals(1, s.chosen().size(), s.toString());
        assertEquals(2, s.chosen().get(0).geometry().segments());
        assertFalse(s.chosen().get(0).geometry().complete());
    }
}
