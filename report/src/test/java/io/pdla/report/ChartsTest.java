package io.pdla.report;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.access.TraceRecord;
import io.pdla.patterns.rootcause.FileIoStats;
import io.pdla.patterns.rootcause.RootCauseAnalyzer;
import io.pdla.patterns.rootcause.RootCauseReport;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each chart on data whose picture is known: the numbers it must show appear in its SVG. */
class ChartsTest {
    private static TraceRecord read(int rank, long offset, long length, long startNanos, long endNanos) {
        return new TraceRecord(rank, 0, IoOp.READ, Positioning.EXPLICIT_OFFSET, false, offset, length, startNanos, endNanos);
    }

    @Test
    void histogramBinCountsAreTheRecordsPerDarshanBin() {
        List<TraceRecord> rs = new ArrayList<>();
        for (int i = 0; i < 37; i++) rs.add(read(0, i * 16384L, 16384, i, i + 1));                        // 10K-100K
        for (int i = 0; i < 5; i++) rs.add(read(1, i * 2L << 20, 2L << 20, i, i + 1));                     // 1M-4M
        for (int i = 0; i < 3; i++) rs.add(new TraceRecord(0, 0, IoOp.WRITE, Positioning.NONE, false, 0, 100, 0, 1)); // 0-100
        rs.add(new TraceRecord(0, 0, IoOp.OPEN, Positioning.NONE, false, 0, 0, 0, 1));                    // moves no data
        long[][] bins = Charts.sizeBins(rs);
        assertEquals(37, bins[0][3]);
        assertEquals(5, bins[0][5]);
        assertEquals(3, bins[1][0]);
        assertEquals(45, java.util.Arrays.stream(bins[0]).sum() + java.util.Arrays.stream(bins[1]).sum());
        String svg = Svg.of(Charts.requestSizes(bins[0], bins[1]), 900, 400);
        List<String> t = SvgText.texts(svg);
        assertTrue(t.containsAll(List.of("37", "5", "3")), "bar labels " + t);
        assertTrue(t.containsAll(Charts.SIZE_BINS), "every bin named on the axis: " + t);
        assertTrue(t.containsAll(List.of("request size (bytes)", "requests", "Request sizes")), t.toString());
        assertEquals(2 + 1, SvgText.filled(svg, Charts.READ), "two read bars and the legend's swatch");
        assertEquals(1 + 1, SvgText.filled(svg, Charts.WRITE));
    }

    @Test
    void timelineDrawsOneBarPerCallOnItsRanksRow() {
        KnownJob k = KnownJob.small();
        String svg = Svg.of(Charts.timeline(k.all(), 0), 1300, 300);
        assertEquals(k.ranks * k.segments + 1, SvgText.filled(svg, Charts.READ));
        assertEquals(k.logWrites + 1, SvgText.filled(svg, Charts.WRITE));
        List<String> t = SvgText.texts(svg);
        assertTrue(t.containsAll(List.of("rank", "time (s)", "0", "3", "read", "write")), t.toString());
    }

    @Test
    void bandwidthOverTimeAddsUpToTheBytesMoved() {
        KnownJob k = KnownJob.small();
        double[][] s = Charts.bandwidthSeries(k.all(), 0, 50);
        double step = s[0][1] - s[0][0], read = 0, write = 0;
        for (int b = 0; b < 50; b++) {
            read += s[1][b] * step * 1048576;
            write += s[2][b] * step * 1048576;
        }
        assertEquals((double) k.ranks * k.segments * k.block, read, 1e-6 * read);
        assertEquals(100.0 * k.logWrites, write, 1e-6 * write);
        // four ranks, each 16 KiB per 1 ms of which 0.999 ms busy: 4 * 16 KiB / 1 ms = 62.5 MiB/s while reading
        assertEquals(4 * 16384 / 1e-3 / 1048576, s[1][10], 0.5);
        String svg = Svg.of(Charts.bandwidth(k.all(), 0, 50), 1300, 400);
        assertTrue(SvgText.texts(svg).containsAll(List.of("MiB/s", "time (s)", "Bandwidth over time")));
    }

