package io.pdla.redirect;

import io.pdla.access.ExtentList;
import io.pdla.pattern.Geometry;

import java.util.ArrayList;
import java.util.List;

/**
 * Where each byte of a read comes from, given the replicas that serve a rank (in the order they are asked): a byte
 * a replica's closed form touches comes from the first such replica, at its data position; any other byte from
 * the original. Pure arithmetic, no I/O: the redirect interceptor reads through it and the scheme benchmarks replay
 * traces through it, so both route alike. O(levels) per piece; a request that touches no replica is one piece.
 */
public final class ExtentRouter {
    /** No replica: the piece is read from the original. */
    public static final int ORIGINAL = -1;

    /**
     * {@code length} bytes at {@code offset} of the original, found in replica number {@code replica} (an index
     * into the router's list) at {@code replicaOffset}, or in the original when {@code replica == ORIGINAL}.
     * Pieces come in call order, so each piece's place in the caller's buffer is the sum of the lengths before it.
     */
    public record Piece(long offset, long length, int replica, long replicaOffset) {
        public boolean fromOriginal() {
            return replica == ORIGINAL;
        }
    }

    /** The order a rank asks its replicas in: its own (local) patterns before the global ones. */
    public static final java.util.Comparator<io.pdla.pattern.PatternKey> SERVING_ORDER =
            java.util.Comparator.comparing(io.pdla.pattern.PatternKey::global);

    private final List<Geometry> replicas;

    public ExtentRouter(List<Geometry> replicas) {
        this.replicas = List.copyOf(replicas);
    }

    public int replicaCount() {
        return replicas.size();
    }

    /** Whether any byte of the access lies in any replica's pattern. */
    public boolean touchesAny(ExtentList ex) {
        for (int i = 0; i < ex.size(); i++) {
            for (Geometry g : replicas) if (g.overlaps(ex.offset(i), ex.length(i))) return true;
        }
        return false;
    }

    /**
     * The pieces of the access in call order. A piece ends where its replica's run ends (consecutive in both the
     * original and the replica) or, for an original piece, where the nearest replica's pattern begins; adjacent
     * pieces that continue one another in the same source are merged.
     */
    public List<Piece> route(ExtentList ex) {
        List<Piece> out = new ArrayList<>(Math.max(2, ex.size()));
        for (int i = 0; i < ex.size(); i++) {
            long o = ex.offset(i);
            long end = o + ex.length(i);
            while (o < end) {
                int hit = ORIGINAL;
                long pos = -1;
                for (int r = 0; r < replicas.size() && hit == ORIGINAL; r++) {
                    pos = replicas.get(r).positionOf(o);
                    if (pos >= 0) hit = r;
                }
                long run;
                if (hit != ORIGINAL) {
                    run = Math.min(replicas.get(hit).runLengthAt(o), end - o);
                } else {
                    long stop = end;
                    for (Geometry g : replicas) {
                        long n = g.nextCoveredOffset(o);
                        if (n >= 0 && n < stop) stop = n;
                    }
                    run = stop - o;
                }
                append(out, new Piece(o, run, hit, hit == ORIGINAL ? o : pos));
                o += run;
            }
        }
        return out;
    }

    private static void append(List<Piece> out, Piece p) {
        if (!out.isEmpty()) {
            Piece last = out.get(out.size() - 1);
            if (last.replica() == p.replica() && last.offset() + last.length() == p.offset()
                    && last.replicaOffset() + last.length() == p.replicaOffset()) {
                out.set(out.size() - 1, new Piece(last.offset(), last.length() + p.length(), last.replica(), last.replicaOffset()));
                return;
            }
        }
        out.add(p);
    }
}
