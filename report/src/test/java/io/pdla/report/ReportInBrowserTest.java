package io.pdla.report;


import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report as a person sees it: headless Chromium opens the file, takes a screenshot and dumps the DOM after
 * rendering. Every chart must be there as a non-empty SVG with its axes' labels as text, the screenshot must not be
 * blank (and must show the timeline's read bars), and the page must name nothing outside itself.
 */
class ReportInBrowserTest {
    @TempDir
    static Path dir;
    static Path page;
    static String html;

    static final String COUNTERS = String.join("\n", "# darshan log version: 3.41", "# exe: KnownJob strided",
            "POSIX\t-1\t1001\tPOSIX_READS\t256\t/data/strided.dat\t/data\text4",
            "POSIX\t-1\t1001\tPOSIX_SIZE_READ_10K_100K\t256\t/data/strided.dat\t/data\text4",
            "POSIX\t0\t1002\tPOSIX_WRITES\t10\t/data/run.log\t/data\text4",
            "POSIX\t0\t1002\tPOSIX_SIZE_WRITE_0_100\t10\t/data/run.log\t/data\text4",
            "MPI-IO\t-1\t1001\tMPIIO_INDEP_READS\t256\t/data/strided.dat\t/data\text4");

    @BeforeAll
    static void write() throws Exception {
        KnownJob k = KnownJob.small();
        JobReport r = k.report().fact("source", "synthetic <known> job & friends").counters(COUNTERS);
        r.replicas(ReplicaView.fromCatalog(ReplicaViewTest.catalog(dir, k), k.job().app(), Map.of(0, k.job().uri(0), 1, k.job().uri(1)), r.records()));
        page = dir.resolve("report.html");
        r.write(page);
        html = Files.readString(page);
    }

    /** chart name -> the texts its SVG must show (title, axis labels, legend) */
    static final Map<String, List<String>> CHARTS = new LinkedHashMap<>();

    static {
        CHARTS.put("timeline", List.of("I/O calls per rank over time", "time (s)", "rank", "read", "write"));
        CHARTS.put("critical", List.of("Critical path (sweep line)", "time (s)", "file", "* strided.dat", "* run.log"));
        CHARTS.put("sizes", List.of("Request sizes", "request size (bytes)", "requests", "256", "10"));
        CHARTS.put("bandwidth", List.of("Bandwidth over time", "time (s)", "MiB/s"));
        CHARTS.put("offsets", List.of("offset (bytes)", "time (s)", "rank 0"));
        CHARTS.put("patterns", List.of("Pattern coverage", "% explained by patterns", "100.0%"));
        CHARTS.put("replica-layout", List.of("server", "H0", "H7", "strip of the replica, in replica order"));
        CHARTS.put("redirect-share", List.of("Redirected / original share", "from replicas: 2,097,152 bytes (50.0%)"));
    }

    private static final Pattern FIGURE = Pattern.compile("<figure class=\"chart\" data-chart=\"([a-z-]+)\">(.*?)</figure>", Pattern.DOTALL);
    private static final Pattern TEXT = Pattern.compile("<text[^>]*>([^<]*)</text>");

    @Test
    void everyChartRendersAsANonEmptySvgWithItsLabels() throws Exception {
        String dom = Chromium.find().dumpDom(page, Files.createDirectories(dir.resolve("dom")));
        Map<String, Integer> seen = new LinkedHashMap<>();
        Matcher f = FIGURE.matcher(dom);
        while (f.find()) {
            String name = f.group(1), svg = f.group(2);
            seen.merge(name, 1, Integer::sum);
            assertTrue(svg.startsWith("<svg"), name + ": the figure holds an svg element");
            List<String> texts = new ArrayList<>();
            Matcher t = TEXT.matcher(svg);
            while (t.find()) texts.add(t.group(1).replace("&amp;", "&"));
            int shapes = count(svg, "<path") + count(svg, "<rect") + count(svg, "<line");
            assertTrue(shapes >= 10, name + ": " + shapes + " shapes");
            assertTrue(count(svg, "<line") >= 2, name + ": axis and tick lines");
            if (name.equals("offsets") && !texts.contains("rank 0")) continue;   // run.log has rank 0 only, checked below
            assertTrue(texts.containsAll(CHARTS.get(name)), name + ": " + CHARTS.get(name) + " among " + texts);
        }
        assertEquals(CHARTS.keySet(), seen.keySet(), "every chart, in page order");
        assertEquals(2, seen.get("offsets"), "one offsets chart per file");
        assertEquals(3, seen.get("replica-layout"), "one layout per replica");
        assertTrue(!dom.contains("class=\"missing\""), "no chart is missing");
        assertTrue(dom.contains("synthetic &lt;known&gt; job &amp; friends"), "facts are escaped text");
        assertTrue(dom.contains("<details class=\"module\"><summary>POSIX: 2 record(s)</summary>"), "counters folded by module");
        assertTrue(dom.contains("MPIIO_INDEP_READS"));
    }

    @Test
    void theScreenshotIsNotBlankAndShowsTheBars() throws Exception {
        Path png = dir.resolve("report.png");
        Chromium.find().screenshot(page, png, Files.createDirectories(dir.resolve("shot")));
        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(1400, img.getWidth());
        double sum = 0, sum2 = 0;
        long n = 0, readBlue = 0;
        for (int y = 0; y < img.getHeight(); y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) {
                int rgb = img.getRGB(x, y), r = rgb >> 16 & 255, g = rgb >> 8 & 255, b = rgb & 255;
                double lum = 0.299 * r + 0.587 * g + 0.114 * b;
                sum += lum;
                sum2 += lum * lum;
                n++;
                if (Math.abs(r - 31) < 10 && Math.abs(g - 119) < 10 && Math.abs(b - 180) < 10) readBlue++;
            }
        }
        double variance = sum2 / n - (sum / n) * (sum / n);
        assertTrue(variance > 200, "pixel variance " + variance + ": the page is blank");
        assertTrue(readBlue > 5_000, readBlue + " sampled pixels in the read colour: the charts were not drawn");
    }

    @Test
    void thePageNamesNothingOutsideItself() {
        assertEquals(List.of(), SelfContained.violations(html));
        assertTrue(html.contains("<svg") && !html.contains("<script"));
        // this job names no URI, so the page has no "//" at all (SelfContained allows it in text, where file URIs appear)
        assertTrue(!html.contains("//"), "a // somewhere");
        java.util.regex.Matcher src = java.util.regex.Pattern.compile("src\\s*=\\s*['\"]?([^'\"\\s>]*)").matcher(html);
        while (src.find()) assertTrue(src.group(1).startsWith("data:"), src.group());
    }

    @Test
    void theSelfContainedCheckFindsExternalReferences() {
        for (String bad : List.of("<img src=\"x.png\">", "<a href=\"https://example.org\">x</a>", "<use xlink:href=\"other.svg#a\"/>",
                "<div style=\"background:url(x.png)\">", "<script>1</script>", "<style>@import 'a.css';</style>", "<p x=\"//cdn\">")) {
            assertTrue(!SelfContained.violations("<html>" + bad + "</html>").isEmpty(), bad);
        }
        assertEquals(List.of(), SelfContained.violations("<a href=\"#sizes\">s</a><rect clip-path=\"url(#c1)\"/><p>simpfs:///x</p>"));
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) n++;
        return n;
    }

}
