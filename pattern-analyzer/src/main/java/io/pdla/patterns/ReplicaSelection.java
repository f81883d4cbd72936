package io.pdla.patterns;

import io.pdla.access.Extent;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.patterns.db.PatternEntry;
import io.pdla.patterns.db.StoredPattern;
import io.pdla.patterns.global.MemberRef;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which analysed patterns get a replica: the one rule that {@code pdla daemon --patterns} and the scheme
 * benchmarks ({@code pdla bench matrix}) both apply.
 * <ol>
 *   <li>A pattern whose bytes, in its data order, are one ascending contiguous run of the original gets none: its
 *       replica would be that run copied, laid out like the original.</li>
 *   <li>A global pattern that is not such a run gets one replica; its members get none (the global one serves
 *       them).</li>
 *   <li>A global pattern that is such a run (IOR's interleaved shared file, a whole Tile-IO array) is replaced by
 *       its members: each rank's local pattern that is not a run gets its own replica, so each rank's strided data
 *       becomes contiguous.</li>
 *   <li>A local pattern in no global pattern gets its own replica unless it is a run.</li>
 *   <li>One replica per key (the catalog's unit): when one key holds several chosen patterns (a rank with two
 *       patterns on one file), the one with the most bytes is replicated and the others are noted.</li>
 * </ol>
 * Every closed form the analyzer finds qualifies: several segments per cycle and a partial last block included.
 */
public final class ReplicaSelection {
    /** The patterns chosen, in key order, and one note per pattern passed over that the user may wonder about. */
    public record Selection(List<KeyedPattern> chosen, List<String> notes) {
        public Selection {
            chosen = List.copyOf(chosen);
            notes = List.copyOf(notes);
        }
    }

    private ReplicaSelection() {
    }

    public static Selection choose(Collection<PatternEntry> entries) {
        Map<PatternKey, PatternEntry> byKey = new TreeMap<>();
        for (PatternEntry e : entries) byKey.put(e.key(), e);
        Map<PatternKey, List<KeyedPattern>> candidates = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        for (PatternEntry e : byKey.values()) {
            PatternKey k = e.key();
            for (int i = 0; i < e.patterns().size(); i++) {
                StoredPattern sp = e.patterns().get(i);
                Geometry g = sp.closedForm();
                if (k.global()) {
                    if (!g.isAscendingRun()) {
                        candidates.computeIfAbsent(k, x -> new ArrayList<>()).add(new KeyedPattern(k, g, Math.max(1, sp.requests()),
                                processRun(byKey, k, sp, g)));
                    } else {
                        notes.add(k.file() + ": " + sp.notation() + ": one contiguous range, laid out as a replica would be; its ranks' own patterns are replicated instead");
                    }
                } else if (!g.isAscendingRun() && !servedByGlobal(byKey.get(k.asGlobal()), sp)) {
                    candidates.computeIfAbsent(k, x -> new ArrayList<>()).add(new KeyedPattern(k, g, Math.max(1, sp.requests()), g.totalBytes()));
                }
            }
        }
        List<KeyedPattern> chosen = new ArrayList<>();
        candidates.forEach((k, list) -> {
            KeyedPattern best = list.get(0);
            for (KeyedPattern p : list) if (p.totalBytes() > best.totalBytes()) best = p;
            chosen.add(best);
            if (list.size() > 1) {
                notes.add(k.id() + ": " + list.size() + " patterns under one key; the largest (" + best.totalBytes()
                        + " bytes) is replicated, one replica per key");
            }
        });
        return new Selection(chosen, notes);
    }

    /**
     * Bytes of one process's data that lie consecutively in a global pattern's replica: the first run of its first
     * member's bytes in the global's data order (a rank's share when ranks own regions, one request when they
     * interleave request by request). Without member records, ranks are assumed to own equal shares.
     */
    private static long processRun(Map<PatternKey, PatternEntry> byKey, PatternKey global, StoredPattern sp, Geometry g) {
        long share = Math.max(1, g.totalBytes() / global.processes());
        if (sp.members().isEmpty()) return share;
        MemberRef first = sp.members().get(0);
        if (first.rank() >= global.processes()) return share;
        PatternEntry local = byKey.get(PatternKey.local(global.app(), first.rank(), global.file()));
        if (local == null || first.index() >= local.patterns().size()) return share;
        Iterator<Extent> it = local.patterns().get(first.index()).closedForm().extents();
        long run = 0, next = -1;
        while (it.hasNext()) {
            Extent e = it.next();
            long pos = g.positionOf(e.offset());
            if (pos < 0 || (next >= 0 && pos != next)) break;
            run += e.length();
            next = pos + e.length();
        }
        return Math.max(1, Math.min(run, g.totalBytes()));
    }

    /** Whether the local pattern is a member of a global pattern that gets a replica of its own. */
    private static boolean servedByGlobal(PatternEntry global, StoredPattern local) {
        if (global == null || local.globalIndex() == null || local.globalIndex() >= global.patterns().size()) return false;
        return !global.patterns().get(local.globalIndex()).closedForm().isAscendingRun();
    }
}
