package io.pdla.bench.schemes;

import io.pdla.pattern.Geometry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Translates a rank's request on an original file into pieces on replica files and on the original, as the
 * redirect layer does: a byte the pattern touches goes to {@code base + positionOf(offset)} of its replica, a
 * byte no replica holds stays on the original (workload file {@code originalIndex(fileId)}).
 *
 * <p>Walk: the request is cut at a grain G = gcd of every pattern boundary (start, segment offsets and lengths,
 * strides, total bytes) and the request's own offset and length, so each grain is wholly inside or wholly outside
 * each pattern. Inside a pattern the walk jumps to the end of the segment instance (one {@code positionOf} per
 * segment piece); outside it advances one grain at a time.
 */
public final class Redirector {
    private final Map<Integer, List<ReplicaTarget>> byRank;
    private final Map<Integer, Integer> originalIndex;

    /**
     * @param byRank        rank -> the replicas that may hold its data (checked in this order)
     * @param originalIndex original file id -> its workload file index
     */
    public Redirector(Map<Integer, List<ReplicaTarget>> byRank, Map<Integer, Integer> originalIndex) {
        this.byRank = byRank;
        this.originalIndex = originalIndex;
    }

    /** The replicas that may hold rank {@code rank}'s data. */
    public List<ReplicaTarget> targets(int rank) {
        return byRank.getOrDefault(rank, List.of());
    }

    public int originalIndex(int fileId) {
        Integer i = originalIndex.get(fileId);
        if (i == null) throw new IllegalArgumentException("file id " + fileId + " is not a file of this workload " + originalIndex.keySet());
        return i;
    }

    /** The pieces of one request, in file order of the original, adjacent pieces of one target merged. */
    public List<Piece> redirect(int rank, int fileId, long offset, long length) {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("rank " + rank + ": request [" + offset + "+" + length + ") is negative");
        }
        int orig = originalIndex(fileId);
        List<ReplicaTarget> candidates = new ArrayList<>();
        for (ReplicaTarget t : byRank.getOrDefault(rank, List.of())) if (t.originalFileId() == fileId) candidates.add(t);
        List<Piece> out = new ArrayList<>();
        if (candidates.isEmpty()) {
            if (length > 0) out.add(new Piece(orig, offset, length));
            return out;
        }
        long grain = gcd(offset, length);
        for (ReplicaTarget t : candidates) grain = gcd(grain, grainOf(t.geometry()));
        if (grain <= 0) grain = 1;
        long o = offset, end = offset + length;
        while (o < end) {
            Piece p = null;
            for (ReplicaTarget t : candidates) {
                long pos = t.geometry().positionOf(o);
                if (pos < 0) continue;
                long run = Math.min(end - o, segmentRemaining(t.geometry(), pos));
                p = new Piece(t.fileIndex(), t.base() + pos, run);
                break;
            }
            if (p == null) p = new Piece(orig, o, Math.min(grain, end - o));
            append(out, p);
            o += p.length();
        }
        return out;
    }

    private static void append(List<Piece> out, Piece p) {
        if (!out.isEmpty()) {
            Piece last = out.get(out.size() - 1);
            if (last.fileIndex() == p.fileIndex() && last.offset() + last.length() == p.offset()) {
                out.set(out.size() - 1, new Piece(last.fileIndex(), last.offset(), last.length() + p.length()));
                return;
            }
        }
        out.add(p);
    }

    /** Bytes from data position {@code pos} to the end of its segment instance (and of the pattern). */
    static long segmentRemaining(Geometry g, long pos) {
        long cycle = g.cycleBytes();
        long w = pos % cycle;
        long prefix = 0;
        for (int j = 0; j < g.segments(); j++) {
            long next = prefix + g.segmentLength(j);
            if (w < next) return Math.min(next - w, g.totalBytes() - pos);
            prefix = next;
        }
        throw new IllegalStateException("position " + pos + " beyond the cycle of " + g);
    }

    static long grainOf(Geometry g) {
        long x = gcd(g.start(), g.totalBytes());
        for (int j = 0; j < g.segments(); j++) x = gcd(gcd(x, g.segmentOffset(j)), g.segmentLength(j));
        for (int l = 0; l < g.levels(); l++) x = gcd(x, g.stride(l));
        return x;
    }

    static long gcd(long a, long b) {
        a = Math.abs(a);
        b = Math.abs(b);
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }
}
