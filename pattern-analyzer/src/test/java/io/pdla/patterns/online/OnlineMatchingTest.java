package io.pdla.patterns.online;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.access.TraceRecord;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.PatternKey;
import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.Analyzer;
import io.pdla.patterns.InMemoryTraceSource;
import io.pdla.patterns.RuntimeInfo;
import io.pdla.patterns.TracedJob;
import io.pdla.patterns.db.PatternDatabase;
import io.pdla.patterns.db.PatternSpool;
import io.pdla.patterns.template.MatchResult;
import io.pdla.patterns.template.MatcherConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Online matching with the real matcher and a real pattern database: a pattern is handed on only once a pass repeats
 * the previous one, and what is stored is byte for byte what {@code pdla analyze} stores for the same requests.
 */
class OnlineMatchingTest {
    private static final int RANKS = 4, RANK = 1, BLOCK = 16384, SEGMENTS = 32;
    private static final AppIdentity APP = new AppIdentity("Iterative data.dat", RANKS);

    @TempDir
    Path dir;

    /** One pass of rank {@link #RANK} over a 4-rank strided file, as the interceptor feeds it (times from {@code t0}). */
    private static MatchResult stridedPass(long t0, int window) {
        PassMatcher m = new PassMatcher(RANK, 0, MatcherConfig.defaults(), window);
        for (int s = 0; s < SEGMENTS; s++) {
            long off = ((long) s * RANKS + RANK) * BLOCK;
            m.accept(IoOp.READ, off, BLOCK, t0 + s * 1000L, t0 + s * 1000L + 500);
        }
        return m.finish();
    }

    @Test
    void aPatternIsHandedOnWhenTheSecondPassRepeatsTheFirst() {
        RepeatDetector d = new RepeatDetector();
        URI file = URI.create("file:///data/data.dat");
        assertFalse(d.passEnded(file, stridedPass(0, 1000)), "one pass establishes nothing");
        assertFalse(d.handedOn(file));
        assertTrue(d.passEnded(file, stridedPass(1_000_000, 1000)), "the second, equal pass hands the pattern on");
        assertTrue(d.handedOn(file));
        assertFalse(d.passEnded(file, stridedPass(2_000_000, 1000)), "a file is handed on once per job");
    }

    @Test
    void theStartOfASecondPassThatRepeatsTheFirstHandsOnTheFirstAtOnce() {
        RepeatDetector d = new RepeatDetector();
        URI file = URI.create("file:///data/early.dat");
        assertNull(d.probe(file), "nothing to compare the first pass with");
        MatchResult first = stridedPass(0, 1000);
        assertFalse(d.passEnded(file, first));
        RepeatProbe probe = d.probe(file);
        assertNotNull(probe);
        int needed = Math.min(RepeatProbe.REQUESTS, SEGMENTS);
        for (int s = 0; s < needed; s++) {
            long off = ((long) s * RANKS + RANK) * BLOCK;
            assertEquals(s == needed - 1, probe.accept(off, BLOCK), "request " + s + " of the second pass");
        }
        assertEquals(first, d.repeatedEarly(file), "the first pass is what goes on");
        assertTrue(d.handedOn(file));
        assertNull(d.repeatedEarly(file), "once");
        assertFalse(d.passEnded(file, stridedPass(1_000_000, 1000)), "its end hands nothing on again");
        assertNull(d.probe(file));

        // a second pass that starts elsewhere, or reads other lengths, repeats nothing early
        URI other = URI.create("file:///data/other.dat");
        d.passEnded(other, stridedPass(0, 1000));
        RepeatProbe shifted = d.probe(other);
        assertFalse(shifted.accept(((long) RANKS + RANK) * BLOCK, BLOCK), "the first request is the pattern's second");
        assertFalse(shifted.accept((long) RANK * BLOCK, BLOCK), "a probe that saw a request off the order stays off");
        RepeatProbe shorter = d.probe(other);
        assertFalse(shorter.accept((long) RANK * BLOCK, BLOCK + 1), "longer than the pattern's segment");
        assertFalse(d.handedOn(other));
    }

    @Test
    void aPassThatDiffersOrIsGivenUpStartsOver() {
        RepeatDetector d = new RepeatDetector();
        URI file = URI.create("file:///data/other.dat");
        assertFalse(d.passEnded(file, stridedPass(0, 1000)));
        // the same requests shifted by one block: another geometry, so no repetition yet
        PassMatcher shifted = new PassMatcher(RANK, 0, MatcherConfig.defaults(), 1000);
        for (int s = 0; s < SEGMENTS; s++) shifted.accept(IoOp.READ, ((long) s * RANKS + RANK + 1) * BLOCK, BLOCK, s, s + 1);
        assertFalse(d.passEnded(file, shifted.finish()));
        assertNull(stridedPass(0, 16), "a pass over the window is given up");
        assertFalse(d.passEnded(file, null));
        assertFalse(d.passEnded(file, stridedPass(0, 1000)), "a given-up pass forgets the one before it");
        assertTrue(d.passEnded(file, stridedPass(5, 1000)));
    }

