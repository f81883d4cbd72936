package io.pdla.pattern;

import io.pdla.intercept.AppIdentity;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PatternKeyTest {
    private static final AppIdentity APP = new AppIdentity("ior -a mpiio | tee", 4);
    private static final URI FILE = URI.create("file:///data/x%7Cy.dat");

    @Test
    void idRoundTripsEvenWithBarsInCommandAndFile() {
        for (int rank = -1; rank < 4; rank++) {
            PatternKey k = new PatternKey(APP, rank, FILE);
            assertEquals(k, PatternKey.parse(k.id()), k.id());
        }
        assertEquals("all", PatternKey.global(APP, FILE).scope());
        assertThrows(IllegalArgumentException.class, () -> PatternKey.parse("no bars here"));
    }

    @Test
    void rankMustBeAllOrAProcessOfTheJob() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PatternKey(APP, 4, FILE));
        assertTrue(e.getMessage().contains("0..3") && e.getMessage().contains(FILE.toString()), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new PatternKey(APP, -2, FILE));
    }

    @Test
    void aRankIsServedByItsOwnAndTheGlobalPatternOfItsApplicationOnly() {
        PatternKey local = PatternKey.local(APP, 2, FILE);
        assertTrue(local.serves(APP, 2));
        assertFalse(local.serves(APP, 1));
        assertTrue(local.asGlobal().serves(APP, 1));
        assertFalse(local.asGlobal().serves(new AppIdentity(APP.command(), 8), 1), "another process count is another application run");
    }

    @Test
    void keysSortByApplicationThenGlobalFirstThenRankThenFile() {
        List<PatternKey> keys = new ArrayList<>(List.of(PatternKey.local(APP, 1, FILE), PatternKey.local(APP, 0, URI.create("file:///b")),
                PatternKey.global(APP, FILE), PatternKey.local(APP, 0, URI.create("file:///a"))));
        Collections.sort(keys);
        assertEquals(List.of(PatternKey.global(APP, FILE), PatternKey.local(APP, 0, URI.create("file:///a")),
                PatternKey.local(APP, 0, URI.create("file:///b")), PatternKey.local(APP, 1, FILE)), keys);
    }
}
