package io.pdla.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The cross-job page on result tables shaped as the analytics module's named analyses return them. */
class CrossJobReportTest {
    @TempDir
    Path dir;

    static CrossJobReport.Table slowFactors() {
        return new CrossJobReport.Table(List.of("factor", "threshold", "slow_jobs", "slow_with_factor", "slow_pct", "known", "all_pct"), List.of(
                Arrays.asList("small I/O", "> 50% of requests < 1 MiB", 25L, 20L, 80.0, 100L, 35.0),
                Arrays.asList("non-consecutive I/O", "> 50% of requests", 25L, 5L, 20.0, 100L, 22.0),
                Arrays.asList("few storage targets", "<= 1 OST", 0L, 0L, null, 0L, null)));
    }

    static CrossJobReport.Table ioModes() {
        return new CrossJobReport.Table(List.of("io_mode", "jobs", "pct_jobs", "bytes"), List.of(
                Arrays.asList("N-1", 61L, 61.0, 1000L), Arrays.asList("N-N", 30L, 30.0, 500L), Arrays.asList("1-1", 9L, 9.0, 10L)));
    }

    static CrossJobReport.Table topApps() {
        return new CrossJobReport.Table(List.of("app", "jobs", "io_time", "process_io_time", "bytes_read", "bytes_written"), List.of(
                Arrays.asList("/apps/vpic", 12L, 5400.5, 1.0e6, 10L, 20L), Arrays.asList("/apps/ior", 40L, 1200.25, 2.0e5, 10L, 20L)));
    }

    static CrossJobReport known() {
        return new CrossJobReport("100 jobs").fact("tables", "/t").slowFactors(slowFactors()).ioModes(ioModes()).topApps(topApps());
    }

    @Test
    void eachAnalysisIsAChartWithItsNumbersAndItsTable() {
        String html = known().html();
        for (String chart : List.of("slow-factors", "io-modes", "top-apps")) {
            assertTrue(html.contains("<figure class=\"chart\" data-chart=\"" + chart + "\"><svg"), chart);
        }
        List<String> t = SvgText.texts(html);
        assertTrue(t.containsAll(List.of("80.0%", "35.0%", "20.0%", "22.0%", "small I/O", "few storage targets")), t.toString());
        assertTrue(t.containsAll(List.of("61", "30", "9", "N-1", "N-N", "1-1", "I/O mode")), t.toString());
        assertTrue(t.containsAll(List.of("5,400.5 s", "1,200.25 s", "vpic", "ior")), t.toString());
        assertTrue(html.contains("<td>&gt; 50% of requests &lt; 1 MiB</td>"), "the tables under the charts, escaped");
        assertEquals(List.of(), SelfContained.violations(html));
    }

    @Test
    void aMissingAnalysisSaysWhy() {
        String html = new CrossJobReport("x").slowFactors(slowFactors()).missing("io-modes", "the engine failed: boom").html();
        assertTrue(html.contains("<p class=\"missing\" data-chart=\"io-modes\">No chart: the engine failed: boom.</p>"), html);
        assertTrue(html.contains("<p class=\"missing\" data-chart=\"top-apps\">"), html);
    }

    @Test
    void theCrossJobPageRendersInChromium() throws Exception {
        Path page = dir.resolve("jobs.html");
        known().write(page);
        String dom = Chromium.find().dumpDom(page, Files.createDirectories(dir.resolve("dom")));
        for (String chart : List.of("slow-factors", "io-modes", "top-apps")) {
            int at = dom.indexOf("<figure class=\"chart\" data-chart=\"" + chart + "\"><svg");
            assertTrue(at >= 0, chart + " rendered");
            String svg = dom.substring(at, dom.indexOf("</svg>", at));
            assertTrue(svg.contains("<text") && svg.contains("<line"), chart + ": labels and axes");
        }
        assertTrue(SvgText.texts(dom).contains("Top applications by I/O time"));
    }
}
