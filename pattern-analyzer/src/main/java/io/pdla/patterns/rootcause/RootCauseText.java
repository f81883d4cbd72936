package io.pdla.patterns.rootcause;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.util.Locale;

/** The report as text for people and as JSON for tools. */
public final class RootCauseText {
    private RootCauseText() {
    }

    public static String text(RootCauseReport r, int topFiles) {
        StringBuilder sb = new StringBuilder();
        CriticalPath cp = r.criticalPath();
        sb.append(String.format(Locale.ROOT, "files: %d, bytes: %d%n", r.files(), r.bytes()));
        sb.append(String.format(Locale.ROOT, "I/O time on the critical path: %.6f s (first start to last end: %.6f s, idle %.6f s)%n",
                cp.seconds(), cp.span(), cp.span() - cp.seconds()));
        if (r.criticalPathBandwidth() != null) {
            sb.append(String.format(Locale.ROOT, "bandwidth on the critical path: %s/s (first start to last end: %s/s)%n",
                    mib(r.criticalPathBandwidth()), mib(r.spanBandwidth())));
        }
        sb.append("critical files: ").append(cp.shares().size()).append(System.lineSeparator());
        int n = 0;
        for (RootCauseReport.FileShare f : r.dominantFiles()) {
            if (n++ == topFiles) {
                sb.append(String.format(Locale.ROOT, "  ... %d more%n", r.dominantFiles().size() - topFiles));
                break;
            }
            sb.append(String.format(Locale.ROOT, "  %6.2f%%  %.6f s  %s%n", 100 * f.fraction(), f.exclusiveSeconds(), f.file()));
        }
        sb.append("contributing factors (weighted by exclusive time):").append(System.lineSeparator());
        for (Factor f : r.factors()) {
            String v = f.value() == null ? "unknown" : String.format(Locale.ROOT, "%.3f", f.value());
            String cov = f.value() == null || f.coverage() >= 0.9999 ? "" : String.format(Locale.ROOT, " (counters for %.0f%% of the path)", 100 * f.coverage());
            sb.append(String.format(Locale.ROOT, "  %-30s %s%s%n", f.name(), v, cov));
        }
        sb.append("I/O mode: ").append(r.ioMode() == null ? "unknown" : r.ioMode()).append(System.lineSeparator());
        sb.append("storage targets used: ").append(r.storageTargetsUsed() == null ? "unknown" : r.storageTargetsUsed()).append(System.lineSeparator());
        sb.append("rank imbalance (max/mean bytes): ")
                .append(r.rankImbalance() == null ? "unknown" : String.format(Locale.ROOT, "%.3f", r.rankImbalance()))
                .append(System.lineSeparator());
        return sb.toString();
    }

    private static String mib(Double bps) {
        return bps == null ? "?" : String.format(Locale.ROOT, "%.3f MiB", bps / (1 << 20));
    }

    public static String json(RootCauseReport r) {
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(r);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render report as JSON", e);
        }
    }
}
