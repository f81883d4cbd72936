package io.pdla.patterns.online;

import io.pdla.pattern.Geometry;
import io.pdla.patterns.template.LocalPattern;
import io.pdla.patterns.template.MatchResult;
import io.pdla.patterns.template.OpMix;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides, pass by pass, when a file's pattern on this rank is established: a pass whose reads the templates
 * explain (at least {@value #EXPLAINED_PERCENT} % of its bytes, in at most {@value #MAX_PATTERNS} patterns, reads
 * only) and whose patterns have exactly the geometry of the previous pass over the file. Each file is handed on
 * once per job. Memory is bounded: the last pass's geometries of at most {@value #MAX_FILES} files (least recently
 * passed forgotten first) and as many handed-on files.
 */
final class RepeatDetector {
    static final int MAX_PATTERNS = 16;
    static final int MAX_FILES = 64;
    static final int EXPLAINED_PERCENT = 90;

    private final Map<URI, List<Geometry>> lastPass = lru();
    private final Map<URI, MatchResult> lastCandidate = lru();
    private final Map<URI, Boolean> handedOn = lru();

    /** Whether {@code file} was handed on in this job already (its later passes are not matched). */
    synchronized boolean handedOn(URI file) {
        return handedOn.containsKey(file);
    }

    /**
     * The end of a pass over {@code file}: true when it repeats the previous pass's candidate patterns, so the
     * caller hands {@code pass} on (and the file counts as handed on from now on). A null pass (given up) forgets
     * the file's previous pass.
     */
    synchronized boolean passEnded(URI file, MatchResult pass) {
        if (handedOn.containsKey(file)) return false;   // handed on early, at the start of this pass
        List<Geometry> now = candidate(pass);
        List<Geometry> before = now == null ? lastPass.remove(file) : lastPass.put(file, now);
        if (now == null) lastCandidate.remove(file);
        else lastCandidate.put(file, pass);
        if (now == null || !now.equals(before)) return false;
        lastPass.remove(file);
        lastCandidate.remove(file);
        handedOn.put(file, Boolean.TRUE);
        return true;
    }

    /**
     * A probe for the start of a new pass over {@code file}, when its previous pass was a candidate and the file
     * was not handed on yet; else null.
     */
    synchronized RepeatProbe probe(URI file) {
        MatchResult before = handedOn.containsKey(file) ? null : lastCandidate.get(file);
        if (before == null) return null;
        LocalPattern first = before.patterns().get(0);
        return new RepeatProbe(first.geometry(), first.requests());
    }

    /**
     * The start of a pass repeated the previous one ({@link RepeatProbe}): returns that previous pass, to be handed
     * on now, and counts the file as handed on; null if it was meanwhile (another pass of this rank ended first).
     */
    synchronized MatchResult repeatedEarly(URI file) {
        if (handedOn.containsKey(file)) return null;
        MatchResult before = lastCandidate.remove(file);
        if (before == null) return null;
        lastPass.remove(file);
        handedOn.put(file, Boolean.TRUE);
        return before;
    }

    /** The pass's pattern geometries, in order, if it can be replicated; else null. */
    static List<Geometry> candidate(MatchResult pass) {
        if (pass == null || pass.patterns().isEmpty() || pass.patterns().size() > MAX_PATTERNS) return null;
        if (pass.explainedBytes() * 100 < pass.bytes() * EXPLAINED_PERCENT) return null;
        List<Geometry> g = new ArrayList<>(pass.patterns().size());
        for (LocalPattern p : pass.patterns()) {
            if (p.ops() != OpMix.READ_ONLY) return null;
            g.add(p.geometry());
        }
        return g;
    }

    private static <V> Map<URI, V> lru() {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<URI, V> eldest) {
                return size() > MAX_FILES;
            }
        };
    }
}
