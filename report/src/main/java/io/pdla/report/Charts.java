package io.pdla.report;

import io.pdla.access.IoOp;
import io.pdla.access.TraceRecord;
import io.pdla.patterns.rootcause.FileIoStats;
import io.pdla.patterns.rootcause.Share;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.labels.StandardPieSectionLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PiePlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.LookupPaintScale;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.StandardXYBarPainter;
import org.jfree.chart.renderer.xy.XYBarRenderer;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.general.DefaultPieDataset;
import org.jfree.data.xy.DefaultXYZDataset;
import org.jfree.data.xy.XYIntervalSeries;
import org.jfree.data.xy.XYIntervalSeriesCollection;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Rectangle2D;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The report's charts, each a {@link JFreeChart} built from plain data (so each can be tested on known data).
 * Times are seconds from the job's first data call; colours are fixed per meaning (reads blue, writes red,
 * critical time orange) so charts read alike.
 */
public final class Charts {
    static final Color READ = new Color(0x1f77b4);
    static final Color WRITE = new Color(0xd62728);
    static final Color CRITICAL = new Color(0xff7f0e);
    static final Color ACTIVE = new Color(0xc7c7c7);
    static final Color HDD = new Color(0x4e79a7);
    static final Color SSD = new Color(0xf28e2b);
    private static final Color[] RANKS = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f), new Color(0xbcbd22), new Color(0x17becf)};
    /** Darshan's access-size bins, labelled for a chart. */
    public static final List<String> SIZE_BINS = io.pdla.darshan.SizeBins.LABELS;

    private Charts() {
    }

    private static double seconds(long nanos, long originNanos) {
        return (nanos - originNanos) / 1e9;
    }

    private static JFreeChart chart(String title, org.jfree.chart.plot.Plot plot, boolean legend) {
        JFreeChart c = new JFreeChart(title, new Font("SansSerif", Font.BOLD, 15), plot, legend);
        c.setBackgroundPaint(Color.WHITE);
        return c;
    }

    /** Flat bars, no gradient or shadow: plain filled shapes in the SVG. */
    private static XYBarRenderer flatXYBars() {
        XYBarRenderer r = new XYBarRenderer();
        r.setBarPainter(new StandardXYBarPainter());
        r.setShadowVisible(false);
        return r;
    }

    private static BarRenderer flatBars() {
        BarRenderer r = new BarRenderer();
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        return r;
    }

    private static XYPlot xyPlot(org.jfree.data.xy.XYDataset data, NumberAxis x, org.jfree.chart.axis.ValueAxis y,
                                 org.jfree.chart.renderer.xy.XYItemRenderer renderer) {
        XYPlot p = new XYPlot(data, x, y, renderer);
        p.setBackgroundPaint(Color.WHITE);
        p.setSeriesRenderingOrder(org.jfree.chart.plot.SeriesRenderingOrder.FORWARD);   // later series on top
        p.setDomainGridlinePaint(new Color(0xdddddd));
        p.setRangeGridlinePaint(new Color(0xdddddd));
        return p;
    }

    /** Per-rank timeline: one bar per read or write call from its start to its end, one row per rank. */
    public static JFreeChart timeline(List<TraceRecord> records, long originNanos) {
        XYIntervalSeries reads = new XYIntervalSeries("read"), writes = new XYIntervalSeries("write");
        long last = originNanos;
        for (TraceRecord r : records) last = Math.max(last, r.endNanos());
        double minWidth = Math.max(1e-9, seconds(last, originNanos) / 1500);   // a zero-length call still shows
        Set<Integer> ranks = new TreeSet<>();
        for (TraceRecord r : records) {
            double s = seconds(r.startNanos(), originNanos), e = Math.max(seconds(r.endNanos(), originNanos), s + minWidth);
            (r.op() == IoOp.WRITE ? writes : reads).add(s, s, e, r.rank(), r.rank() - 0.4, r.rank() + 0.4);
            ranks.add(r.rank());
        }
        XYIntervalSeriesCollection data = new XYIntervalSeriesCollection();
        data.addSeries(reads);
        data.addSeries(writes);
        XYBarRenderer renderer = flatXYBars();
        renderer.setUseYInterval(true);
        renderer.setSeriesPaint(0, READ);
        renderer.setSeriesPaint(1, WRITE);
        NumberAxis y = new NumberAxis("rank");
        y.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        y.setInverted(true);
        if (!ranks.isEmpty()) y.setRange(((TreeSet<Integer>) ranks).first() - 0.6, ((TreeSet<Integer>) ranks).last() + 0.6);
        return chart("I/O calls per rank over time", xyPlot(data, new NumberAxis("time (s)"), y, renderer), true);
    }

    /**
     * The sweep-line critical path: each file's active interval (grey) and, on top, the exclusive intervals in
     * which it alone was the critical file (orange); critical files are marked {@code *} on the axis.
     */
    public static JFreeChart criticalPath(List<FileIoStats> files, List<Share> shares) {
        List<FileIoStats> order = new ArrayList<>(files);
        order.sort(Comparator.comparingDouble(FileIoStats::start).thenComparing(FileIoStats::file));
        double origin = order.isEmpty() ? 0 : order.get(0).start();
        Set<String> critical = new TreeSet<>();
        for (Share s : shares) critical.add(s.file());
        Map<String, Integer> row = new TreeMap<>();
        String[] labels = new String[order.size()];
        XYIntervalSeries active = new XYIntervalSeries("file active"), crit = new XYIntervalSeries("critical (exclusive) time");
        for (int i = 0; i < order.size(); i++) {
            FileIoStats f = order.get(i);
            row.put(f.file(), i);
            labels[i] = (critical.contains(f.file()) ? "* " : "") + shortName(f.file(), 28);
            double s = f.start() - origin, e = Math.max(f.end() - origin, s);
            active.add(s, s, e, i, i - 0.35, i + 0.35);
        }
        for (Share s : shares) {
            Integer i = row.get(s.file());
            if (i == null) continue;
            crit.add(s.from() - origin, s.from() - origin, s.to() - origin, i, i - 0.2, i + 0.2);
        }
        XYIntervalSeriesCollection data = new XYIntervalSeriesCollection();
        data.addSeries(active);
        data.addSeries(crit);
        XYBarRenderer renderer = flatXYBars();
        renderer.setUseYInterval(true);
        renderer.setSeriesPaint(0, ACTIVE);
        renderer.setSeriesPaint(1, CRITICAL);
        SymbolAxis y = new SymbolAxis("file", labels);
        y.setInverted(true);
        y.setGridBandsVisible(false);
        return chart("Critical path (sweep line)", xyPlot(data, new NumberAxis("time (s)"), y, renderer), true);
    }

    /** Request counts per Darshan size bin, reads and writes side by side, each bar labelled with its count. */
    public static JFreeChart requestSizes(long[] readBins, long[] writeBins) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (int i = 0; i < SIZE_BINS.size(); i++) {
            data.addValue(readBins[i], "read", SIZE_BINS.get(i));
            data.addValue(writeBins[i], "write", SIZE_BINS.get(i));
        }
        BarRenderer renderer = flatBars();
        renderer.setSeriesPaint(0, READ);
        renderer.setSeriesPaint(1, WRITE);
        renderer.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", new DecimalFormat("0")) {
            @Override
            public String generateLabel(org.jfree.data.category.CategoryDataset d, int r, int c) {
                Number v = d.getValue(r, c);
                return v == null || v.longValue() == 0 ? null : super.generateLabel(d, r, c);
            }
        });
        renderer.setDefaultItemLabelsVisible(true);
        renderer.setDefaultItemLabelFont(new Font("SansSerif", Font.PLAIN, 10));
        NumberAxis y = new NumberAxis("requests");
        y.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        y.setUpperMargin(0.12);
        CategoryPlot p = new CategoryPlot(data, new CategoryAxis("request size (bytes)"), y, renderer);
        p.setBackgroundPaint(Color.WHITE);
        p.setRangeGridlinePaint(new Color(0xdddddd));
        return chart("Request sizes", p, true);
    }

    /** Request counts of data-moving records per size bin: [0] reads, [1] writes. */
    public static long[][] sizeBins(List<TraceRecord> records) {
        long[][] bins = new long[2][SIZE_BINS.size()];
        for (TraceRecord r : records) {
            if (!r.op().movesData()) continue;
            bins[r.op() == IoOp.WRITE ? 1 : 0][io.pdla.darshan.SizeBins.bin(r.length())]++;
        }
        return bins;
    }

    /**
     * Bandwidth over time: the job's span cut into {@code buckets} equal steps, each call's bytes spread evenly
     * over its own duration. Returns {time of each bucket's start (s), read MiB/s, write MiB/s}.
     */
    public static double[][] bandwidthSeries(List<TraceRecord> records, long originNanos, int buckets) {
        long end = originNanos;
        for (TraceRecord r : records) end = Math.max(end, r.endNanos());
        double span = Math.max(1e-9, seconds(end, originNanos)), step = span / buckets;
        double[][] out = new double[3][buckets];
        for (int b = 0; b < buckets; b++) out[0][b] = b * step;
        for (TraceRecord r : records) {
            if (!r.op().movesData() || r.length() == 0) continue;
            double[] acc = out[r.op() == IoOp.WRITE ? 2 : 1];
            double s = seconds(r.startNanos(), originNanos), e = seconds(r.endNanos(), originNanos);
            if (e <= s) {
                acc[Math.min(buckets - 1, (int) (s / step))] += r.length();
                continue;
            }
            int first = Math.min(buckets - 1, (int) (s / step)), lastB = Math.min(buckets - 1, (int) (e / step));
            for (int b = first; b <= lastB; b++) {
                double lo = Math.max(s, b * step), hi = b == buckets - 1 ? e : Math.min(e, (b + 1) * step);
                if (hi > lo) acc[b] += r.length() * (hi - lo) / (e - s);
            }
        }
        for (int k = 1; k <= 2; k++) for (int b = 0; b < buckets; b++) out[k][b] = out[k][b] / step / 1048576.0;
        return out;
    }

    public static JFreeChart bandwidth(List<TraceRecord> records, long originNanos, int buckets) {
        double[][] s = bandwidthSeries(records, originNanos, buckets);
        XYSeries read = new XYSeries("read"), write = new XYSeries("write");
        for (int b = 0; b < buckets; b++) {
            read.add(s[0][b], s[1][b]);
            write.add(s[0][b], s[2][b]);
        }
        XYSeriesCollection data = new XYSeriesCollection();
        data.addSeries(read);
        data.addSeries(write);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        renderer.setSeriesPaint(0, READ);
        renderer.setSeriesPaint(1, WRITE);
        renderer.setSeriesStroke(0, new BasicStroke(1.5f));
        renderer.setSeriesStroke(1, new BasicStroke(1.5f));
        return chart("Bandwidth over time", xyPlot(data, new NumberAxis("time (s)"), new NumberAxis("MiB/s"), renderer), true);
    }

    /** One file's accesses: each call a dot at (start time, offset), one colour per rank. */
    public static JFreeChart offsets(String file, List<TraceRecord> records, long originNanos) {
        Map<Integer, XYSeries> byRank = new TreeMap<>();
        for (TraceRecord r : records) {
            byRank.computeIfAbsent(r.rank(), k -> new XYSeries("rank " + k, false, true)).add(seconds(r.startNanos(), originNanos), r.offset());
        }
        XYSeriesCollection data = new XYSeriesCollection();
        byRank.values().forEach(data::addSeries);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(false, true);
        renderer.setDrawOutlines(false);   // one filled square per call, no second stroked copy
        for (int i = 0; i < byRank.size(); i++) {
            renderer.setSeriesPaint(i, RANKS[i % RANKS.length]);
            renderer.setSeriesShape(i, new Rectangle2D.Double(-1.5, -1.5, 3, 3));   // a <rect> each: a sixth of a circle's path
        }
        NumberAxis y = new NumberAxis("offset (bytes)");
        y.setAutoRangeIncludesZero(true);
        return chart("Offsets over time: " + shortName(file, 60), xyPlot(data, new NumberAxis("time (s)"), y, renderer), true);
    }

    /** Per file, the percentage of bytes and of requests the access patterns explain, each bar labelled. */
    public static JFreeChart coverage(List<String> files, double[] bytePercent, double[] requestPercent) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (int i = 0; i < files.size(); i++) {
            String f = shortName(files.get(i), 30);
            data.addValue(bytePercent[i], "bytes explained", f);
            data.addValue(requestPercent[i], "requests explained", f);
        }
        BarRenderer renderer = flatBars();
        renderer.setSeriesPaint(0, new Color(0x2ca02c));
        renderer.setSeriesPaint(1, new Color(0x98df8a));
        renderer.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}%", new DecimalFormat("0.0")));
        renderer.setDefaultItemLabelsVisible(true);
        NumberAxis y = new NumberAxis("% explained by patterns");
        y.setRange(0, 110);
        CategoryAxis x = new CategoryAxis("file");
        if (files.size() > 4) x.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        CategoryPlot p = new CategoryPlot(data, x, y, renderer);
        p.setBackgroundPaint(Color.WHITE);
        p.setRangeGridlinePaint(new Color(0xdddddd));
        return chart("Pattern coverage", p, true);
    }

    /**
     * IOMiner's slow-job factors across jobs: for each factor, its share among the slow jobs next to its share among
     * all jobs (a factor over-represented among slow jobs is a suspect); bars labelled with their percentages.
     */
    public static JFreeChart slowFactors(List<String> factors, Double[] slowPercent, Double[] allPercent) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (int i = 0; i < factors.size(); i++) {
            data.addValue(slowPercent[i], "among slow jobs", factors.get(i));
            data.addValue(allPercent[i], "among all jobs", factors.get(i));
        }
        BarRenderer renderer = flatBars();
        renderer.setSeriesPaint(0, WRITE);
        renderer.setSeriesPaint(1, ACTIVE.darker());
        renderer.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}%", new DecimalFormat("0.0")));
        renderer.setDefaultItemLabelsVisible(true);
        NumberAxis y = new NumberAxis("% of jobs with the factor");
        y.setRange(0, 110);
        CategoryPlot p = new CategoryPlot(data, new CategoryAxis("contributing factor"), y, renderer);
        p.setBackgroundPaint(Color.WHITE);
        p.setRangeGridlinePaint(new Color(0xdddddd));
        return chart("Slow-job contributing factors", p, true);
    }

    /** Jobs per I/O mode (1-1, N-1, N-N, N-M, none), each bar labelled with its count. */
    public static JFreeChart ioModes(List<String> modes, long[] jobs) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (int i = 0; i < modes.size(); i++) data.addValue(jobs[i], "jobs", modes.get(i));
        BarRenderer renderer = flatBars();
        renderer.setSeriesPaint(0, READ);
        renderer.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", new DecimalFormat("0")));
        renderer.setDefaultItemLabelsVisible(true);
        NumberAxis y = new NumberAxis("jobs");
        y.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        y.setUpperMargin(0.12);
        CategoryPlot p = new CategoryPlot(data, new CategoryAxis("I/O mode"), y, renderer);
        p.setBackgroundPaint(Color.WHITE);
        p.setRangeGridlinePaint(new Color(0xdddddd));
        return chart("I/O mode census", p, false);
    }

    /** Applications by the summed I/O time of their jobs, largest first, as horizontal bars labelled in seconds. */
    public static JFreeChart topApps(List<String> apps, double[] ioSeconds) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (int i = 0; i < apps.size(); i++) data.addValue(ioSeconds[i], "I/O time", shortName(apps.get(i), 40));
        BarRenderer renderer = flatBars();
        renderer.setSeriesPaint(0, CRITICAL);
        renderer.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2} s", new DecimalFormat("#,##0.###")));
        renderer.setDefaultItemLabelsVisible(true);
        NumberAxis y = new NumberAxis("I/O time of all its jobs (s)");
        y.setUpperMargin(0.15);
        // labels to the right of their bars, the time axis below the plot
        renderer.setDefaultPositiveItemLabelPosition(new org.jfree.chart.labels.ItemLabelPosition(
                org.jfree.chart.labels.ItemLabelAnchor.OUTSIDE3, org.jfree.chart.ui.TextAnchor.CENTER_LEFT));
        CategoryPlot p = new CategoryPlot(data, new CategoryAxis("application"), y, renderer);
        p.setOrientation(org.jfree.chart.plot.PlotOrientation.HORIZONTAL);
        p.setRangeAxisLocation(org.jfree.chart.axis.AxisLocation.BOTTOM_OR_LEFT);
        p.setBackgroundPaint(Color.WHITE);
        p.setRangeGridlinePaint(new Color(0xdddddd));
        return chart("Top applications by I/O time", p, false);
    }

    /** One strip of a replica on one server, in the replica's byte order. */
    public record Piece(int server, long length, long replicaOffset) {
    }

    /**
     * Where a replica's first strips live: x the strip's place in the replica, y the server, each cell one strip
     * (blue on an HServer, orange on an SServer).
     */
    public static JFreeChart replicaLayout(String title, List<String> serverNames, int hddServers, List<Piece> pieces) {
        int n = pieces.size();
        double[][] xyz = new double[3][n];
        for (int i = 0; i < n; i++) {
            xyz[0][i] = i;
            xyz[1][i] = pieces.get(i).server();
            xyz[2][i] = pieces.get(i).server() < hddServers ? 1 : 2;
        }
        DefaultXYZDataset data = new DefaultXYZDataset();
        data.addSeries("strips", xyz);
        XYBlockRenderer renderer = new XYBlockRenderer();
        LookupPaintScale scale = new LookupPaintScale(0, 3, Color.LIGHT_GRAY);
        scale.add(0.5, HDD);
        scale.add(1.5, SSD);
        renderer.setPaintScale(scale);
        renderer.setBlockWidth(0.9);
        renderer.setBlockHeight(0.8);
        SymbolAxis y = new SymbolAxis("server", serverNames.toArray(String[]::new));
        y.setInverted(true);
        y.setGridBandsVisible(false);
        NumberAxis x = new NumberAxis("strip of the replica, in replica order");
        x.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        x.setRange(-0.6, Math.max(1, n) - 0.4);
        XYPlot p = xyPlot(data, x, y, renderer);
        JFreeChart c = chart(title, p, false);
        c.addSubtitle(new TextTitle("one cell per strip; blue: HServer, orange: SServer", new Font("SansSerif", Font.PLAIN, 11)));
        return c;
    }

    /** Bytes served by replicas against bytes from the originals, as a pie with byte counts and shares. */
    public static JFreeChart redirectShare(long replicaBytes, long originalBytes, String basis) {
        DefaultPieDataset<String> data = new DefaultPieDataset<>();
        data.setValue("from replicas", replicaBytes);
        data.setValue("from originals", originalBytes);
        PiePlot<String> p = new PiePlot<>(data);
        p.setSectionPaint("from replicas", new Color(0x2ca02c));
        p.setSectionPaint("from originals", new Color(0x7f7f7f));
        p.setLabelGenerator(new StandardPieSectionLabelGenerator("{0}: {1} bytes ({2})", new DecimalFormat("#,##0"),
                new DecimalFormat("0.0%")));
        p.setBackgroundPaint(Color.WHITE);
        p.setIgnoreZeroValues(false);
        JFreeChart c = chart("Redirected / original share", p, true);
        c.addSubtitle(new TextTitle(basis, new Font("SansSerif", Font.PLAIN, 11)));
        return c;
    }

    /** The last {@code max} characters of a path's name, so axis labels stay readable. */
    static String shortName(String path, int max) {
        String s = path;
        int slash = s.lastIndexOf('/');
        if (slash >= 0 && slash < s.length() - 1) s = s.substring(slash + 1);
        return s.length() <= max ? s : "…" + s.substring(s.length() - max + 1);
    }

    static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }
}
