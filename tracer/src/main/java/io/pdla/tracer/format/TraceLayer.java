package io.pdla.tracer.format;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Which level of the I/O stack a trace file records. The application layer holds the application's own
 * MPI-IO calls (what the pattern analyzer learns from); the aggregator layer holds the storage requests
 * that collective-buffering aggregators made on behalf of collective calls, which only aggregator ranks
 * have (Darshan's POSIX view under its MPI-IO view). Both use the same format and the same header, so a
 * rank's two files share its clock.
 */
public enum TraceLayer {
    APPLICATION(""),
    AGGREGATOR(".agg");

    private final String suffix;
    private final Pattern files;

    TraceLayer(String suffix) {
        this.suffix = suffix;
        this.files = Pattern.compile("rank-(\\d+)" + Pattern.quote(suffix) + "\\.pdlt");
    }

    public String fileName(int rank) {
        return "rank-" + rank + suffix + ".pdlt";
    }

    /** Public: the tracer's runtime, which writes these files, is shared by the ranks of a JVM; its readers are not. */
    public Pattern files() {
        return files;
    }

    /** The name on command lines ({@code --layer aggregator}). */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a command-line name, case-insensitively; the error lists the names there are. */
    public static TraceLayer parse(String name) {
        for (TraceLayer l : values()) if (l.label().equalsIgnoreCase(name.trim())) return l;
        throw new IllegalArgumentException("unknown trace layer '" + name + "' (application or aggregator)");
    }
}
