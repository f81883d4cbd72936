package io.pdla.patterns.online;

import io.pdla.patterns.db.PatternEntry;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The daemon's intake warm-up runs the real intake (record, analysis, codec) over a made-up pass and stores nothing. */
class HandedInPassesWarmupTest {
    @Test
    void theMadeUpPassBecomesTheEntriesTheAnalysisMakesAndSurvivesTheCodec() {
        List<PatternEntry> back = HandedInPasses.warmUp();
        assertFalse(back.isEmpty(), "the made-up pass is a pattern the analysis stores");
        List<PatternEntry> made = HandedInPasses.entries(new PassRecord(new io.pdla.intercept.AppIdentity("pdla daemon warm-up", 4),
                java.net.URI.create("file:///pdla-daemon-warm-up/data.dat"), java.util.Map.of(), MatcherWarmup.stridedPass()));
        assertEquals(made.stream().map(PatternEntry::key).toList(), back.stream().map(PatternEntry::key).toList());
        for (int i = 0; i < made.size(); i++) {
            assertEquals(made.get(i).patterns().size(), back.get(i).patterns().size(), "entry " + i);
        }
    }
}
