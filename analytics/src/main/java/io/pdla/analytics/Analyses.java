package io.pdla.analytics;

import java.util.List;
import java.util.Locale;

/**
 * IOMiner's cross-job analyses (seed 000, sections II-D and III) as SQL over the job table, for any engine.
 *
 * <p><b>slow-factors</b>: jobs that moved data and have a bandwidth; the slow ones are those at or below the
 * P-th percentile of bandwidth ({@code percentile_cont}, interpolated); for each contributing factor, how many slow jobs have it
 * and the share among slow jobs next to the share among all jobs (a factor over-represented among slow jobs is a
 * suspect). A factor that cannot be computed for a job (no requests counted, no Lustre record) leaves that job out
 * of that factor's shares ({@code known} counts the jobs it could be computed for). Thresholds:
 * <ul>
 *   <li>small I/O: more than {@value #SMALL_SHARE} of POSIX requests are below 1 MiB (size bins 0..100K_1M, as
 *       Drishti and {@code pdla why});</li>
 *   <li>non-consecutive I/O: more than {@value #NONCONSEC_SHARE} of POSIX requests are not CONSEC
 *       (1 - (CONSEC_READS + CONSEC_WRITES) / (READS + WRITES));</li>
 *   <li>few storage targets: the job's files use at most {@value #FEW_OSTS} distinct OST (LUSTRE_OST_COUNT;
 *       Lustre's default stripe count, the bottleneck IOMiner found);</li>
 *   <li>many processes per target: a file's processes / stripe width above {@value #PROCS_PER_OST}
 *       (IOMiner's "contention level larger than 3");</li>
 *   <li>heavy metadata: metadata time above {@value #META_SHARE} of the job's I/O time.</li>
 * </ul>
 * <p><b>io-modes</b>: jobs per I/O mode (1-1, N-1, N-N, N-M, none; {@code io_mode} as {@code pdla why} classifies),
 * with their share and bytes. <b>top-apps</b>: applications (executable name) by summed I/O time of their jobs.
 */
public final class Analyses {
    public static final double SMALL_SHARE = 0.5, NONCONSEC_SHARE = 0.5, PROCS_PER_OST = 3, META_SHARE = 0.3;
    public static final int FEW_OSTS = 1;
    public static final List<String> NAMES = List.of("slow-factors", "io-modes", "top-apps");

    private Analyses() {}

    /** The SQL of a named analysis; {@code slowPercentile} for slow-factors, {@code top} for top-apps. */
    public static String sql(String name, double slowPercentile, int top) {
        return switch (name) {
            case "slow-factors" -> slowFactorsSql(slowPercentile);
            case "io-modes" -> ioModesSql();
            case "top-apps" -> topAppsSql(top);
            default -> throw new QueryException("unknown analysis '" + name + "' (" + String.join(", ", NAMES) + ")");
        };
    }

    public static QueryResult run(QueryEngine engine, String name, double slowPercentile, int top) {
        return engine.run(sql(name, slowPercentile, top));
    }

    public static String slowFactorsSql(double p) {
        if (!(p > 0 && p < 100)) throw new QueryException("--slow-percentile " + p + ": must be between 0 and 100 (exclusive)");
        StringBuilder small = new StringBuilder();
        for (String b : Schema.SMALL_BINS) small.append(small.length() == 0 ? "" : " + ").append("coalesce(\"").append(b).append("\", 0)");
        String req = "(coalesce(\"POSIX_READS\", 0) + coalesce(\"POSIX_WRITES\", 0))";
        String f = String.format(Locale.ROOT, """
                WITH j AS (
                  SELECT bandwidth,
                    CASE WHEN %2$s > 0 THEN (%1$s) / %2$s > %3$s END AS small_io,
                    CASE WHEN %2$s > 0 THEN 1.0 - (coalesce("POSIX_CONSEC_READS", 0) + coalesce("POSIX_CONSEC_WRITES", 0)) / %2$s > %4$s END AS nonconsec_io,
                    CASE WHEN "LUSTRE_OST_COUNT" IS NOT NULL THEN "LUSTRE_OST_COUNT" <= %5$d END AS few_targets,
                    CASE WHEN procs_per_ost IS NOT NULL THEN procs_per_ost > %6$s END AS many_procs_per_target,
                    CASE WHEN io_time > 0 THEN coalesce(meta_time, 0) / io_time > %7$s END AS heavy_metadata
                  FROM job WHERE bandwidth IS NOT NULL AND coalesce(bytes_read, 0) + coalesce(bytes_written, 0) > 0),
                cut AS (SELECT percentile_cont(%8$s) WITHIN GROUP (ORDER BY bandwidth) AS c FROM j),
                s AS (SELECT j.*, j.bandwidth <= cut.c AS slow FROM j, cut),
                f AS (%9$s)
                SELECT factor, threshold,
                  count(*) FILTER (WHERE slow AND v IS NOT NULL) AS slow_jobs,
                  count(*) FILTER (WHERE slow AND v) AS slow_with_factor,
                  round(100.0 * count(*) FILTER (WHERE slow AND v) / nullif(count(*) FILTER (WHERE slow AND v IS NOT NULL), 0), 1) AS slow_pct,
                  count(*) FILTER (WHERE v IS NOT NULL) AS known,
                  round(100.0 * count(*) FILTER (WHERE v) / nullif(count(*) FILTER (WHERE v IS NOT NULL), 0), 1) AS all_pct
                FROM f GROUP BY ord, factor, threshold ORDER BY ord""",
                small, req, SMALL_SHARE, NONCONSEC_SHARE, FEW_OSTS, PROCS_PER_OST, META_SHARE, p / 100,
                String.join(" UNION ALL ",
                        factor(1, "small I/O", "> " + pct(SMALL_SHARE) + " of requests < 1 MiB", "small_io"),
                        factor(2, "non-consecutive I/O", "> " + pct(NONCONSEC_SHARE) + " of requests", "nonconsec_io"),
                        factor(3, "few storage targets", "<= " + FEW_OSTS + " OST", "few_targets"),
                        factor(4, "many processes per target", "> " + (int) PROCS_PER_OST + " per OST", "many_procs_per_target"),
                        factor(5, "heavy metadata", "> " + pct(META_SHARE) + " of I/O time", "heavy_metadata")));
        return f;
    }

    private static String factor(int ord, String name, String threshold, String col) {
        return "SELECT " + ord + " AS ord, '" + name + "' AS factor, '" + threshold + "' AS threshold, slow, " + col + " AS v FROM s";
    }

    private static String pct(double share) { return Math.round(share * 100) + "%"; }

    public static String ioModesSql() {
        return """
                SELECT io_mode, count(*) AS jobs, round(100.0 * count(*) / sum(count(*)) OVER (), 1) AS pct_jobs,
                  sum(coalesce(bytes_read, 0) + coalesce(bytes_written, 0)) AS bytes
                FROM job GROUP BY io_mode ORDER BY jobs DESC, io_mode""";
    }

    public static String topAppsSql(int top) {
        if (top <= 0) throw new QueryException("--top " + top + ": K must be positive");
        return """
                SELECT app, count(*) AS jobs, sum(io_time) AS io_time, sum(io_time * nprocs) AS process_io_time,
                  sum(bytes_read) AS bytes_read, sum(bytes_written) AS bytes_written
                FROM job GROUP BY app ORDER BY io_time DESC NULLS LAST, app LIMIT\s""" + top;
    }
}
