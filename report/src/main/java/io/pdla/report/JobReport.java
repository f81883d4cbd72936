package io.pdla.report;

import io.pdla.access.TraceRecord;
import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.Analyzer;
import io.pdla.patterns.Coverage;
import io.pdla.patterns.TraceSource;
import io.pdla.patterns.TracedJob;
import io.pdla.patterns.global.GlobalPattern;
import io.pdla.patterns.rootcause.Factor;
import io.pdla.patterns.rootcause.FileIoStats;
import io.pdla.patterns.rootcause.RootCauseAnalyzer;
import io.pdla.patterns.rootcause.RootCauseReport;
import io.pdla.patterns.template.LocalPattern;
import io.pdla.patterns.template.Notation;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One job's I/O as a self-contained HTML page (issue 16, "the report"): facts, then the charts, each an inline
 * SVG drawn by JFreeChart ({@link Charts}, {@link Svg}), then the counters folded by module. Nothing on the page
 * names anything outside it: no scripts, no style sheets, no images, no fonts beyond the system's. A chart whose
 * data the input lacks (a Darshan log without DXT has no per-call segments) is replaced by a sentence saying so.
 *
 * <p>Fill it with what the input has ({@link #segments}, {@link #fileStats}, {@link #counters}, {@link #replicas}),
 * then {@link #html()} or {@link #write(Path)}.
 */
public final class JobReport {
    /** Calls kept for the charts; the analyzer still reads every call from the source. */
    public static final int MAX_RECORDS = 500_000;
    /** Bars, dots drawn per chart: more are thinned evenly (and the chart says so). */
    public static final int MAX_MARKS = 20_000;
    /** Files given an offset-over-time chart, the ones that moved most bytes first. */
    public static final int MAX_OFFSET_CHARTS = 8;

    private final String title;
    private final Map<String, String> facts = new LinkedHashMap<>();
    private final List<String> warnings = new ArrayList<>();
    private final List<TraceRecord> records = new ArrayList<>();
    private boolean recordsCut;
    private TracedJob job;
    private String noSegments = "the input has no per-call records";
    private AnalysisReport patterns;
    private String patternsError;
    private List<FileIoStats> fileStats;
    private Map<Integer, Long> bytesByRank;
    private String noFileStats = "the input has no per-file intervals";
    private CounterTable counters;
    private String noCounters = "the input has no counters";
    private ReplicaView replicas;
    private String noReplicas = "no replica catalog was given (--catalog)";

    public JobReport(String title) {
        this.title = title;
    }

    public JobReport fact(String name, String value) {
        facts.put(name, value);
        return this;
    }

    public JobReport warning(String w) {
        if (!warnings.contains(w)) warnings.add(w);
        return this;
    }

    /** The job's per-call records (pdla traces or DXT segments): kept for the charts and analysed for patterns. */
    public JobReport segments(TraceSource source) {
        job = source.job();
        for (int rank : source.ranks()) {
            Iterator<TraceRecord> it = source.records(rank);
            try {
                while (it.hasNext()) {
                    TraceRecord r = it.next();
                    if (!r.op().movesData()) continue;
                    if (records.size() == MAX_RECORDS) {
                        recordsCut = true;
                        break;
                    }
                    records.add(r);
                }
            } catch (RuntimeException e) {
                warnings.add("rank " + rank + ": " + e.getMessage() + "; the calls before it are shown");
            }
        }
        try {
            patterns = new Analyzer().analyze(source);
            patterns.warnings().forEach(this::warning);
        } catch (RuntimeException e) {
            patternsError = "the pattern analyzer could not read the records: " + e.getMessage();
        }
        return this;
    }

    /** The input has no per-call records; {@code why} replaces the charts that need them. */
    public JobReport noSegments(String why) {
        noSegments = why;
        return this;
    }

    /** Per-file intervals and counters for the sweep line (as {@code pdla why} computes them). */
    public JobReport fileStats(List<FileIoStats> files, Map<Integer, Long> bytesByRank) {
        this.fileStats = List.copyOf(files);
        this.bytesByRank = bytesByRank;
        return this;
    }

    public JobReport noFileStats(String why) {
        noFileStats = why;
        return this;
    }

    /** The counters, from records ({@link CounterTable#builder()}, {@link CounterTable#of}). */
    public JobReport counters(CounterTable table) {
        counters = table;
        if (counters.isEmpty()) noCounters = "the counter log has no records";
        return this;
    }

    /** The counters, from a saved darshan-parser text (e.g. a trace directory's counters.txt). */
    public JobReport counters(String darshanParserText) {
        return counters(CounterTable.parse(darshanParserText));
    }

    public JobReport noCounters(String why) {
        noCounters = why;
        return this;
    }

    public JobReport replicas(ReplicaView view) {
        replicas = view;
        return this;
    }

    public JobReport noReplicas(String why) {
        noReplicas = why;
        return this;
    }

    /** The data-moving calls kept for the charts, in rank order. */
    public List<TraceRecord> records() {
        return records;
    }

    public TracedJob job() {
        return job;
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
        h.raw("<h1>").text("pdla report: " + title).raw("</h1>\n");
        h.raw("<table class=\"facts\">");
        for (Map.Entry<String, String> f : facts.entrySet()) {
            h.raw("<tr><th>").text(f.getKey()).raw("</th><td>").text(f.getValue()).raw("</td></tr>");
        }
        h.raw("</table>\n");
        if (!warnings.isEmpty()) {
            h.raw("<ul class=\"warnings\">");
            for (String w : warnings) h.raw("<li>").text("warning: " + w).raw("</li>");
            h.raw("</ul>\n");
        }
        h.raw("<nav>");
        for (String[] s : SECTIONS) h.raw("<a href=\"#").raw(s[0]).raw("\">").text(s[1]).raw("</a> ");
        h.raw("</nav>\n");
        long origin = Long.MAX_VALUE;
        for (TraceRecord r : records) origin = Math.min(origin, r.startNanos());
        String cut = recordsCut ? " Only the first " + String.format(Locale.ROOT, "%,d", MAX_RECORDS) + " calls are shown." : "";

        section(h, 0, "Every read and write call of each rank, from its start to its end." + cut);
        if (records.isEmpty()) missing(h, "timeline", noSegments);
        else {
            thinned(h, records.size());
            chart(h, "timeline", Charts.timeline(thin(records), origin), 1300, 120 + 28 * Math.min(64, ranks()));
        }

        section(h, 1, "IOMiner's sweep line over the files' active intervals: at each moment the critical file is the one "
                + "that finishes last; its exclusive time is what the job waited for it alone. Critical files are marked *.");
        criticalPath(h);

        section(h, 2, "Calls per size bin (Darshan's bins).");
        long[][] bins = null;
        String binSource = null;
        if (!records.isEmpty() && !recordsCut) {
            bins = Charts.sizeBins(records);
            binSource = "from the per-call records";
        } else if (counters != null && counters.posixSizeBins() != null) {
            bins = counters.posixSizeBins();
            binSource = "from the POSIX module's POSIX_SIZE_* counters";
        }
        if (bins == null) missing(h, "sizes", "neither per-call records nor POSIX size counters: " + noSegments);
        else {
            h.raw("<p class=\"note\">").text("Counted " + binSource + ".").raw("</p>");
            chart(h, "sizes", Charts.requestSizes(bins[0], bins[1]), 1000, 420);
        }

        section(h, 3, "Bytes moved per second, each call's bytes spread over its duration, in 100 steps over the job." + cut);
        if (records.isEmpty()) missing(h, "bandwidth", noSegments);
        else chart(h, "bandwidth", Charts.bandwidth(records, origin, 100), 1300, 400);

        section(h, 4, "Each file's accesses: a dot per call at its start time and offset, one colour per rank." + cut);
        offsets(h, origin);

        section(h, 5, "The access patterns the analyzer found (as pdla analyze), and how much of each file's I/O they explain.");
        patterns(h);

        section(h, 6, "The replicas built for this job's patterns: where their strips live, and how much of the job's reads they cover.");
        replicaSection(h);

        section(h, 7, "The counters, folded by module and record; each record lists its counters that are not zero "
                + "(pdla counters or pdla darshan parse print them all).");
        counterSection(h);
        h.raw("</section>\n<footer>").text("written by pdla report").raw("</footer>\n</body></html>\n");
        return h.toString();
    }

    private static final String[][] SECTIONS = {
        {"timeline", "Timeline per rank"}, {"critical", "Critical path"}, {"sizes", "Request sizes"},
        {"bandwidth", "Bandwidth over time"}, {"offsets", "Offsets over time"}, {"patterns", "Patterns and coverage"},
        {"replicas", "Replicas"}, {"counters", "Counters"}};

    private static void section(Page h, int i, String explanation) {
        h.raw(i == 0 ? "" : "</section>\n");
        h.raw("<section id=\"").raw(SECTIONS[i][0]).raw("\"><h2>").text(SECTIONS[i][1]).raw("</h2>");
        h.raw("<p class=\"note\">").text(explanation).raw("</p>\n");
    }

    private static void chart(Page h, String name, org.jfree.chart.JFreeChart chart, int width, int height) {
        h.chart(name, chart, width, height);
    }

    private static void missing(Page h, String name, String why) {
        h.missing(name, why);
    }

    private int ranks() {
        return (int) records.stream().mapToInt(TraceRecord::rank).distinct().count();
    }

    /** Says so when a chart of {@code n} calls draws only {@link #MAX_MARKS} of them. */
    private static void thinned(Page h, int n) {
        if (n > MAX_MARKS) {
            h.raw("<p class=\"note\">").text(String.format(Locale.ROOT, "%,d of %,d calls drawn, evenly spaced.", MAX_MARKS, n)).raw("</p>");
        }
    }

    /** At most {@link #MAX_MARKS} records, evenly spaced through the list. */
    private static List<TraceRecord> thin(List<TraceRecord> in) {
        if (in.size() <= MAX_MARKS) return in;
        List<TraceRecord> out = new ArrayList<>(MAX_MARKS);
        double step = (double) in.size() / MAX_MARKS;
        for (int i = 0; i < MAX_MARKS; i++) out.add(in.get((int) (i * step)));
        return out;
    }

    private void criticalPath(Page h) {
        if (fileStats == null || fileStats.isEmpty()) {
            missing(h, "critical", fileStats == null ? noFileStats : "no file moved any data");
            return;
        }
        RootCauseReport rc;
        try {
            rc = RootCauseAnalyzer.analyze(fileStats, bytesByRank);
        } catch (IllegalArgumentException e) {
            missing(h, "critical", "the sweep line could not run: " + e.getMessage());
            return;
        }
        List<FileIoStats> shown = fileStats;
        if (shown.size() > 40) {   // the critical files, then the busiest others
            java.util.Set<String> crit = new java.util.HashSet<>();
            rc.criticalPath().shares().forEach(s -> crit.add(s.file()));
            shown = fileStats.stream().sorted(Comparator.comparing((FileIoStats f) -> !crit.contains(f.file()))
                    .thenComparing(Comparator.comparingLong(FileIoStats::bytes).reversed())).limit(40).toList();
            h.raw("<p class=\"note\">").text("The critical files and the busiest others: 40 of " + fileStats.size() + " files.").raw("</p>");
        }
        chart(h, "critical", Charts.criticalPath(shown, rc.criticalPath().shares()), 1300, 140 + 26 * shown.size());
        h.raw("<table><tr><th>critical file</th><th>exclusive time (s)</th><th>share of the critical path</th></tr>");
        for (RootCauseReport.FileShare f : rc.dominantFiles()) {
            h.raw("<tr><td>").text(f.file()).raw("</td><td class=\"num\">").text(fmt("%.6f", f.exclusiveSeconds()))
                    .raw("</td><td class=\"num\">").text(fmt("%.1f %%", 100 * f.fraction())).raw("</td></tr>");
        }
        h.raw("</table>\n<p>").text(fmt("Critical path %.6f s of a %.6f s span; ", rc.criticalPath().seconds(), rc.criticalPath().span())
                + rc.files() + " files, " + rc.bytes() + " bytes"
                + (rc.criticalPathBandwidth() == null ? "" : fmt(", %.1f MiB/s over the critical path", rc.criticalPathBandwidth() / 1048576.0))
                + (rc.ioMode() == null ? "" : "; I/O mode " + rc.ioMode()) + ".").raw("</p>\n");
        h.raw("<table><tr><th>contributing factor</th><th>value</th><th>coverage</th><th>meaning</th></tr>");
        for (Factor f : rc.factors()) {
            h.raw("<tr><td>").text(f.name()).raw("</td><td class=\"num\">").text(f.value() == null ? "-" : fmt("%.3f", f.value()))
                    .raw("</td><td class=\"num\">").text(fmt("%.0f %%", 100 * f.coverage())).raw("</td><td>").text(f.meaning()).raw("</td></tr>");
        }
        h.raw("</table>\n");
    }

    private void offsets(Page h, long origin) {
        if (records.isEmpty()) {
            missing(h, "offsets", noSegments);
            return;
        }
        Map<Integer, List<TraceRecord>> byFile = new TreeMap<>();
        Map<Integer, Long> bytes = new TreeMap<>();
        for (TraceRecord r : records) {
            byFile.computeIfAbsent(r.fileId(), k -> new ArrayList<>()).add(r);
            bytes.merge(r.fileId(), r.length(), Long::sum);
        }
        List<Integer> order = new ArrayList<>(byFile.keySet());
        order.sort(Comparator.comparing((Integer f) -> bytes.get(f)).reversed());
        if (order.size() > MAX_OFFSET_CHARTS) {
            h.raw("<p class=\"note\">").text("The " + MAX_OFFSET_CHARTS + " files that moved most bytes, of " + order.size() + ".").raw("</p>");
        }
        for (int fileId : order.subList(0, Math.min(MAX_OFFSET_CHARTS, order.size()))) {
            thinned(h, byFile.get(fileId).size());
            chart(h, "offsets", Charts.offsets(fileName(fileId), thin(byFile.get(fileId)), origin), 1300, 420);
        }
    }

    private String fileName(int fileId) {
        String p = job == null ? null : job.files().get(fileId);
        return p == null ? "file " + fileId : p;
    }

    private void patterns(Page h) {
        if (patterns == null) {
            missing(h, "patterns", patternsError != null ? patternsError : noSegments);
            return;
        }
        Map<Integer, Coverage> byFile = patterns.byFile();
        List<String> names = new ArrayList<>();
        double[] b = new double[byFile.size()], r = new double[byFile.size()];
        int i = 0;
        for (Map.Entry<Integer, Coverage> e : byFile.entrySet()) {
            names.add(fileName(e.getKey()));
            b[i] = 100 * e.getValue().byteFraction();
            r[i++] = 100 * e.getValue().requestFraction();
        }
        if (names.isEmpty()) {
            missing(h, "patterns", "no call moved data, so there is nothing to match");
            return;
        }
        chart(h, "patterns", Charts.coverage(names, b, r), 1000, 420);
        h.raw("<p>").text("Coverage: " + patterns.total() + (patterns.partial() ? " (PARTIAL: see the warnings)" : "")).raw("</p>\n");
        h.raw("<table><tr><th>global pattern</th><th>file</th><th>ranks</th><th>requests</th><th>bytes</th></tr>");
        for (GlobalPattern g : patterns.globals()) {
            h.raw("<tr><td class=\"mono\">").text(g.notation()).raw("</td><td>").text(fileName(g.fileId())).raw("</td><td class=\"num\">")
                    .text(Integer.toString(g.members().size())).raw("</td><td class=\"num\">").text(Long.toString(g.requests()))
                    .raw("</td><td class=\"num\">").text(Long.toString(g.requestBytes())).raw("</td></tr>");
        }
        h.raw("</table>\n");
        List<LocalPattern> locals = patterns.localOnly();
        h.raw("<details><summary>").text(locals.size() + " local pattern(s) in no global pattern").raw("</summary><table>")
                .raw("<tr><th>rank</th><th>file</th><th>local pattern</th></tr>");
        for (LocalPattern p : locals.subList(0, Math.min(200, locals.size()))) {
            h.raw("<tr><td class=\"num\">").text(Integer.toString(p.rank())).raw("</td><td>").text(fileName(p.fileId()))
                    .raw("</td><td class=\"mono\">").text(Notation.local(p)).raw("</td></tr>");
        }
        h.raw("</table></details>\n");
    }

    private void replicaSection(Page h) {
        if (replicas == null) {
            missing(h, "replicas", noReplicas);
            return;
        }
        if (replicas.layouts().isEmpty()) {
            missing(h, "replicas", "the catalog has no replicas");
        }
        h.raw("<table><tr><th>replica</th><th>state</th><th>layout</th><th>bytes</th></tr>");
        for (ReplicaView.LayoutView l : replicas.layouts()) {
            h.raw("<tr><td>").text(l.title()).raw("</td><td>").text(l.state()).raw("</td><td class=\"mono\">").text(l.layout())
                    .raw("</td><td class=\"num\">").text(Long.toString(l.bytes())).raw("</td></tr>");
        }
        h.raw("</table>\n");
        int shown = 0;
        for (ReplicaView.LayoutView l : replicas.layouts()) {
            if (l.pieces().isEmpty() || shown++ == 8) continue;
            chart(h, "replica-layout", Charts.replicaLayout(l.title() + ": " + l.layout(), l.servers(), l.hddServers(), l.pieces()),
                    1300, 140 + 22 * l.servers().size());
        }
        if (records.isEmpty()) {
            missing(h, "redirect-share", "the share of reads the replicas cover needs per-call records: " + noSegments);
        } else if (replicas.replicaBytes() + replicas.originalBytes() == 0) {
            missing(h, "redirect-share", "the job read nothing, so no read could be redirected");
        } else {
            chart(h, "redirect-share", Charts.redirectShare(replicas.replicaBytes(), replicas.originalBytes(), replicas.basis()), 900, 420);
        }
    }

    private void counterSection(Page h) {
        if (counters == null || counters.isEmpty()) {
            missing(h, "counters", noCounters);
            return;
        }
        for (Map.Entry<String, List<CounterTable.Record>> m : counters.modules().entrySet()) {
            h.raw("<details class=\"module\"><summary>").text(m.getKey() + ": " + m.getValue().size() + " record(s)").raw("</summary>\n");
            for (CounterTable.Record r : m.getValue()) {
                List<CounterTable.Counter> shown = r.counters().stream().filter(c -> !zero(c.value())).toList();
                h.raw("<details class=\"record\"><summary>").text("rank " + r.rank() + "  " + r.file() + "  (record " + r.id() + "; "
                        + shown.size() + " of " + r.counters().size() + " counters not zero)")
                        .raw("</summary><table class=\"counters\"><tr><th>counter</th><th>value</th></tr>");
                for (CounterTable.Counter c : shown) {
                    h.raw("<tr><td class=\"mono\">").text(c.name()).raw("</td><td class=\"num\">").text(c.value()).raw("</td></tr>");
                }
                h.raw("</table></details>\n");
            }
            h.raw("</details>\n");
        }
    }

    /** A counter that is 0 (the zeros are most of a record; -1, "not known", is shown). */
    private static boolean zero(String value) {
        try {
            return Double.parseDouble(value.trim()) == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String fmt(String f, Object... args) {
        return String.format(Locale.ROOT, f, args);
    }
}