    @Test
    void offsetChartHasADotPerCallInItsRanksColour() {
        KnownJob k = KnownJob.small();
        List<TraceRecord> shared = k.all().stream().filter(r -> r.fileId() == 0).toList();
        String svg = Svg.of(Charts.offsets(KnownJob.SHARED, shared, 0), 1300, 400);
        List<String> t = SvgText.texts(svg);
        assertTrue(t.containsAll(List.of("rank 0", "rank 1", "rank 2", "rank 3", "offset (bytes)", "time (s)")), t.toString());
        assertTrue(t.contains("Offsets over time: strided.dat"), t.toString());
        assertEquals(k.segments + 1, SvgText.filled(svg, new java.awt.Color(0x2ca02c)), "rank 2's dots and its legend swatch");
    }

    @Test
    void criticalPathMarksTheCriticalFilesAndDrawsTheirExclusiveTime() {
        // a: 0-10 s, b: 5-20 s, c: 6-8 s (hidden under b: never critical)
        List<FileIoStats> files = List.of(FileIoStats.interval("/d/a", 0, 10), FileIoStats.interval("/d/b", 5, 20),
                FileIoStats.interval("/d/c", 6, 8));
        RootCauseReport rc = RootCauseAnalyzer.analyze(files, null);
        Set<String> critical = new java.util.HashSet<>();
        rc.criticalPath().shares().forEach(s -> critical.add(s.file()));
        String svg = Svg.of(Charts.criticalPath(files, rc.criticalPath().shares()), 1300, 300);
        List<String> t = SvgText.texts(svg);
        for (String f : List.of("a", "b", "c")) {
            String label = (critical.contains("/d/" + f) ? "* " : "") + f;
            assertTrue(t.contains(label), label + " in " + t);
        }
        assertTrue(critical.contains("/d/b") && !critical.contains("/d/c"), critical.toString());
        assertEquals(files.size() + 1, SvgText.filled(svg, Charts.ACTIVE));
        assertEquals(rc.criticalPath().shares().size() + 1, SvgText.filled(svg, Charts.CRITICAL));
    }

    @Test
    void coverageBarsAreLabelledWithTheirPercentages() {
        String svg = Svg.of(Charts.coverage(List.of("/x/one.dat", "/x/two.dat"), new double[] {100, 62.5}, new double[] {100, 40}), 900, 400);
        List<String> t = SvgText.texts(svg);
        assertTrue(t.containsAll(List.of("100.0%", "62.5%", "40.0%", "one.dat", "two.dat")), t.toString());
    }

    @Test
    void replicaLayoutHasACellPerStripOnItsServer() {
        List<Charts.Piece> pieces = new ArrayList<>();
        for (int i = 0; i < 12; i++) pieces.add(new Charts.Piece(i % 6, 65536, i * 65536L));   // 4 HServers, 2 SServers
        String svg = Svg.of(Charts.replicaLayout("replica", List.of("H0", "H1", "H2", "H3", "S0", "S1"), 4, pieces), 1300, 300);
        assertEquals(8, SvgText.filled(svg, Charts.HDD));
        assertEquals(4, SvgText.filled(svg, Charts.SSD));
        assertTrue(SvgText.texts(svg).containsAll(List.of("H0", "H3", "S1", "server")));
    }

    @Test
    void redirectShareNamesBytesAndPercentages() {
        String svg = Svg.of(Charts.redirectShare(3000, 1000, "basis"), 900, 400);
        List<String> t = SvgText.texts(svg);
        assertTrue(t.contains("from replicas: 3,000 bytes (75.0%)"), t.toString());
        assertTrue(t.contains("from originals: 1,000 bytes (25.0%)"), t.toString());
    }

    @Test
    void counterTextFoldsByModuleAndGivesTheSizeHistogram() {
        String text = String.join("\n", "# darshan log version: 3.41",
                "POSIX\t-1\t42\tPOSIX_READS\t7\t/d/a\t/\text4",
                "POSIX\t-1\t42\tPOSIX_SIZE_READ_10K_100K\t7\t/d/a\t/\text4",
                "POSIX\t0\t43\tPOSIX_SIZE_WRITE_0_100\t2\t/d/b\t/\text4",
                "MPI-IO\t-1\t42\tMPIIO_INDEP_READS\t7\t/d/a\t/\text4");
        CounterTable t = CounterTable.parse(text);
        assertEquals(List.of("POSIX", "MPI-IO"), List.copyOf(t.modules().keySet()));
        assertEquals(2, t.modules().get("POSIX").size());
        assertEquals(2, t.modules().get("POSIX").get(0).counters().size());
        long[][] bins = t.posixSizeBins();
        assertEquals(7, bins[0][3]);
        assertEquals(2, bins[1][0]);
    }
}
