package io.pdla.patterns.global;

import io.pdla.pattern.Geometry;
import io.pdla.patterns.template.LocalPattern;
import io.pdla.patterns.template.PatternKind;
import io.pdla.patterns.template.Temporal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Merges local patterns of different ranks into global ones (formulas.md 4.5, extended to k-d).
 *
 * <p>Local patterns on one file with the same shape (operations, segments, strides, counts, bytes; only the
 * start differs) are taken in rank order. Their starts must factor into rank levels: a run of c1 starts Δ1
 * apart, blocks of c1 whose starts are Δ2 apart, and so on (ranks shifted by rank × size give one level; the
 * tiles of a 2-D array give two). Each rank level is then inserted into the local closed form at the lowest
 * level where copies still do not overlap; the result is one closed form that enumerates exactly the union of
 * the members' bytes. Groups that do not factor, or do not fit without overlap, stay local.
 */
public final class GlobalMerger {

    public record Result(List<GlobalPattern> globals, List<LocalPattern> unmergedLocals) {
        public Result {
            globals = List.copyOf(globals);
            unmergedLocals = List.copyOf(unmergedLocals);
        }
    }

    /**
     * @param byRankAndFile every rank's local patterns per file: key (rank, fileId) as {@code rank -> fileId -> list};
     *                      a member's {@link MemberRef#index()} is its index in that list
     */
    public Result merge(Map<Integer, Map<Integer, List<LocalPattern>>> byRankAndFile) {
        List<GlobalPattern> globals = new ArrayList<>();
        List<LocalPattern> left = new ArrayList<>();
        // group candidates by file, then by shape
        Map<Integer, List<Candidate>> byFile = new TreeMap<>();
        byRankAndFile.forEach((rank, files) -> files.forEach((file, list) -> {
            for (int i = 0; i < list.size(); i++) byFile.computeIfAbsent(file, f -> new ArrayList<>()).add(new Candidate(new MemberRef(rank, i), list.get(i)));
        }));
        for (var e : byFile.entrySet()) {
            List<List<Candidate>> groups = new ArrayList<>();
            for (Candidate c : e.getValue()) {
                List<Candidate> home = null;
                for (List<Candidate> g : groups) if (g.get(0).p.sameShape(c.p)) home = g;
                if (home == null) groups.add(home = new ArrayList<>());
                home.add(c);
            }
            for (List<Candidate> g : groups) {
                GlobalPattern gp = g.size() >= 2 ? tryMerge(e.getKey(), g) : null;
                if (gp != null) globals.add(gp);
                else g.forEach(c -> left.add(c.p));
            }
        }
        return new Result(globals, left);
    }

    private record Candidate(MemberRef ref, LocalPattern p) {
    }

    private static GlobalPattern tryMerge(int fileId, List<Candidate> group) {
        List<Candidate> g = new ArrayList<>(group);
        g.sort((a, b) -> Integer.compare(a.ref.rank(), b.ref.rank()));
        TreeSet<Integer> ranks = new TreeSet<>();
        for (Candidate c : g) if (!ranks.add(c.ref.rank())) return null; // two same-shaped patterns of one rank
        Geometry local = g.get(0).p.geometry();
        if (!local.complete()) return null;
        long[] starts = new long[g.size()];
        for (int i = 0; i < starts.length; i++) starts[i] = g.get(i).p.geometry().start();
        List<long[]> rankLevels = factor(starts);
        if (rankLevels == null) return null;
        Geometry.Spec spec = local.spec();
        long[] strides = spec.strides(), counts = spec.counts();
        int minPos = 0;
        for (long[] rl : rankLevels) {
            boolean placed = false;
            for (int pos = minPos; pos <= strides.length && !placed; pos++) {
                long[] st = insert(strides, pos, rl[0]), ct = insert(counts, pos, rl[1]);
                try {
                    Geometry.of(new Geometry.Spec(starts[0], spec.segOffsets(), spec.segLengths(), st, ct,
                            spec.totalBytes() * product(rankLevels, rl)));
                } catch (IllegalArgumentException overlaps) {
                    continue;
                }
                strides = st;
                counts = ct;
                minPos = pos + 1;
                placed = true;
            }
            if (!placed) return null;
        }
        Geometry merged;
        try {
            merged = Geometry.of(new Geometry.Spec(starts[0], spec.segOffsets(), spec.segLengths(), strides, counts,
                    spec.totalBytes() * starts.length)).canonical();
        } catch (IllegalArgumentException notOne) {
            return null;
        }
        long requests = 0, bytes = 0;
        TreeSet<Long> sizes = new TreeSet<>();
        boolean allFixed = true;
        List<MemberRef> members = new ArrayList<>();
        for (Candidate c : g) {
            requests += c.p.requests();
            bytes += c.p.requestBytes();
            for (long s : c.p.requestSizes()) sizes.add(s);
            allFixed &= c.p.temporal().kind() == Temporal.Kind.FIXED;
            members.add(c.ref);
        }
        Temporal t = allFixed ? g.get(0).p.temporal() : new Temporal(Temporal.Kind.IRREGULAR, g.get(0).p.temporal().meanIntervalNanos());
        return new GlobalPattern(fileId, PatternKind.of(merged), g.get(0).p.ops(), merged, members, requests, bytes,
                g.get(0).p.repetitions(), sizes.stream().mapToLong(Long::longValue).toArray(), t);
    }

    /** Bytes factor while inserting: only the levels placed so far count (the check uses complete blocks). */
    private static long product(List<long[]> levels, long[] upTo) {
        long p = 1;
        for (long[] l : levels) {
            p *= l[1];
            if (l == upTo) break;
        }
        return p;
    }

    /** Rank levels (Δ, count), innermost first, whose mixed-radix sums give {@code starts - starts[0]}; or null. */
    static List<long[]> factor(long[] starts) {
        List<long[]> levels = new ArrayList<>();
        long[] seq = starts;
        while (seq.length > 1) {
            long d = seq[1] - seq[0];
            if (d == 0) return null;
            int c = 1;
            while (c < seq.length && seq[c] - seq[c - 1] == d) c++;
            if (seq.length % c != 0) return null;
            long[] next = new long[seq.length / c];
            for (int b = 0; b < next.length; b++) {
                for (int i = 1; i < c; i++) if (seq[b * c + i] - seq[b * c + i - 1] != d) return null;
                next[b] = seq[b * c];
            }
            levels.add(new long[]{d, c});
            seq = next;
        }
        return levels;
    }

    private static long[] insert(long[] a, int pos, long v) {
        long[] r = new long[a.length + 1];
        System.arraycopy(a, 0, r, 0, pos);
        r[pos] = v;
        System.arraycopy(a, pos, r, pos + 1, a.length - pos);
        return r;
    }
}
