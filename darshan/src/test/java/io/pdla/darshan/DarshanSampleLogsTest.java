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
            if (p.getFileName().toString().equals("pdla-written-empty.darshan")) continue;
            assertTrue(covered.contains(p.getFileName().toString()), p + " has no expected counts");
        }
        assertEquals(10, SampleLogs.all().size(), "written logs in " + SampleLogs.dir());
    }

    @ParameterizedTest
    @MethodSource("expected")
    void recordAndSegmentCountsMatchTheIndependentCount(Expected e) throws IOException {
        DarshanLog log = new DarshanReader().read(SampleLogs.get(e.log()));
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
    void posixVersion3RecordsAreUpConvertedAsDarshanUtilDoes() throws Exception {
        DarshanLog v3 = new DarshanReader().read(SampleLogs.get("pdla-written-posix-v3.darshan"));
        DarshanLog v4 = new DarshanReader().read(SampleLogs.get("pdla-written-3.41-bzip2.darshan"));
        assertEquals(3, v3.header().moduleVersions()[ModuleId.POSIX.ordinal()]);
        List<CounterRecord> old = v3.module(ModuleId.POSIX).recordsOf(CounterRecord.class);
        List<CounterRecord> cur = v4.module(ModuleId.POSIX).recordsOf(CounterRecord.class);
        assertEquals(cur.size(), old.size());
        CounterLayout l = CounterLayout.POSIX;
        for (int i = 0; i < old.size(); i++) {
            long[] o = old.get(i).counters(), c = cur.get(i).counters();
            // version 3 lacks these; darshan-util sets them so (darshan-parser's text for the log is compared above)
            assertEquals(-1, o[l.intIndex("POSIX_FILENOS")]);
            assertEquals(-1, o[l.intIndex("POSIX_DUPS")]);
            assertEquals(-1, o[l.intIndex("POSIX_RENAME_SOURCES")]);
            assertEquals(-1, o[l.intIndex("POSIX_RENAME_TARGETS")]);
            assertEquals(0, o[l.intIndex("POSIX_RENAMED_FROM")]);
            for (String n : List.of("POSIX_OPENS", "POSIX_READS", "POSIX_WRITES", "POSIX_BYTES_READ", "POSIX_BYTES_WRITTEN", "POSIX_FILE_ALIGNMENT")) {
                assertEquals(c[l.intIndex(n)], o[l.intIndex(n)], n + " of record " + i + " keeps its value through the up-conversion");
            }
            assertArrayEquals(cur.get(i).fcounters(), old.get(i).fcounters());
        }
    }

    @Test
    void h5dVersion1HasNoFileRecordId() throws Exception {
        DarshanLog log = new DarshanReader().read(SampleLogs.get("pdla-written-h5d-v1.darshan"));
        List<CounterRecord> h5d = log.module(ModuleId.H5D).recordsOf(CounterRecord.class);
        assertEquals(2, h5d.size());
        assertEquals(0, h5d.get(0).fileRecordId(), "darshan-util sets the missing H5D_FILE_REC_ID to 0");
        assertEquals(3L << 20, h5d.get(0).counters()[CounterLayout.H5D.intIndex("H5D_BYTES_WRITTEN")]);
        assertEquals(12, h5d.get(1).counters()[CounterLayout.H5D.intIndex("H5D_WRITES")]);
        assertTrue(log.name(h5d.get(1).id()).endsWith(":/step-0001/v"));
    }

    @Test
    void bigEndianLogReadsToTheSameRecordsAsItsLittleEndianSibling() throws IOException {
        // the same run written by DarshanWriter in both byte orders (darshan-parser prints both the same but for the
        // compression lines: expected/darshan-parser)
        DarshanLog be = new DarshanReader().read(SampleLogs.get("pdla-written-3.41-big-endian.darshan"));
        DarshanLog le = new DarshanReader().read(SampleLogs.get("pdla-written-3.41-bzip2.darshan"));
        assertEquals(java.nio.ByteOrder.BIG_ENDIAN, be.header().order());
        assertEquals(java.nio.ByteOrder.LITTLE_ENDIAN, le.header().order());
        assertEquals(le.job().nprocs(), be.job().nprocs());
        assertEquals(le.job().startSec(), be.job().startSec());
        assertEquals(le.names(), be.names());
        for (ModuleId m : List.of(ModuleId.POSIX, ModuleId.MPIIO)) {
            List<CounterRecord> b = be.module(m).recordsOf(CounterRecord.class), l = le.module(m).recordsOf(CounterRecord.class);
            assertEquals(l.size(), b.size(), m.label());
            assertFalse(b.isEmpty(), m.label());
            for (int i = 0; i < b.size(); i++) {
                assertEquals(l.get(i).id(), b.get(i).id());
                assertEquals(l.get(i).rank(), b.get(i).rank());
                assertArrayEquals(l.get(i).counters(), b.get(i).counters(), m.label() + " record " + i);
                assertArrayEquals(l.get(i).fcounters(), b.get(i).fcounters(), m.label() + " record " + i);
            }
        }
        for (ModuleId m : List.of(ModuleId.DXT_POSIX, ModuleId.DXT_MPIIO)) {
            List<DxtRecord> b = be.module(m).recordsOf(DxtRecord.class), l = le.module(m).recordsOf(DxtRecord.class);
            assertEquals(l.size(), b.size(), m.label());
            for (int i = 0; i < b.size(); i++) {
                assertArrayEquals(l.get(i).offsets(), b.get(i).offsets());
                assertArrayEquals(l.get(i).lengths(), b.get(i).lengths());
                assertArrayEquals(l.get(i).starts(), b.get(i).starts());
            }
        }
    }

    @Test
    void partialModuleIsRefusedWithoutShowIncomplete() throws IOException {
        DarshanLog log = new DarshanReader().read(SampleLogs.get("pdla-written-partial-dxt.darshan"));
        assertTrue(log.module(ModuleId.DXT_POSIX).partial());
        assertFalse(log.module(ModuleId.POSIX).partial());
        DarshanLog imb = new DarshanReader().read(SampleLogs.get("pdla-written-partial-posix.darshan"));
        assertTrue(imb.module(ModuleId.POSIX).partial());
        assertThrows(ParserReport.IncompleteLogException.class, () -> new ParserReport(new StringBuilder(), new StringBuilder(),
                ZoneId.of("UTC")).print(imb, new ParserReport.Options(true, false, false, false, false)));
    }
}
