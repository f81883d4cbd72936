package io.pdla.analytics;

import io.pdla.size.ByteSize;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * IOMiner's operators over named columns, compiled to one SQL statement: {@code from} a table, {@code join}
 * others on their keys (job_key; file and rank also on rank; segment on file_id and rank), {@code filter}
 * ("col op value"), {@code groupBy} with aggregates ({@code sum(col)}, ...), {@code percentile} ("col:p"),
 * {@code bin} ("col:width", a histogram), {@code sort} ("col [asc|desc]") and {@code top} K. Column names are
 * checked against {@link Schema}: an unknown or ambiguous one is a {@link QueryException} naming it. The SQL keeps to
 * what DuckDB and Spark SQL (with double-quoted identifiers) both accept: {@code percentile_cont(p) WITHIN GROUP},
 * {@code count(*) FILTER (WHERE ...)}, {@code CAST(x AS STRING)}.
 */
public final class Query {
    private String from = "job";
    private final List<String> joins = new ArrayList<>(), filters = new ArrayList<>(), groupBy = new ArrayList<>(),
            aggs = new ArrayList<>(), percentiles = new ArrayList<>(), sort = new ArrayList<>(), select = new ArrayList<>();
    private String bin;
    private Integer top;

    public Query from(String table) { this.from = table; return this; }

    public Query join(String table) { joins.add(table); return this; }

    public Query filter(String expr) { filters.add(expr); return this; }

    public Query groupBy(String column) { groupBy.add(column); return this; }

    public Query agg(String expr) { aggs.add(expr); return this; }

    public Query percentile(String spec) { percentiles.add(spec); return this; }

    public Query bin(String spec) { this.bin = spec; return this; }

    public Query sort(String spec) { sort.add(spec); return this; }

    public Query select(String column) { select.add(column); return this; }

    public Query top(int k) { this.top = k; return this; }

    /** Join keys between two tables (the segment and rank tables meet file rows on rank as well). */
    static List<String> keys(String a, String b) {
        Set<String> pair = Set.of(a, b);
        if (a.equals(b)) throw new QueryException("cannot join table " + a + " with itself");
        if (pair.equals(Set.of("file", "segment"))) return List.of("job_key", "file_id", "rank");
        if (pair.equals(Set.of("file", "rank")) || pair.equals(Set.of("rank", "segment"))) return List.of("job_key", "rank");
        return List.of("job_key");
    }

    private record Resolved(String sql, Schema.Column column) {}

    private final class Scope {
        final List<Schema.Table> tables = new ArrayList<>();
        final Set<String> usingKeys = new LinkedHashSet<>();
        final Map<String, String> aliases = new LinkedHashMap<>();

        Resolved column(String name, String where) {
            String n = name.strip();
            if (n.isEmpty()) throw new QueryException(where + ": empty column name");
            int dot = n.indexOf('.');
            if (dot > 0) {
                String tn = n.substring(0, dot), cn = n.substring(dot + 1);
                Schema.Table t = tables.stream().filter(x -> x.name().equalsIgnoreCase(tn)).findFirst().orElseThrow(() ->
                        new QueryException(where + ": table '" + tn + "' is not in the query (tables: " + names() + ")"));
                Schema.Column c = t.column(cn);
                if (c == null) throw unknown(cn, where, List.of(t));
                if (usingKeys.contains(c.name())) return new Resolved(Schema.quote(c.name()), c);
                return new Resolved(Schema.quote(t.name()) + "." + Schema.quote(c.name()), c);
            }
            List<Schema.Table> in = tables.stream().filter(t -> t.column(n) != null).toList();
            if (in.isEmpty()) throw unknown(n, where, tables);
            Schema.Column c = in.get(0).column(n);
            if (usingKeys.contains(c.name()) || in.size() == 1) {
                String q = in.size() == 1 && !usingKeys.contains(c.name()) && tables.size() > 1
                        ? Schema.quote(in.get(0).name()) + "." + Schema.quote(c.name()) : Schema.quote(c.name());
                return new Resolved(q, c);
            }
            throw new QueryException(where + ": column '" + n + "' is in tables "
                    + String.join(" and ", in.stream().map(Schema.Table::name).toList()) + "; name one, e.g. "
                    + in.get(0).name() + "." + c.name());
        }

        String names() { return String.join(", ", tables.stream().map(Schema.Table::name).toList()); }

