package io.pdla.cli;

import io.pdla.analytics.Analyses;
import io.pdla.analytics.Query;
import io.pdla.analytics.QueryEngine;
import io.pdla.analytics.QueryEngines;
import io.pdla.analytics.QueryException;
import io.pdla.analytics.QueryResult;
import io.pdla.analytics.Schema;
import io.pdla.analytics.Tables;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code pdla query}: IOMiner's operators, plain SQL, or a named analysis over tables made by {@code pdla logs ingest}. */
@Command(name = "query", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Query job/file/rank/segment tables: IOMiner's operators (filter, group-by + aggregates, percentile, "
                + "bin, join, sort, top-k) over named columns, plain SQL (--sql), or a named analysis (--analysis).",
                "Examples:",
                "  pdla query --tables T --group-by app --agg 'sum(bytes_written)' --sort 'sum_bytes_written desc' --top 10",
                "  pdla query --tables T --filter 'nprocs >= 1024' --group-by fs_type --percentile bandwidth:95",
                "  pdla query --tables T --bin nprocs:256 --agg 'avg(bandwidth)'",
                "  pdla query --tables T --from job --join file --filter 'file.LUSTRE_STRIPE_WIDTH = 1' --group-by app",
                "  pdla query --tables T --sql 'SELECT app, count(*) FROM job GROUP BY app'",
                "  pdla query --tables T --analysis slow-factors --slow-percentile 10"})
public final class QueryCommand implements Callable<Integer> {
    /** Rows a text table shows at most. */
    static final int TEXT_ROWS = 1000;

    @Spec
    CommandSpec spec;

    @Option(names = "--tables", paramLabel = "TABLES", description = "a tables directory (pdla logs ingest --out)")
    Path tables;

    @Option(names = "--engine", defaultValue = "duckdb", paramLabel = "duckdb|spark", description = "query engine (default ${DEFAULT-VALUE})")
    String engine;

    @Option(names = "--master", paramLabel = "URL", description = "Spark master (--engine spark; default local[*])")
    String master;

    @Option(names = "--from", defaultValue = "job", paramLabel = "TABLE", description = "job, file, rank or segment (default ${DEFAULT-VALUE})")
    String from;

    @Option(names = "--join", paramLabel = "TABLE", description = "join another table on its keys (job_key; file/rank/segment also on rank, file_id)")
    List<String> joins = new ArrayList<>();

    @Option(names = "--filter", paramLabel = "\"COL OP VALUE\"", description = "OP: = != < <= > >= ~ (LIKE) !~ in 'not in'; or 'COL is [not] null' (repeatable, all must hold)")
    List<String> filters = new ArrayList<>();

    @Option(names = "--select", paramLabel = "COLS", description = "columns to show (comma-separated; default all)")
    List<String> select = new ArrayList<>();

    @Option(names = "--group-by", paramLabel = "COLS", description = "group by these columns")
    List<String> groupBy = new ArrayList<>();

    @Option(names = "--agg", paramLabel = "FN(COL)", description = "count(*), sum, avg, min, max, median, stddev, count_distinct (output column FN_COL)")
    List<String> aggs = new ArrayList<>();

    @Option(names = "--percentile", paramLabel = "COL:P", description = "the P-th percentile of COL (output column pP_COL)")
    List<String> percentiles = new ArrayList<>();

    @Option(names = "--bin", paramLabel = "COL:WIDTH", description = "histogram: rows per WIDTH-wide bin of COL (output COL_bin, count)")
    String bin;

    @Option(names = "--sort", paramLabel = "COL [asc|desc]", description = "order by (an output column when grouping)")
    List<String> sort = new ArrayList<>();

    @Option(names = "--top", paramLabel = "K", description = "the first K rows (with --sort: top-k)")
    Integer top;

    @Option(names = "--sql", paramLabel = "SQL", description = "plain SQL over the views job, file, rank, segment")
    String sql;

    @Option(names = "--analysis", paramLabel = "NAME", description = "slow-factors, io-modes or top-apps (analytics/README.md)")
    String analysis;