    @Test
    void writesAndRandomReadsAreNoCandidates() {
        PassMatcher w = new PassMatcher(RANK, 0, MatcherConfig.defaults(), 1000);
        for (int s = 0; s < SEGMENTS; s++) w.accept(s == 7 ? IoOp.WRITE : IoOp.READ, ((long) s * RANKS + RANK) * BLOCK, BLOCK, s, s + 1);
        assertNull(w.finish(), "a pass that writes is given up");
        PassMatcher r = new PassMatcher(RANK, 0, MatcherConfig.defaults(), 1000);
        Random rnd = new Random(7);
        for (int s = 0; s < SEGMENTS; s++) r.accept(IoOp.READ, (long) rnd.nextInt(1 << 20) * 4096 + rnd.nextInt(4000), 1000 + rnd.nextInt(3000), s, s + 1);
        MatchResult random = r.finish();
        assertNotNull(random);
        assertNull(RepeatDetector.candidate(random), "random reads are not explained: " + random);
    }

    @Test
    void theStoredEntryIsTheOneTheOfflineAnalyzerStores() throws Exception {
        URI file = dir.resolve("data.dat").toUri();
        Map<String, String> hints = Map.of("cb_buffer_size", "1048576");
        MatchResult pass = stridedPass(0, 1000);
        // offline: the same requests as rank RANK's trace, analysed and stored as `pdla analyze --db` does
        List<TraceRecord> records = new ArrayList<>();
        for (int s = 0; s < SEGMENTS; s++) {
            long off = ((long) s * RANKS + RANK) * BLOCK;
            records.add(new TraceRecord(RANK, 0, IoOp.READ, Positioning.EXPLICIT_OFFSET, false, off, BLOCK, s * 1000L, s * 1000L + 500));
        }
        TracedJob job = new TracedJob(APP, Map.of(0, file.toString()), hints, new RuntimeInfo("file", null, null, null, List.of(), Map.of()));
        Analyzer analyzer = new Analyzer();
        AnalysisReport offline = analyzer.analyze(InMemoryTraceSource.of(job, Map.of(RANK, records)));
        Path db = dir.resolve("patterns");
        try (PatternDatabase pdb = PatternDatabase.open(db)) {
            assertEquals(1, analyzer.store(offline, pdb));
        }
        PatternHandoff.Item item = new PatternHandoff.Item(db, new PassRecord(APP, file, hints, pass));
        PatternHandoff.store(item);
        assertEquals(1, HandedInPasses.entries(item.pass()).size(), "one entry handed in");
        assertTrue(PatternSpool.pending(db));
        try (PatternDatabase pdb = PatternDatabase.openExisting(db, false)) {
            assertEquals(0, HandedInPasses.drainInto(pdb, p -> { throw new AssertionError(p); }),
                    "the online entry must equal the offline one byte for byte (nothing new stored)");
        }
        assertFalse(PatternSpool.pending(db), "the spool is drained");
        try (PatternDatabase pdb = PatternDatabase.openExisting(db, true)) {
            assertEquals(List.of(PatternKey.local(APP, RANK, file)), pdb.keys());
            assertEquals(1, pdb.queueLength(), "queued once, by the first store");
        }
        // and into an empty database it is stored and queued for the replicator
        Path fresh = dir.resolve("fresh");
        PatternHandoff.store(new PatternHandoff.Item(fresh, new PassRecord(APP, file, hints, pass)));
        // a damaged hand-off beside it is reported and set aside, never stored
        java.nio.file.Files.write(PatternSpool.dirOf(fresh).resolve("0000000000000000000-x.pass"), new byte[]{'P', 'D', 'L', 'A', 1, 2, 3});
        List<String> problems = new ArrayList<>();
        try (PatternDatabase pdb = PatternDatabase.open(fresh)) {
            assertEquals(1, HandedInPasses.drainInto(pdb, problems::add));
        }
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("0000000000000000000-x.pass") && problems.get(0).contains("damaged"), problems.get(0));
        try (PatternDatabase pdb = PatternDatabase.openExisting(fresh, true)) {
            assertEquals(1, pdb.queueLength());
            assertEquals(PatternKey.local(APP, RANK, file), pdb.peekQueue().get(0).key());
        }
    }

    @Test
    void badSettingsAreErrorsNamingTheHint() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> OnlineSettings.from(Map.of("pdla_online", "yes")));
        assertTrue(e.getMessage().contains("pdla_online") && e.getMessage().contains("yes"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> OnlineSettings.from(Map.of("pdla_online", "true", "pdla_patterns", "/tmp/p", "pdla_online_window", "2")));
        assertTrue(e.getMessage().contains("pdla_online_window"), e.getMessage());
        if (System.getenv("PDLA_PATTERNS") == null && System.getProperty("pdla.patterns") == null) {
            e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> OnlineSettings.from(Map.of("pdla_online", "true")));
            assertTrue(e.getMessage().contains("pdla_patterns"), e.getMessage());
        }
        assertEquals(OnlineSettings.DEFAULT_WINDOW, OnlineSettings.from(Map.of("pdla_online", "true", "pdla_patterns", "/tmp/p")).window());
    }
}
