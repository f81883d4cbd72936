package io.pdla.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Many jobs on one page ({@code pdla report --query}): the charts of IOMiner's cross-job analyses (slow-job
 * contributing factors, I/O mode census, top applications by I/O time), each over a result table whose columns are
 * named as the analytics module's named analyses name them, with the table itself under its chart. Self-contained as
 * {@link JobReport}'s page.
 */
public final class CrossJobReport {
    /** A query result: column names and rows of Long, Double, String, Boolean or null. */
    public record Table(List<String> columns, List<List<Object>> rows) {
        public Table {
            columns = List.copyOf(columns);
            rows = List.copyOf(rows);
        }

        int index(String column) {
            for (int i = 0; i < columns.size(); i++) if (columns.get(i).equalsIgnoreCase(column)) return i;
            throw new IllegalArgumentException("the result has no column " + column + " (columns: " + columns + ")");
        }

        Object get(int row, String column) {
            return rows.get(row).get(index(column));
        }
    }

    private final String title;
    private final Map<String, String> facts = new LinkedHashMap<>();
    private final List<String[]> notes = new ArrayList<>();
    private Table slowFactors, ioModes, topApps;

    public CrossJobReport(String title) {
        this.title = title;
    }

    public CrossJobReport fact(String name, String value) {
        facts.put(name, value);
        return this;
    }

    /** Columns factor, threshold, slow_jobs, slow_with_factor, slow_pct, known, all_pct. */
    public CrossJobReport slowFactors(Table t) {
        slowFactors = t;
        return this;
    }

    /** Columns io_mode, jobs, pct_jobs, bytes. */
    public CrossJobReport ioModes(Table t) {
        ioModes = t;
        return this;
    }

    /** Columns app, jobs, io_time, ... */
    public CrossJobReport topApps(Table t) {
        topApps = t;
        return this;
    }

    /** Why a section has no chart (the analysis failed, say): shown in its place. */
    public CrossJobReport missing(String section, String why) {
        notes.add(new String[] {section, why});
        return this;
    }

    public void write(Path out) throws IOException {
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
        Files.writeString(tmp, html(), StandardCharsets.UTF_8);
        Files.move(tmp, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    public String html() {
        Page h = new Page().head("pdla report: " + title);
        h.raw("<h1>").text("pdla report: " + title).raw("</h1>\n<table class=\"facts\">");
        for (Map.Entry<String, String> f : facts.entrySet()) h.raw("<tr><th>").text(f.getKey()).raw("</th><td>").text(f.getValue()).raw("</td></tr>");
        h.raw("</table>\n<nav><a href=\"#slow-factors\">Slow-job factors</a> <a href=\"#io-modes\">I/O modes</a> "
                + "<a href=\"#top-apps\">Top applications</a></nav>\n");

        h.raw("<section id=\"slow-factors\"><h2>Slow-job contributing factors</h2><p class=\"note\">").text("Slow jobs are those at or "
                + "below the chosen percentile of bandwidth. A factor much more common among slow jobs than among all jobs is a suspect "
                + "(IOMiner). A job whose counters cannot tell a factor is left out of that factor's shares.").raw("</p>\n");
        if (slowFactors == null) h.missing("slow-factors", note("slow-factors"));
        else if (slowFactors.rows().isEmpty()) h.missing("slow-factors", "no job moved data with a known bandwidth");
        else {
            int n = slowFactors.rows().size();
            List<String> names = new ArrayList<>();
            Double[] slow = new Double[n], all = new Double[n];
            for (int i = 0; i < n; i++) {
                names.add(String.valueOf(slowFactors.get(i, "factor")));
                slow[i] = number(slowFactors.get(i, "slow_pct"));
                all[i] = number(slowFactors.get(i, "all_pct"));
            }
            h.chart("slow-factors", Charts.slowFactors(names, slow, all), 1200, 460);
            table(h, slowFactors);
        }
        h.raw("</section>\n");

        h.raw("<section id=\"io-modes\"><h2>I/O mode census</h2><p class=\"note\">").text("Jobs by how files map to processes: "
                + "1-1 one process, N-1 one shared file, N-N a file per process, N-M anything else.").raw("</p>\n");
        if (ioModes == null) h.missing("io-modes", note("io-modes"));
        else if (ioModes.rows().isEmpty()) h.missing("io-modes", "the tables hold no job");
        else {
            List<String> modes = new ArrayList<>();
            long[] jobs = new long[ioModes.rows().size()];
            for (int i = 0; i < jobs.length; i++) {
                modes.add(String.valueOf(ioModes.get(i, "io_mode")));
                Double v = number(ioModes.get(i, "jobs"));
                jobs[i] = v == null ? 0 : Math.round(v);
            }
            h.chart("io-modes", Charts.ioModes(modes, jobs), 1000, 420);
            table(h, ioModes);
        }
        h.raw("</section>\n");

        h.raw("<section id=\"top-apps\"><h2>Top applications by I/O time</h2><p class=\"note\">").text("Applications (executable) by "
                + "the I/O time of all their jobs added up.").raw("</p>\n");
        if (topApps == null) h.missing("top-apps", note("top-apps"));
        else if (topApps.rows().isEmpty()) h.missing("top-apps", "the tables hold no job");
        else {
            List<String> apps = new ArrayList<>();
            double[] time = new double[topApps.rows().size()];
            for (int i = 0; i < time.length; i++) {
                apps.add(String.valueOf(topApps.get(i, "app")));
                Double v = number(topApps.get(i, "io_time"));
                time[i] = v == null ? 0 : v;
            }
            h.chart("top-apps", Charts.topApps(apps, time), 1200, 140 + 28 * time.length);
            table(h, topApps);
        }
        h.raw("</section>\n<footer>").text("written by pdla report --query").raw("</footer>\n</body></html>\n");
        return h.toString();
    }

    private String note(String section) {
        for (String[] n : notes) if (n[0].equals(section)) return n[1];
        return "not computed";
    }

    private static Double number(Object o) {
        return o instanceof Number n ? n.doubleValue() : null;
    }

    private static void table(Page h, Table t) {
        h.raw("<table><tr>");
        for (String c : t.columns()) h.raw("<th>").text(c).raw("</th>");
        h.raw("</tr>");
        for (List<Object> row : t.rows()) {
            h.raw("<tr>");
            for (Object v : row) {
                h.raw(v instanceof Number ? "<td class=\"num\">" : "<td>").text(v == null ? "-" : v instanceof Double d
                        ? String.format(java.util.Locale.ROOT, "%,.3f", d) : String.valueOf(v)).raw("</td>");
            }
            h.raw("</tr>");
        }
        h.raw("</table>\n");
    }
}
