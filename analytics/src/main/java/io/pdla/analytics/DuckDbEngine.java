package io.pdla.analytics;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The default engine: an in-memory DuckDB whose views job/file/rank/segment read the tables' Parquet files
 * ({@code read_parquet(glob, union_by_name = true)}); a table without files is an empty view of its schema.
 */
public final class DuckDbEngine implements QueryEngine {
    private final Connection conn;

    public DuckDbEngine(Tables tables) {
        try {
            conn = DriverManager.getConnection("jdbc:duckdb:");
            try (Statement st = conn.createStatement()) {
                for (Schema.Table t : Schema.tables()) st.execute(viewSql(tables, t));
            }
        } catch (SQLException e) {
            throw new QueryException("cannot open the tables in " + tables.dir() + " with DuckDB: " + e.getMessage(), e);
        }
    }

    /** {@code CREATE VIEW} of a table over its Parquet files, or an empty view of its schema. */
    static String viewSql(Tables tables, Schema.Table t) {
        if (tables.hasData(t.name())) {
            return "CREATE VIEW " + Schema.quote(t.name()) + " AS SELECT * FROM read_parquet(" + literal(tables.glob(t.name()))
                    + ", union_by_name = true)";
        }
        return "CREATE VIEW " + Schema.quote(t.name()) + " AS " + emptySelect(t);
    }

    static String emptySelect(Schema.Table t) {
        StringBuilder sb = new StringBuilder("SELECT ");
        for (int i = 0; i < t.columns().size(); i++) {
            Schema.Column c = t.columns().get(i);
            sb.append(i == 0 ? "" : ", ").append("CAST(NULL AS ").append(c.type()).append(") AS ").append(Schema.quote(c.name()));
        }
        return sb.append(" WHERE false").toString();
    }

    static String literal(String s) { return "'" + s.replace("'", "''") + "'"; }

    @Override
    public String name() { return "duckdb"; }

    @Override
    public QueryResult run(String sql) {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return read(rs);
        } catch (SQLException e) {
            throw new QueryException("query failed: " + firstLine(e.getMessage()), e);
        }
    }

    static QueryResult read(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        List<String> cols = new ArrayList<>();
        for (int i = 1; i <= n; i++) cols.add(md.getColumnLabel(i));
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
            List<Object> r = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) r.add(normalize(rs.getObject(i)));
            rows.add(r);
        }
        return new QueryResult(cols, rows);
    }

    /** Engine values as Long, Double, String, Boolean or null, so results compare across engines. */
    public static Object normalize(Object v) {
        if (v == null || v instanceof Long || v instanceof Double || v instanceof String || v instanceof Boolean) return v;
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) return ((Number) v).longValue();
        if (v instanceof Float f) return f.doubleValue();
        if (v instanceof BigInteger b) return b.bitLength() < 64 ? (Object) b.longValue() : (Object) b.doubleValue();
        if (v instanceof BigDecimal d) {
            if (d.scale() <= 0 && d.precision() - d.scale() < 19) return d.longValueExact();
            return d.doubleValue();
        }
        return v.toString();
    }

    static String firstLine(String s) {
        if (s == null) return "";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl) + (s.length() > nl + 1 ? " " + s.substring(nl + 1).strip().lines().findFirst().orElse("") : "");
    }

    @Override
    public void close() {
        try {
            conn.close();
        } catch (SQLException ignored) {
            // nothing left to release
        }
    }
}
