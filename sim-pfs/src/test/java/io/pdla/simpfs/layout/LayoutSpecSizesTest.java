package io.pdla.simpfs.layout;

import io.pdla.simpfs.config.ConfigException;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.ServerClass;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sizes in layout specs (hint simpfs_layout, config defaultLayout) follow core's one size grammar. */
class LayoutSpecSizesTest {
    private static final Layout DEFAULTS = Layout.oneDH(ServerClass.HDD, Layout.DEFAULT_STRIPE);

    @Test
    void everySpellingOfTheGrammarGivesTheSameStripe() {
        for (String s : new String[]{"65536", "64k", "64KiB", "64kB"}) {
            assertEquals(65536, SimLayouts.parse("1dh,stripe=" + s, DEFAULTS, "test").stripe(), s);
        }
        assertEquals(1L << 20, SimLayouts.parse("1dv,region=1MiB", DEFAULTS, "test").region());
    }

    @Test
    void aBadSizeNamesTheSettingAndTheText() {
        ConfigException e = assertThrows(ConfigException.class, () -> SimLayouts.parse("1dh,stripe=64q", DEFAULTS, "hint simpfs_layout"));
        // names the source, the setting and the bad text
        assertTrue(e.getMessage().contains("hint simpfs_layout") && e.getMessage().contains("stripe=") && e.getMessage().contains("'64q'"), e.getMessage());
    }
}