        QueryException unknown(String n, String where, List<Schema.Table> ts) {
            List<String> near = new ArrayList<>();
            String u = n.toUpperCase(Locale.ROOT);
            for (Schema.Table t : ts) {
                for (Schema.Column c : t.columns()) {
                    String cu = c.name().toUpperCase(Locale.ROOT);
                    if (cu.contains(u) || u.contains(cu) || distance(cu, u) <= 2) near.add(c.name());
                }
            }
            String hint = near.isEmpty() ? " (pdla query --columns lists them)"
                    : " (did you mean " + String.join(", ", near.stream().distinct().limit(6).toList()) + "?)";
            return new QueryException(where + ": unknown column '" + n + "' in table"
                    + (ts.size() > 1 ? "s " : " ") + String.join(", ", ts.stream().map(Schema.Table::name).toList()) + hint);
        }
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1], cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
            }
            int[] t = prev; prev = cur; cur = t;
        }
        return prev[b.length()];
    }

    private static Schema.Table table(String name, String where) {
        Schema.Table t = Schema.table(name);
        if (t == null) throw new QueryException(where + ": unknown table '" + name + "' (tables: job, file, rank, segment)");
        return t;
    }

    private static final Pattern FILTER = Pattern.compile(
            "^\\s*([A-Za-z_][A-Za-z0-9_.]*)\\s*(<=|>=|!=|<>|==|=|<|>|!~|~|(?i:\\s+not\\s+in\\s+|\\s+in\\s+|\\s+is\\s+not\\s+null\\s*$|\\s+is\\s+null\\s*$))\\s*(.*)$");
    private static final Pattern AGG = Pattern.compile("^\\s*([A-Za-z_]+)\\s*\\(\\s*(\\*|[A-Za-z_][A-Za-z0-9_.]*)?\\s*\\)\\s*$");
    private static final Map<String, String> FUNCS = Map.of("count", "count", "sum", "sum", "avg", "avg", "mean", "avg",
            "min", "min", "max", "max", "median", "median", "stddev", "stddev_samp", "count_distinct", "count");

    /** The SQL for this query. */
    public String toSql() {
        Scope s = new Scope();
        s.tables.add(table(from, "--from"));
        StringBuilder fromSql = new StringBuilder(Schema.quote(s.tables.get(0).name()));
        for (String j : joins) {
            Schema.Table t = table(j.strip(), "--join " + j);
            if (s.tables.contains(t)) throw new QueryException("--join " + j + ": table " + t.name() + " is already in the query");
            List<String> best = null;
            for (Schema.Table prev : s.tables) {
                List<String> k = keys(prev.name(), t.name());
                if (best == null || k.size() > best.size()) best = k;
            }
            fromSql.append(" JOIN ").append(Schema.quote(t.name())).append(" USING (")
                    .append(String.join(", ", best.stream().map(Schema::quote).toList())).append(')');
            s.usingKeys.addAll(best);
            s.tables.add(t);
        }

        List<String> where = new ArrayList<>();
        for (String f : filters) where.add(filter(s, f));

        List<String> outCols = new ArrayList<>(), groupCols = new ArrayList<>();
        String binAlias = null;
        if (bin != null) {
            int colon = bin.lastIndexOf(':');
            if (colon <= 0) throw new QueryException("--bin " + bin + ": expected COLUMN:WIDTH, e.g. bandwidth:100");
            Resolved c = s.column(bin.substring(0, colon), "--bin " + bin);
            if (!numeric(c.column())) throw new QueryException("--bin " + bin + ": column " + c.column().name() + " is not numeric");
            double w = number(bin.substring(colon + 1).strip(), "--bin " + bin + ": width");
            if (!(w > 0)) throw new QueryException("--bin " + bin + ": width must be positive");
            binAlias = c.column().name() + "_bin";
            String ws = plain(w);
            outCols.add("floor(" + c.sql() + " / " + ws + ") * " + ws + " AS " + Schema.quote(binAlias));
            groupCols.add(Schema.quote(binAlias));
            s.aliases.put(binAlias.toLowerCase(Locale.ROOT), Schema.quote(binAlias));
        }
        for (String g : groupBy) {
            for (String part : g.split(",")) {
                Resolved c = s.column(part, "--group-by " + g);
                outCols.add(c.sql() + " AS " + Schema.quote(c.column().name()));
                groupCols.add(c.sql());
                s.aliases.put(c.column().name().toLowerCase(Locale.ROOT), Schema.quote(c.column().name()));
            }
        }
        List<String> aggCols = new ArrayList<>();
        for (String a : aggs) {
            for (String part : splitTop(a)) {
                Matcher m = AGG.matcher(part);
                if (!m.matches()) throw new QueryException("--agg " + part + ": expected FUNCTION(COLUMN), e.g. sum(bytes_written) or count(*)");
                String fn = m.group(1).toLowerCase(Locale.ROOT), arg = m.group(2);
                String sqlFn = FUNCS.get(fn);
                if (sqlFn == null) throw new QueryException("--agg " + part + ": unknown function '" + m.group(1)
                        + "' (count, sum, avg, min, max, median, stddev, count_distinct)");
                String expr, alias;
                if (arg == null || arg.equals("*")) {
                    if (!fn.equals("count")) throw new QueryException("--agg " + part + ": " + fn + " needs a column");
                    expr = "count(*)";
                    alias = "count";
                } else {
                    Resolved c = s.column(arg, "--agg " + part);
                    if (!fn.startsWith("count") && !fn.equals("min") && !fn.equals("max") && !numeric(c.column())) {
                        throw new QueryException("--agg " + part + ": column " + c.column().name() + " is not numeric");
                    }
                    expr = sqlFn + "(" + (fn.equals("count_distinct") ? "DISTINCT " : "") + c.sql() + ")";
                    alias = fn + "_" + c.column().name();
                }
                aggCols.add(expr + " AS " + Schema.quote(alias));
                s.aliases.put(alias.toLowerCase(Locale.ROOT), Schema.quote(alias));
            }
        }
        for (String p : percentiles) {
            int colon = p.lastIndexOf(':');
            if (colon <= 0) throw new QueryException("--percentile " + p + ": expected COLUMN:P, e.g. bandwidth:95");
            Resolved c = s.column(p.substring(0, colon), "--percentile " + p);
            if (!numeric(c.column())) throw new QueryException("--percentile " + p + ": column " + c.column().name() + " is not numeric");
            double q = number(p.substring(colon + 1).strip(), "--percentile " + p + ": P");
            if (!(q >= 0 && q <= 100)) throw new QueryException("--percentile " + p + ": P must be between 0 and 100");
            String alias = "p" + plain(q).replace('.', '_') + "_" + c.column().name();
            aggCols.add("percentile_cont(" + plain(q / 100) + ") WITHIN GROUP (ORDER BY " + c.sql() + ") AS " + Schema.quote(alias));
            s.aliases.put(alias.toLowerCase(Locale.ROOT), Schema.quote(alias));
        }
        if (bin != null && aggCols.isEmpty()) {
            aggCols.add("count(*) AS " + Schema.quote("count"));
            s.aliases.put("count", Schema.quote("count"));
        }
        boolean grouped = !groupCols.isEmpty() || !aggCols.isEmpty();
        if (!groupCols.isEmpty() && aggCols.isEmpty()) {
            aggCols.add("count(*) AS " + Schema.quote("count"));
            s.aliases.put("count", Schema.quote("count"));
        }
        if (grouped && !select.isEmpty()) throw new QueryException("--select cannot be combined with --group-by/--agg/--percentile/--bin (the output is the groups and aggregates)");
        List<String> items = new ArrayList<>(outCols);
        items.addAll(aggCols);
        if (!grouped) {
            if (select.isEmpty()) items.add("*");
            else for (String c : select) for (String part : c.split(",")) {
                Resolved r = s.column(part, "--select " + c);
                items.add(r.sql() + " AS " + Schema.quote(r.column().name()));
                s.aliases.put(r.column().name().toLowerCase(Locale.ROOT), Schema.quote(r.column().name()));
            }
        }
        StringBuilder sql = new StringBuilder("SELECT ").append(String.join(", ", items)).append(" FROM ").append(fromSql);
        if (!where.isEmpty()) sql.append(" WHERE ").append(String.join(" AND ", where));
        if (!groupCols.isEmpty()) sql.append(" GROUP BY ").append(String.join(", ", groupCols));
        List<String> order = new ArrayList<>();
        for (String o : sort) {
            for (String part : o.split(",")) {
                String[] w = part.strip().split("\\s+");
                if (w.length == 0 || w[0].isEmpty() || w.length > 2) throw new QueryException("--sort " + o + ": expected COLUMN [asc|desc]");
                String dir = w.length == 2 ? w[1].toLowerCase(Locale.ROOT) : "asc";
                if (!dir.equals("asc") && !dir.equals("desc")) throw new QueryException("--sort " + o + ": direction '" + w[1] + "' is not asc or desc");
                String alias = s.aliases.get(w[0].toLowerCase(Locale.ROOT));
                String expr;
                if (alias != null) expr = alias;
                else if (grouped) throw new QueryException("--sort " + o + ": '" + w[0] + "' is not an output column (outputs: "
                        + String.join(", ", s.aliases.keySet()) + ")");
                else expr = s.column(w[0], "--sort " + o).sql();
                order.add(expr + " " + dir.toUpperCase(Locale.ROOT) + " NULLS LAST");
            }
        }
        if (order.isEmpty() && binAlias != null) order.add(Schema.quote(binAlias) + " ASC");
        // top-k without a sort means the k largest of the first aggregate (IOMiner's top-k), not k arbitrary groups
        if (order.isEmpty() && top != null && !aggCols.isEmpty()) {
            String first = aggCols.get(0);
            order.add(first.substring(first.lastIndexOf(" AS ") + 4) + " DESC NULLS LAST");
        }
        if (!order.isEmpty()) sql.append(" ORDER BY ").append(String.join(", ", order));
        if (top != null) {
            if (top <= 0) throw new QueryException("--top " + top + ": K must be positive");
            sql.append(" LIMIT ").append(top);
        }
        return sql.toString();
    }

    private String filter(Scope s, String f) {
        Matcher m = FILTER.matcher(f);
        String where = "--filter \"" + f + "\"";
        if (!m.matches()) throw new QueryException(where + ": expected \"COLUMN OP VALUE\" with OP one of = != < <= > >= ~ (LIKE) !~ in, or \"COLUMN is [not] null\"");
        Resolved c = s.column(m.group(1), where);
        String op = m.group(2).strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        String value = m.group(3).strip();
        if (op.startsWith("is")) return c.sql() + " " + op.toUpperCase(Locale.ROOT);
        if (value.isEmpty()) throw new QueryException(where + ": no value after '" + op + "'");
        switch (op) {
            case "in", "not in" -> {
                String v = value.startsWith("(") && value.endsWith(")") ? value.substring(1, value.length() - 1) : value;
                List<String> lits = new ArrayList<>();
                for (String part : v.split(",")) lits.add(literal(c.column(), part.strip(), where));
                return c.sql() + (op.equals("in") ? " IN (" : " NOT IN (") + String.join(", ", lits) + ")";
            }
            case "~", "!~" -> {
                return "CAST(" + c.sql() + " AS STRING)" + (op.equals("~") ? " LIKE " : " NOT LIKE ") + DuckDbEngine.literal(unquote(value));
            }
            default -> {
                String sqlOp = switch (op) { case "==" -> "="; case "<>" -> "!="; default -> op; };
                return c.sql() + " " + sqlOp + " " + literal(c.column(), value, where);
            }
        }
    }

    private static String literal(Schema.Column c, String v, String where) {
        if (c.type().equals("VARCHAR")) return DuckDbEngine.literal(unquote(v));
        if (c.type().equals("BOOLEAN")) {
            String b = unquote(v).toLowerCase(Locale.ROOT);
            if (b.equals("true") || b.equals("false")) return b;
            throw new QueryException(where + ": '" + v + "' is not true or false (column " + c.name() + " is BOOLEAN)");
        }
        return plain(number(unquote(v), where + ": value of " + c.type() + " column " + c.name()));
    }

    private static String unquote(String v) {
        if (v.length() >= 2 && (v.startsWith("'") && v.endsWith("'") || v.startsWith("\"") && v.endsWith("\""))) return v.substring(1, v.length() - 1);
        return v;
    }

    /** A number, or a size such as 1m / 64k (io.pdla.size.ByteSize) for byte columns. */
    private static double number(String v, String what) {
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            try {
                return ByteSize.parse(v, what);
            } catch (IllegalArgumentException e2) {
                throw new QueryException(what + ": '" + v + "' is not a number or a size (e.g. 42, 2.5, 64k, 1m)");
            }
        }
    }

    private static String plain(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 9e15) return Long.toString((long) d);
        return java.math.BigDecimal.valueOf(d).toPlainString();
    }

    private static boolean numeric(Schema.Column c) { return c.type().equals("BIGINT") || c.type().equals("DOUBLE"); }

    private static List<String> splitTop(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0, start = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '(') depth++;
            else if (ch == ')') depth--;
            else if (ch == ',' && depth == 0) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }
}