    @Option(names = "--slow-percentile", defaultValue = "25", paramLabel = "P", description = "slow-factors: slow = bandwidth at or below the P-th percentile (default ${DEFAULT-VALUE})")
    double slowPercentile;

    @Option(names = "--columns", description = "list the columns of the --from table (and the joined ones) and exit")
    boolean columns;

    @Option(names = "--show-sql", description = "print the SQL before the result")
    boolean showSql;

    @ArgGroup(exclusive = true)
    Format format = new Format();

    static final class Format {
        @Option(names = "--json", description = "rows as a JSON array")
        boolean json;

        @Option(names = "--csv", description = "rows as CSV")
        boolean csv;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        try {
            if (columns) {
                List<String> names = new ArrayList<>(List.of(from));
                names.addAll(joins);
                for (String n : names) {
                    Schema.Table t = Schema.table(n);
                    if (t == null) throw new QueryException("unknown table '" + n + "' (tables: job, file, rank, segment)");
                    out.println(t.name() + ":");
                    for (Schema.Column c : t.columns()) out.println("  " + c.name() + " " + c.type());
                }
                out.flush();
                return 0;
            }
            if (tables == null) throw new QueryException("--tables TABLES is required (a directory made by pdla logs ingest or pdla logs synth)");
            boolean operators = !joins.isEmpty() || !filters.isEmpty() || !select.isEmpty() || !groupBy.isEmpty()
                    || !aggs.isEmpty() || !percentiles.isEmpty() || bin != null || !sort.isEmpty();
            if (sql != null && (analysis != null || operators)) throw new QueryException("--sql runs as given: it cannot be combined with --analysis or operator options");
            if (analysis != null && operators) throw new QueryException("--analysis " + analysis + " cannot be combined with operator options (only --top for top-apps)");
            String text;
            if (sql != null) {
                String plain = sql.strip().replaceAll(";+$", "").strip();
                if (plain.isEmpty()) throw new QueryException("--sql: empty query");
                if (top != null && top <= 0) throw new QueryException("--top " + top + ": K must be positive");
                text = top == null ? plain : "SELECT * FROM (" + plain + ") LIMIT " + top;
            }
            else if (analysis != null) text = Analyses.sql(analysis, slowPercentile, top == null ? 10 : top);
            else {
                Query q = new Query().from(from);
                joins.forEach(q::join);
                filters.forEach(q::filter);
                select.forEach(q::select);
                groupBy.forEach(q::groupBy);
                aggs.forEach(q::agg);
                percentiles.forEach(q::percentile);
                if (bin != null) q.bin(bin);
                sort.forEach(q::sort);
                if (top != null) q.top(top);
                text = q.toSql();
            }
            Tables t = Tables.open(tables);
            Map<String, String> options = new HashMap<>();
            if (master != null) options.put("master", master);
            if (master != null && engine.equalsIgnoreCase("duckdb")) throw new QueryException("--master is for --engine spark");
            long t0 = System.nanoTime(), t1;
            QueryResult r;
            try (QueryEngine e = QueryEngines.open(engine, t, options)) {
                if (showSql) out.println(text + ";");
                t1 = System.nanoTime();
                r = e.run(text);
            }
            double open = (t1 - t0) / 1e9, s = (System.nanoTime() - t1) / 1e9;
            if (format.json) out.print(r.toJson());
            else if (format.csv) out.print(r.toCsv());
            else {
                if (r.rows().size() > TEXT_ROWS) {
                    out.print(new QueryResult(r.columns(), r.rows().subList(0, TEXT_ROWS)).toText());
                    out.println("... " + (r.rows().size() - TEXT_ROWS) + " more rows not shown (all of them with --csv or --json; fewer with --top)");
                } else {
                    out.print(r.toText());
                }
                err.printf(java.util.Locale.ROOT, "%s: open %.3f s, query %.3f s%n", engine, open, s);
            }
            out.flush();
            return 0;
        } catch (QueryException e) {
            err.println("pdla query: " + e.getMessage());
            return 2;
        }
    }
}
