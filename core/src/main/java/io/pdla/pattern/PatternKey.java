package io.pdla.pattern;

import io.pdla.intercept.AppIdentity;

import java.net.URI;
import java.util.Objects;

/**
 * PDLA's pattern key: which application (execution command and number of processes), which rank
 * ({@link #ALL_RANKS} for a global pattern of all ranks) and which original file. The tracer's job identity, the
 * analyzer's pattern database, the replicator's queue and catalog, the redirect layer and the benchmarks all key
 * patterns and replicas by this one type; each store keeps only its own byte encoding of it.
 */
public record PatternKey(AppIdentity app, int rank, URI file) implements Comparable<PatternKey> {
    public static final int ALL_RANKS = -1;

    public PatternKey {
        Objects.requireNonNull(app, "pattern key: application identity");
        Objects.requireNonNull(file, "pattern key: original file URI");
        if (rank < ALL_RANKS || rank >= app.processes()) {
            throw new IllegalArgumentException("pattern key of " + file + ": rank must be -1 (all) or 0.." + (app.processes() - 1) + ", was " + rank);
        }
    }

    public static PatternKey global(AppIdentity app, URI file) {
        return new PatternKey(app, ALL_RANKS, file);
    }

    public static PatternKey local(AppIdentity app, int rank, URI file) {
        return new PatternKey(app, rank, file);
    }

    public String command() {
        return app.command();
    }

    public int processes() {
        return app.processes();
    }

    public boolean global() {
        return rank == ALL_RANKS;
    }

    /** The same application and file, all ranks: where a covering global pattern would be. */
    public PatternKey asGlobal() {
        return new PatternKey(app, ALL_RANKS, file);
    }

    /** "all" or the rank. */
    public String scope() {
        return global() ? "all" : Integer.toString(rank);
    }

    /**
     * Whether rank {@code rank} of {@code running} reads through this pattern's replica: the same application and
     * process count, and the pattern is that rank's own or global.
     */
    public boolean serves(AppIdentity running, int rank) {
        return app.equals(running) && (global() || this.rank == rank);
    }

    /** Readable form, used in logs and by {@code pdla replicas}: {@code command|np|rank|uri}. */
    public String id() {
        return app.command() + "|" + app.processes() + "|" + scope() + "|" + file;
    }

    /** Parses {@link #id()}; the command may itself contain '|', so fields are taken from the right. */
    public static PatternKey parse(String id) {
        int c = id.lastIndexOf("|file:");
        int u = c >= 0 ? c : id.lastIndexOf('|');
        if (u < 0) throw new IllegalArgumentException("not a pattern id (command|np|rank|uri): " + id);
        String rest = id.substring(0, u);
        int r = rest.lastIndexOf('|');
        int p = r < 0 ? -1 : rest.lastIndexOf('|', r - 1);
        if (r < 0 || p < 0) throw new IllegalArgumentException("not a pattern id (command|np|rank|uri): " + id);
        String rankText = rest.substring(r + 1);
        try {
            return new PatternKey(new AppIdentity(rest.substring(0, p), Integer.parseInt(rest.substring(p + 1, r))),
                    "all".equals(rankText) ? ALL_RANKS : Integer.parseInt(rankText), URI.create(id.substring(u + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a pattern id (command|np|rank|uri): " + id, e);
        }
    }

    /** By application, process count, global before rank 0, 1, ..., then file. */
    @Override
    public int compareTo(PatternKey o) {
        int c = app.command().compareTo(o.app.command());
        if (c == 0) c = Integer.compare(app.processes(), o.app.processes());
        if (c == 0) c = Integer.compare(rank, o.rank);
        if (c == 0) c = file.toString().compareTo(o.file.toString());
        return c;
    }

    @Override
    public String toString() {
        return id();
    }
}
