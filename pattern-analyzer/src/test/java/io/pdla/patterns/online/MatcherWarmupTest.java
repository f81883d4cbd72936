package io.pdla.patterns.online;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The matcher's warm-up runs the real matching over its made-up passes, once per copy, and only for online jobs. */
class MatcherWarmupTest {
    @Test
    void theWarmUpMatchesEveryByteOfItsPassesAndTheRepeatOfTheFirst() {
        long n = MatcherWarmup.REQUESTS_PER_PASS;
        long expected = n * 16384 + n * 4096 + n * 4096 + n * 8192 + RepeatProbe.REQUESTS * 16384L;
        assertEquals(expected, MatcherWarmup.run(),
                "each made-up pass is explained whole by the templates, and the probe sees the repeat: the warm-up ran the code a job's passes run");
    }

    @Test
    void itRunsOncePerCopy() {
        MatcherWarmup.runOnce();
        assertFalse(MatcherWarmup.runOnce(), "a second warm-up of the same classes does nothing");
    }

    @Test
    void theLaunchersCallStartsNothingWhenOnlinePdlaIsOffOrItsSettingIsBad() {
        String before = System.getProperty("pdla.online");
        try {
            for (String v : new String[]{"false", "maybe"}) {
                System.setProperty("pdla.online", v);
                assertFalse(MatcherWarmup.startIfOnline(), "pdla.online=" + v);
            }
        } finally {
            if (before == null) System.clearProperty("pdla.online");
            else System.setProperty("pdla.online", before);
        }
    }
}
