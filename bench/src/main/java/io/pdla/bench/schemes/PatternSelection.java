package io.pdla.bench.schemes;

import io.pdla.access.Extent;
import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.global.GlobalPattern;
import io.pdla.patterns.global.MemberRef;
import io.pdla.pattern.Geometry;
import io.pdla.patterns.template.LocalPattern;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which patterns get a replica. The rule (documented in {@code bench/RESULTS-schemes.md}):
 * <ol>
 *   <li>A pattern whose bytes, in its data order, form one contiguous ascending run of the original is never
 *       replicated: its replica would be that run copied, laid out like the original, and gains nothing.</li>
 *   <li>A global pattern that is not such a run gets one replica (the paper's "global patterns first"); its
 *       members are then served by it.</li>
 *   <li>A global pattern that is such a run (IOR's interleaved shared file, a whole Tile-IO array) is replaced by
 *       its members: each rank's local pattern that is not a run gets its own replica, so each rank's strided
 *       data becomes contiguous - the paper's main effect.</li>
 *   <li>Local patterns in no global pattern get their own replica, unless they are a run.</li>
 * </ol>
 */
public final class PatternSelection {

    /** A pattern chosen for a replica: its closed form, the ranks that use it, and its request sizes. */
    /**
     * @param rankRun bytes of one rank's data that are contiguous in the replica: the whole pattern for a local
     *                pattern; for a global one, the first run of consecutive replica positions of its first
     *                member (total / members when the rank level is outermost, one request when ranks interleave).
     *                This is the "process region" of 1-DV and 2-D layouts of the replica.
     */
    public record Chosen(String key, int fileId, Geometry geometry, TreeSet<Integer> ranks, long requests,
                         long requestBytes, boolean global, long rankRun) {
        /** Mean request size of the pattern (bytes per request). */
        public long meanRequestSize() {
            return requests == 0 ? geometry.totalBytes() : Math.max(1, requestBytes / requests);
        }
    }

    private PatternSelection() {
    }

    public static List<Chosen> choose(AnalysisReport report) {
        List<Chosen> out = new ArrayList<>();
        Map<Integer, Map<Integer, List<LocalPattern>>> locals = report.localsByRankAndFile();
        int gi = 0;
        for (GlobalPattern g : report.globals()) {
            List<LocalPattern> members = new ArrayList<>();
            for (MemberRef m : g.members()) members.add(locals.get(m.rank()).get(g.fileId()).get(m.index()));
            if (!isContiguousRun(g.geometry())) {
                TreeSet<Integer> ranks = new TreeSet<>();
                long req = 0, bytes = 0;
                for (LocalPattern lp : members) {
                    ranks.add(lp.rank());
                    req += lp.requests();
                    bytes += lp.requestBytes();
                }
                out.add(new Chosen("global#" + gi + " file " + g.fileId(), g.fileId(), g.geometry(), ranks, req, bytes, true,
                        firstRun(members.get(0).geometry(), g.geometry())));
            } else {
                for (LocalPattern lp : members) addLocal(out, lp);
            }
            gi++;
        }
        for (LocalPattern lp : report.localOnly()) addLocal(out, lp);
        return out;
    }

    private static void addLocal(List<Chosen> out, LocalPattern lp) {
        if (isContiguousRun(lp.geometry())) return;
        TreeSet<Integer> ranks = new TreeSet<>();
        ranks.add(lp.rank());
        out.add(new Chosen("rank " + lp.rank() + " file " + lp.fileId() + " @" + lp.geometry().start(), lp.fileId(),
                lp.geometry(), ranks, lp.requests(), lp.requestBytes(), false, lp.geometry().totalBytes()));
    }

    /** Length of the first run of {@code member}'s bytes that is contiguous in {@code global}'s data order. */
    static long firstRun(Geometry member, Geometry global) {
        Iterator<Extent> it = member.extents();
        long run = 0, nextPos = -1;
        while (it.hasNext()) {
            Extent e = it.next();
            long pos = global.positionOf(e.offset());
            if (pos < 0) throw new IllegalStateException("member byte " + e.offset() + " is not in the global pattern " + global);
            if (nextPos >= 0 && pos != nextPos) break;
            run += e.length();
            nextPos = pos + e.length();
        }
        return run;
    }

    /** True when the pattern's extents, in data order, are one ascending contiguous run. */
    public static boolean isContiguousRun(Geometry g) {
        Iterator<Extent> it = g.extents();
        long next = -1;
        while (it.hasNext()) {
            Extent e = it.next();
            if (next >= 0 && e.offset() != next) return false;
            next = e.offset() + e.length();
        }
        return true;
    }
}
