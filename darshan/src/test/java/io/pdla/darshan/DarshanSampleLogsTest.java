package io.pdla.darshan;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DarshanSampleLogsTest {
    record Expected(String log, String module, int records, long segments, String firstRank) {}

    static List<Expected> expected() throws IOException {
        List<Expected> out = new ArrayList<>();
        try (InputStream in = DarshanSampleLogsTest.class.getResourceAsStream("/expected/record-counts.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank()) continue;
                String[] f = line.split("\t");
                out.add(new Expected(f[0], f[1], Integer.parseInt(f[2]), Long.parseLong(f[3]), f[4]));
            }
        }
        return out;
    }

    static List<Path> logs() throws IOException { return SampleLogs.all(); }

    @Test
    void everySampleLogIsCoveredByTheExpectedFile() throws IOException {
        List<String> covered = expected().stream().map(Expected::log).distinct().toList();
        for (Path p : SampleLogs.all()) {
            if (p.getFileName().toString().equals("empty_log.darshan")) continue;
            assertTrue(covered.contains(p.getFileName().toString()), p + " has no expected counts");
        }
        assertTrue(SampleLogs.all().size() >= 20, "sample logs missing from " + SampleLogs.dir());
    }

    @ParameterizedTest
    @MethodSource("expected")
    void recordAndSegmentCountsMatchTheIndependentCount(Expected e) throws IOException {
        DarshanLog log = new DarshanReader().read(SampleLogs.dir().resolve(e.log()));
        ModuleData m = log.modules().stream().filter(x -> x.module() != null && x.module().label().equals(e.module()))
                .findFirst().orElseThrow(() -> new AssertionError(e.module() + " missing in " + e.log()));
        long records = m.module() == ModuleId.LUSTRE ? m.records().size() : m.records().size();
        assertEquals(e.records(), records, e.log() + " " + e.module() + " record count");
        long segs = m.recordsOf(DxtRecord.class).stream().mapToLong(DxtRecord::segmentCount).sum();
        assertEquals(e.segments(), segs, e.log() + " " + e.module() + " DXT segments");
        if (!m.records().isEmpty()) {
            Object first = m.records().get(0);
            long rank = first instanceof CounterRecord c ? c.rank() : first instanceof DxtRecord d ? d.rank()
                    : first instanceof LustreRecord l ? l.rank() : ((HeatmapRecord) first).rank();
            assertEquals(e.firstRank(), Long.toString(rank), e.log() + " " + e.module() + " first rank");
        }
    }

    @ParameterizedTest
    @MethodSource("logs")
    void everySampleLogPrintsAsDarshanParserWithAllOptions(Path p) throws Exception {
        DarshanLog log = new DarshanReader().read(p);
        StringBuilder out = new StringBuilder(), err = new StringBuilder();
        new ParserReport(out, err, ZoneId.of("UTC")).print(log, new ParserReport.Options(true, true, true, true, true));
        String text = out.toString();
        assertTrue(text.contains("# darshan log version: " + log.header().version() + "\n"), text.substring(0, 60));
        assertTrue(text.contains("# nprocs: " + log.job().nprocs() + "\n"));
        long counterLines = text.lines().filter(l -> !l.startsWith("#") && l.contains("\t")).count();
        long expectedLines = 0;
        for (ModuleData m : log.modules()) {
            for (CounterRecord c : m.recordsOf(CounterRecord.class)) {
                expectedLines += c.counters().length + c.fcounters().length
                        + (m.module() == ModuleId.H5D || m.module() == ModuleId.PNETCDF_VAR ? 1 : 0);
            }
            for (HeatmapRecord h : m.recordsOf(HeatmapRecord.class)) expectedLines += 1 + 2L * h.readBins().length;
            for (LustreRecord l : m.recordsOf(LustreRecord.class)) expectedLines += 2 + 8L * l.components().length + l.ostIds().length;
        }
        assertEquals(expectedLines, counterLines, "one line per counter of every printed record");
        assertNull(log.firstError(), "sample logs are complete files");
    }

    @Test
    void release347MatchesTheFiguresVerifiedAgainstDarshanParser() throws Exception {
        DarshanLog log = new DarshanReader().read(SampleLogs.dir().resolve("mpi-io-test-x86_64-3.4.7.darshan"));
        CounterRecord posix = log.module(ModuleId.POSIX).recordsOf(CounterRecord.class).get(0);
        assertEquals("17455793042334241652", Long.toUnsignedString(posix.id()));
        StringBuilder out = new StringBuilder();
        new ParserReport(out, new StringBuilder(), ZoneId.of("UTC")).print(log, new ParserReport.Options(false, false, false, true, false));
        String t = out.toString();
        assertTrue(t.contains("# total_bytes: 134217728\n"), t);
        assertTrue(t.contains("# agg_time_by_slowest: 0.065048 # seconds\n"), t);
        assertTrue(t.contains("# agg_perf_by_slowest: 1967.79"), t);
    }

    @Test
    void bigEndianLogReadsToTheSameShapeAsItsLittleEndianSibling() throws IOException {
        DarshanLog be = new DarshanReader().read(SampleLogs.dir().resolve("mpi-io-test-ppc64-3.1.6.darshan"));
        assertEquals(java.nio.ByteOrder.BIG_ENDIAN, be.header().order());
        CounterRecord p = be.module(ModuleId.POSIX).recordsOf(CounterRecord.class).get(0);
        assertEquals(-1, p.rank());
        assertEquals(4, be.job().nprocs());
        // mpi-io-test writes and reads the same amount through POSIX underneath MPI-IO
        long written = p.counters()[CounterLayout.POSIX.intIndex("POSIX_BYTES_WRITTEN")];
        long read = p.counters()[CounterLayout.POSIX.intIndex("POSIX_BYTES_READ")];
        assertTrue(written > 0 && written == read, written + " vs " + read);
        assertEquals(-1, p.counters()[CounterLayout.POSIX.intIndex("POSIX_FILENOS")], "v3 lacks FILENOS: -1 after up-conversion");
        assertTrue(be.name(p.id()).endsWith("mpi-io-test.tmp.dat"), be.name(p.id()));
    }

    @Test
    void partialModuleIsRefusedWithoutShowIncomplete() throws IOException {
        DarshanLog log = new DarshanReader().read(SampleLogs.dir().resolve("partial_data_dxt.darshan"));
        assertTrue(log.module(ModuleId.DXT_POSIX).partial());
        DarshanLog imb = new DarshanReader().read(SampleLogs.dir().resolve("imbalanced-io.darshan"));
        assertTrue(imb.module(ModuleId.POSIX).partial());
        assertThrows(ParserReport.IncompleteLogException.class, () -> new ParserReport(new StringBuilder(), new StringBuilder(),
                ZoneId.of("UTC")).print(imb, new ParserReport.Options(true, false, false, false, false)));
    }
}
