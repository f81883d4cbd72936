package io.pdla.hints;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HintFlagTest {
    @Test
    void trueFalseAndRomiosEnableDisableInAnyCaseTrimmed() {
        for (String t : new String[]{"true", "TRUE", " True ", "enable", "Enable\t"}) assertTrue(HintFlag.parse("hint x", t), t);
        for (String f : new String[]{"false", "FALSE", " false", "disable", "DISABLE "}) assertFalse(HintFlag.parse("hint x", f), f);
    }

    @Test
    void anythingElseIsAnErrorNamingTheHintAndTheValue() {
        for (String bad : new String[]{"yes", "1", "", "automatic", "truee"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HintFlag.parse("hint posix_direct_io", bad), bad);
            assertEquals("hint posix_direct_io='" + bad + "': expected true or false (or enable/disable)", e.getMessage());
            assertNull(HintFlag.tryParse(bad), bad);
        }
        assertNull(HintFlag.tryParse(null));
    }

    @Test
    void anAbsentHintTakesTheDefaultAGivenOneIsParsed() {
        assertTrue(HintFlag.of(Map.of(), "h", true));
        assertFalse(HintFlag.of(Map.of(), "h", false));
        assertFalse(HintFlag.of(Map.of("h", " Disable"), "h", true));
        assertThrows(IllegalArgumentException.class, () -> HintFlag.of(Map.of("h", "maybe"), "h", true));
    }
}
