package io.pdla.report;

import io.pdla.patterns.rootcause.FileIoStats;
import org.junit.jupiter.api.Test;

import java.util.List;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the page does with what the input has: thinning of large jobs, and inputs without per-call records. */
class JobReportTest {
    private static String figure(String html, String chart) {
        int at = html.indexOf("<figure class=\"chart\" data-chart=\"" + chart + "\">");
        assertTrue(at >= 0, chart + " is on the page");
        return html.substring(at, html.indexOf("</figure>", at));
    }

    @Test
    void aLargeJobsTimelineDrawsEvenlySpacedCallsAndSaysHowMany() {
        KnownJob k = new KnownJob(8, 3000, 4096, 0);   // 24,000 calls
        String html = k.report().html();
        assertTrue(html.contains(String.format(java.util.Locale.ROOT, "%,d of %,d calls drawn, evenly spaced.", JobReport.MAX_MARKS, 24_000)), "the note");
        assertEquals(JobReport.MAX_MARKS + 1, SvgText.filled(figure(html, "timeline"), Charts.READ), "bars and the legend's swatch");
        // the histogram and the patterns still count every call
        assertTrue(SvgText.texts(figure(html, "sizes")).contains("24000"));
        assertTrue(html.contains("Coverage: 100.0% of 24000 requests"), "analysed in full");
    }

    @Test
    void withoutRecordsTheChartsThatNeedThemSayWhyAndCountersGiveTheSizes() {
        String counters = "POSIX\t-1\t7\tPOSIX_SIZE_READ_1M_4M\t12\t/d/f\t/\text4\nPOSIX\t-1\t7\tPOSIX_SIZE_WRITE_0_100\t3\t/d/f\t/\text4\n"
                + "POSIX\t-1\t7\tPOSIX_RENAMES\t0\t/d/f\t/\text4\nPOSIX\t-1\t7\tPOSIX_F_META_TIME\t0.000000\t/d/f\t/\text4\n"
                + "POSIX\t-1\t7\tPOSIX_MODE\t-1\t/d/f\t/\text4\n";
        String html = new JobReport("counters only").noSegments("the log has no DXT")
                .fileStats(List.of(FileIoStats.interval("/d/f", 0, 4), FileIoStats.interval("/d/g", 1, 2)), null)
                .counters(counters).html();
        for (String chart : List.of("timeline", "bandwidth", "offsets", "patterns")) {
            assertTrue(html.contains("<p class=\"missing\" data-chart=\"" + chart + "\">No chart: the log has no DXT.</p>"), chart);
        }
        assertTrue(html.contains("Counted from the POSIX module&#39;s POSIX_SIZE_* counters."), "the histogram says where it comes from");
        List<String> t = SvgText.texts(figure(html, "sizes"));
        assertTrue(t.contains("12") && t.contains("3"), t.toString());
        assertTrue(SvgText.texts(figure(html, "critical")).contains("* f"), "the critical path from the intervals");
        assertTrue(html.contains("<p class=\"missing\" data-chart=\"replicas\">No chart: no replica catalog was given (--catalog).</p>"));
        assertTrue(html.contains("(record 7; 3 of 5 counters not zero)"), "zeros are left out of the counters table, -1 is kept");
        assertTrue(html.contains(">POSIX_MODE<") && !html.contains(">POSIX_RENAMES<") && !html.contains(">POSIX_F_META_TIME<"));
        assertEquals(List.of(), SelfContained.violations(html));
    }

    @Test
    void nothingAtAllStillMakesAPageThatSaysSo() {
        String html = new JobReport("empty").html();
        assertEquals(8, html.split("<p class=\"missing\"", -1).length - 1, "every section says why it has no chart");
        assertTrue(html.contains("data-chart=\"counters\">No chart: the input has no counters.</p>"));
    }
}
