package io.pdla.analytics;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Rows of a query with their column names. Values are Long, Double, String, Boolean or null. */
public record QueryResult(List<String> columns, List<List<Object>> rows) {
    public QueryResult {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    public int index(String column) {
        for (int i = 0; i < columns.size(); i++) if (columns.get(i).equalsIgnoreCase(column)) return i;
        throw new IllegalArgumentException("no column " + column + " in " + columns);
    }

    /** The value of a column in a row. */
    public Object get(int row, String column) { return rows.get(row).get(index(column)); }

    /** An aligned text table (numbers right-aligned, doubles with up to 3 decimals). */
    public String toText() {
        int n = columns.size();
        List<String[]> cells = new ArrayList<>();
        int[] w = new int[n];
        String[] head = columns.toArray(String[]::new);
        cells.add(head);
        for (List<Object> r : rows) {
            String[] c = new String[n];
            for (int i = 0; i < n; i++) c[i] = format(r.get(i));
            cells.add(c);
        }
        for (String[] c : cells) for (int i = 0; i < n; i++) w[i] = Math.max(w[i], c[i].length());
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < cells.size(); k++) {
            String[] c = cells.get(k);
            for (int i = 0; i < n; i++) {
                boolean right = k > 0 && rows.get(k - 1).get(i) instanceof Number;
                String pad = " ".repeat(w[i] - c[i].length());
                sb.append(i == 0 ? "" : "  ").append(right ? pad + c[i] : c[i] + (i == n - 1 ? "" : pad));
            }
            sb.append('\n');
            if (k == 0) {
                for (int i = 0; i < n; i++) sb.append(i == 0 ? "" : "  ").append("-".repeat(w[i]));
                sb.append('\n');
            }
        }
        sb.append('(').append(rows.size()).append(rows.size() == 1 ? " row)" : " rows)").append('\n');
        return sb.toString();
    }

    /** CSV with a header line (RFC 4180 quoting). */
    public String toCsv() {
        StringBuilder sb = new StringBuilder();
        line(sb, new ArrayList<>(columns));
        for (List<Object> r : rows) line(sb, r);
        return sb.toString();
    }

    /** A JSON array of objects, one per row, keys in column order. */
    public String toJson() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (List<Object> r : rows) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (int i = 0; i < columns.size(); i++) m.put(columns.get(i), r.get(i));
            out.add(m);
        }
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(out) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void line(StringBuilder sb, List<Object> values) {
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) sb.append(',');
            Object v = values.get(i);
            String s = v == null ? "" : v instanceof Double d ? Double.toString(d) : v.toString();
            if (s.contains(",") || s.contains("\"") || s.contains("\n")) s = '"' + s.replace("\"", "\"\"") + '"';
            sb.append(s);
        }
        sb.append('\n');
    }

    static String format(Object v) {
        if (v == null) return "NULL";
        if (v instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) return d.toString();
            if (d == Math.rint(d) && Math.abs(d) < 1e15) return String.format(Locale.ROOT, "%.1f", d);
            String s = String.format(Locale.ROOT, "%.3f", d);
            return s.equals("0.000") || s.equals("-0.000") ? String.format(Locale.ROOT, "%.3g", d) : s;
        }
        return v.toString();
    }
}
