package io.pdla.intercept;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The lookup order and the blank rule. The environment step is reached through {@link Environment}'s property form
 * ({@code pdla.env.NAME}), which is how niodev ranks see the launcher's variables; the variable names are ones no
 * environment sets.
 */
class SettingTest {
    private static final String PROPERTY = "pdla.test.setting";
    private static final String ENV = "PDLA_TEST_SETTING_UNSET_ELSEWHERE";

    @AfterEach
    void clear() {
        System.clearProperty(PROPERTY);
        System.clearProperty(Environment.PROPERTY_PREFIX + ENV);
    }

    @Test
    void theHintComesFirstThenThePropertyThenTheEnvironment() {
        System.setProperty(PROPERTY, "from-property");
        System.setProperty(Environment.PROPERTY_PREFIX + ENV, "from-env");
        assertEquals("from-hint", Setting.lookup(Map.of("h", "from-hint"), "h", PROPERTY, ENV));
        assertEquals("from-property", Setting.lookup(Map.of(), "h", PROPERTY, ENV));
        System.clearProperty(PROPERTY);
        assertEquals("from-env", Setting.lookup(Map.of(), "h", PROPERTY, ENV));
    }

    @Test
    void aBlankValueHidesNothingFurtherDown() {
        System.setProperty(PROPERTY, "  ");
        System.setProperty(Environment.PROPERTY_PREFIX + ENV, "from-env");
        assertEquals("from-env", Setting.lookup(Map.of("h", ""), "h", PROPERTY, ENV));
    }

    @Test
    void unsetEverywhereOrSkippedStepsGiveNull() {
        assertNull(Setting.lookup(Map.of(), "h", PROPERTY, ENV));
        System.setProperty(PROPERTY, "from-property");
        assertNull(Setting.lookup(null, null, null, ENV));
        assertEquals("from-property", Setting.lookup(null, "h", PROPERTY, null));
    }
}
