package io.pdla.darshan;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The optional corpus of real runtime logs ({@link ExternalLogs}, skipped unless {@value ExternalLogs#VARIABLE} names
 * a folder): every log reads, and prints as darshan-parser and darshan-dxt-parser would, one line per counter of
 * every record and one line per DXT segment. Only the logs' own structure is checked: their texts are not kept.
 */
class ExternalSampleLogsTest {
    @Test
    void everyLogReadsAndPrintsEveryRecordAndSegment() throws Exception {
        List<String> failures = new ArrayList<>();
        for (Path p : ExternalLogs.assumeAll()) {
            try {
                check(p);
            } catch (Exception | AssertionError e) {
                failures.add(p.getFileName() + ": " + e);
            }
        }
        assertEquals(List.of(), failures);
    }

    private static void check(Path p) throws Exception {
        DarshanLog log = new DarshanReader().read(p);
        assertNull(log.firstError(), "a damaged region");
        StringBuilder out = new StringBuilder(), err = new StringBuilder();
        new ParserReport(out, err, ZoneId.of("UTC")).print(log, new ParserReport.Options(true, true, true, true, true));
        String text = out.toString();
        assertTrue(text.contains("# darshan log version: " + log.header().version() + "\n"), text.substring(0, Math.min(60, text.length())));
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
        StringBuilder dxt = new StringBuilder();
        assertTrue(new DxtReport(dxt, new StringBuilder(), ZoneId.of("UTC")).print(log, true), "a DXT region reported as damaged");
        long segments = 0;
        for (ModuleId m : List.of(ModuleId.DXT_POSIX, ModuleId.DXT_MPIIO)) {
            ModuleData md = log.module(m);
            if (md != null) for (DxtRecord d : md.recordsOf(DxtRecord.class)) segments += d.segmentCount();
        }
        assertEquals(segments, dxt.toString().lines().filter(l -> l.startsWith(" X_POSIX") || l.startsWith(" X_MPIIO")).count(),
                "one line per DXT segment");
    }
}
