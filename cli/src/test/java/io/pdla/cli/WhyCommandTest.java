package io.pdla.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdla.access.IoOp;
import io.pdla.patterns.TraceSourceFactory;
import io.pdla.patterns.synth.SyntheticTraces;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static io.pdla.cli.AnalyzeCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WhyCommandTest {
    @TempDir
    Path tmp;

    private Path figure3() throws Exception {
        return Files.writeString(tmp.resolve("fig3.csv"), "file,start,end,bytes_written\nFile1,0,10,1000\nFile3,4,8,10\nFile2,6,12,100\nFile4,16,18,290\n");
    }

    @Test
    void intervalsFromCsvGiveTheCriticalPath() throws Exception {
        AnalyzeCommandTest.Run r = run(new WhyCommand(Optional.empty()), "--intervals", figure3().toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("I/O time on the critical path: 14.000000 s (first start to last end: 18.000000 s, idle 4.000000 s)"), r.out());
        assertTrue(r.out().contains("critical files: 3"), r.out());
        assertTrue(r.out().contains("71.43%  10.000000 s  File1"), r.out());
    }

    @Test
    void jsonCarriesTheSameFigures() throws Exception {
        AnalyzeCommandTest.Run r = run(new WhyCommand(Optional.empty()), "--intervals", figure3().toString(), "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode n = new ObjectMapper().readTree(r.out());
        assertEquals(14.0, n.at("/criticalPath/seconds").asDouble());
        assertEquals(1400.0 / 14, n.at("/criticalPathBandwidth").asDouble(), 1e-9);
        assertEquals(1400.0 / 18, n.at("/spanBandwidth").asDouble(), 1e-9);
        assertEquals("File2", n.at("/criticalPath/shares/1/file").asText());
    }

    @Test
    void aBadCsvIsBadInputNamingTheLine() throws Exception {
        Path bad = Files.writeString(tmp.resolve("bad.csv"), "file,start,end\nA,0,oops\n");
        AnalyzeCommandTest.Run r = run(new WhyCommand(Optional.empty()), "--intervals", bad.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("bad.csv:2") && r.err().contains("'end'"), r.err());
    }

    @Test
    void traceDirectoryNeedsTheTracerAdapter() {
        AnalyzeCommandTest.Run r = run(new WhyCommand(Optional.empty()), tmp.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("tracer adapter is missing"), r.err());
    }

    @Test
    void fromTracesTheSharedFileIsNToOne() {
        TraceSourceFactory ior = dir -> SyntheticTraces.ior(4, 65536, 4096, 4, IoOp.WRITE);
        AnalyzeCommandTest.Run r = run(new WhyCommand(Optional.of(ior)), tmp.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("I/O mode: N-1"), r.out());
        assertTrue(r.out().contains("small requests                 1.000"), r.out());
        assertTrue(r.out().contains("rank imbalance (max/mean bytes): 1.000"), r.out());
    }
}
