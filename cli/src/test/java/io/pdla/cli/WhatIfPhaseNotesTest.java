package io.pdla.cli;

import static org.junit.jupiter.api.Assertions.*;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.access.TraceRecord;
import io.pdla.bench.schemes.Scheme;
import io.pdla.bench.schemes.SchemeComparison;
import io.pdla.costmodel.Op;
import io.pdla.patterns.Analyzer;
import io.pdla.patterns.InMemoryTraceSource;
import io.pdla.patterns.TraceSource;
import io.pdla.patterns.TracedJob;
import io.pdla.patterns.synth.SyntheticTraces;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The notes what-if prints under a phase: where they apply and where they do not. */
class WhatIfPhaseNotesTest {
    static final long K = 1 << 10;
    static final SchemeComparison CMP = new SchemeComparison(SchemeComparison.Settings.defaults());

    static List<String> notes(TraceSource phase) {
        var analysis = new Analyzer().analyze(phase);
        return WhatIfPhaseNotes.of(CMP, CMP.phase("p", phase, Op.READ, analysis), phase, "p", analysis);
    }

    @Test
    void aOneMiBPhaseIsToldThatTheHeadsStartOnTheOriginalAndGetsTheParkedFigures() {
        // IOR -b 16k -t 16k -s 16 on 4 ranks, the committed Darshan log's reads: 1 MiB
        var ior = SyntheticTraces.ior(4, 16 * K, 16 * K, 16, IoOp.READ);
        List<String> n = notes(ior);
        assertEquals(1, n.size(), n.toString());
        String note = n.get(0);
        assertTrue(note.contains("disk heads rest on the original's first byte"), note);
        for (Scheme s : Scheme.values()) assertTrue(note.contains(s.label() + " "), s + " in " + note);
        // the figures are the parked comparison's
        var parked = CMP.headsParked();
        var chosen = SchemeComparison.chosen(ior);
        double original = parked.run(Scheme.ORIGINAL, chosen, ior, "p").elapsedSeconds();
        double pd = parked.run(Scheme.PD, chosen, ior, "p").elapsedSeconds();
        assertTrue(note.contains(String.format(java.util.Locale.ROOT, "Original %.4g s", original)), note);
        assertTrue(pd < original, "from parked heads PD " + pd + " s is faster than Original " + original + " s");
    }

    @Test
    void aPhaseLongEnoughForTheStartToWashOutGetsNoNote() {
        // 8 ranks x 32 x 256 KiB at a 512 KiB stride (64 MiB): the start moves the Original by a few per cent
        var w = io.pdla.bench.schemes.SchemeWorkloads.iorFixedStride(8, 256 * K, 512 * K, 32);
        assertEquals(List.of(), notes(w.read()));
    }

    @Test
    void replicasHoldingPartOfThePhaseSayHowMuchAndThatTheKeyHoldsSeveralPatterns() {
        // one rank reading a 512 KiB file in four interleaved strided passes (the Python log's checkpoint): four
        // patterns under one key, one replica
        TracedJob job = new TracedJob("passes", 1, Map.of(0, "/data/ck.dat"), Map.of(), null);
        List<TraceRecord> records = new ArrayList<>();
        for (int pass = 0; pass < 4; pass++) {
            for (int k = 0; k < 16; k++) {
                long t = (pass * 16L + k) * 1000;
                records.add(new TraceRecord(0, 0, IoOp.READ, Positioning.EXPLICIT_OFFSET, false, pass * 8 * K + k * 32 * K, 8 * K, t, t + 500));
            }
        }
        var phase = new InMemoryTraceSource(job, new TreeSet<>(List.of(0)), rank -> records.iterator());
        var result = CMP.phase("p", phase, Op.READ);
        String note = WhatIfPhaseNotes.replicaCoverage(result, phase, new Analyzer().analyze(phase));
        assertNotNull(note);
        assertTrue(note.startsWith("the replicas hold 25% of these bytes (131072 of 524288)"), note);
        assertTrue(note.endsWith("rank 0's key holds several"), note);
        // every byte in a replica: no coverage note
        var ior = SyntheticTraces.ior(4, 16 * K, 16 * K, 16, IoOp.READ);
        assertNull(WhatIfPhaseNotes.replicaCoverage(CMP.phase("p", ior, Op.READ), ior, new Analyzer().analyze(ior)));
    }
}
