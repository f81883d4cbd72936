package io.pdla.patterns;

import io.pdla.patterns.global.GlobalPattern;
import io.pdla.patterns.template.LocalPattern;
import io.pdla.patterns.template.Notation;

import java.util.Locale;
import java.util.Map;

/** {@link AnalysisReport} as text: job, coverage, global patterns, local patterns, warnings. */
public final class ReportText {
    private ReportText() {
    }

    public static String text(AnalysisReport r, int maxLocals) {
        StringBuilder sb = new StringBuilder();
        String nl = System.lineSeparator();
        sb.append("job: ").append(r.job().app().command()).append(" (").append(r.job().app().processes()).append(" processes)")
                .append(r.partial() ? "  PARTIAL: see warnings" : "").append(nl);
        sb.append("coverage: ").append(r.total()).append(nl);
        for (Map.Entry<Integer, Coverage> e : r.byFile().entrySet()) {
            sb.append("  file ").append(r.job().path(e.getKey())).append(": ").append(e.getValue()).append(nl);
        }
        int ranksBelow = 0;
        for (Coverage c : r.byRank().values()) if (c.requestFraction() < 1.0) ranksBelow++;
        if (ranksBelow > 0) sb.append("  ").append(ranksBelow).append(" rank(s) below 100% request coverage").append(nl);
        sb.append("global patterns: ").append(r.globals().size()).append(nl);
        for (GlobalPattern g : r.globals()) sb.append("  ").append(r.job().path(g.fileId())).append(" ").append(g.notation()).append(nl);
        sb.append("local patterns: ").append(r.locals().size()).append(" (").append(r.localOnly().size()).append(" in no global pattern)").append(nl);
        int n = 0;
        for (LocalPattern p : r.localOnly()) {
            if (n++ == maxLocals) {
                sb.append(String.format(Locale.ROOT, "  ... %d more%n", r.localOnly().size() - maxLocals));
                break;
            }
            sb.append("  rank ").append(p.rank()).append(" ").append(r.job().path(p.fileId())).append(" ").append(Notation.local(p)).append(nl);
        }
        for (String w : r.warnings()) sb.append("warning: ").append(w).append(nl);
        return sb.toString();
    }
}
