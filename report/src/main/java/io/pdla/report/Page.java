package io.pdla.report;

/** A report page under construction: raw markup, text escaped for HTML, charts as inline SVG, the shared style. */
final class Page {
    private final StringBuilder sb = new StringBuilder(1 << 16);

    Page raw(String s) {
        sb.append(s);
        return this;
    }

    Page text(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return this;
    }

    @Override
    public String toString() {
        return sb.toString();
    }

    Page chart(String name, org.jfree.chart.JFreeChart chart, int width, int height) {
        return raw("<figure class=\"chart\" data-chart=\"").raw(name).raw("\">").raw(Svg.of(chart, width, height)).raw("</figure>\n");
    }

    /** The sentence that stands where a chart cannot be drawn. */
    Page missing(String name, String why) {
        return raw("<p class=\"missing\" data-chart=\"").raw(name).raw("\">").text("No chart: " + why + ".").raw("</p>\n");
    }

    /** The page's head with its inline style; the body is open after it. */
    Page head(String title) {
        raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
        raw("<meta name=\"viewport\" content=\"width=device-width\"><title>").text(title).raw("</title>\n");
        return raw("<style>").raw(CSS).raw("</style></head>\n<body>\n");
    }

    static final String CSS = """
            body{font-family:sans-serif;margin:1.5em auto;max-width:1360px;color:#222}
            h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
            nav a{margin-right:.8em}table{border-collapse:collapse;margin:.5em 0}
            th,td{border:1px solid #ddd;padding:.2em .5em;text-align:left;vertical-align:top}
            td.num{text-align:right;font-variant-numeric:tabular-nums}.mono{font-family:monospace}
            table.facts th{background:#f4f4f4}figure.chart{margin:.5em 0}figure.chart svg{max-width:100%;height:auto}
            p.note{color:#555;margin:.3em 0}p.missing{background:#fff6e0;border:1px solid #e8c66a;padding:.5em}
            ul.warnings{color:#8a4b00}details.module{margin:.4em 0}details.record{margin:.2em 0 .2em 1.5em}
            summary{cursor:pointer}footer{margin-top:2em;color:#888;font-size:.9em}
            """;
}
