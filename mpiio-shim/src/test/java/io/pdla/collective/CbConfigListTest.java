package io.pdla.collective;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ROMIO's cb_config_list of host names (found by the noncontig_coll2 port, which lists the ranks'
 * processor names): which ranks aggregate, and the refusals naming the key.
 */
class CbConfigListTest {
    /** Ranks 0, 1 on host "alpha", 2, 3, 4 on "beta". */
    private static final long[] HOSTS = {"alpha".hashCode(), "alpha".hashCode(), "beta".hashCode(), "beta".hashCode(), "beta".hashCode()};

    private static int[] aggregators(String list) {
        CollectiveSettings s = CollectiveSettings.from(Map.of("cb_config_list", list), HOSTS.length, 2, 4096, 1);
        return Aggregators.choose(HOSTS, s);
    }

    @Test
    void aNameTakesItsLowestRanksAndUsesTheHostUp() {
        assertArrayEquals(new int[]{0, 2}, aggregators("beta,alpha"));
        assertArrayEquals(new int[]{2}, aggregators("beta,beta"), "ROMIO's match_this_proc removes every instance of the name");
        assertArrayEquals(new int[]{0, 2}, aggregators("alpha,alpha,beta,beta,beta,beta"));
        assertArrayEquals(new int[]{0, 1, 2, 3}, aggregators("beta:2,alpha:2"));
    }

    @Test
    void countsAndWildcards() {
        assertArrayEquals(new int[]{2, 3, 4}, aggregators("beta:*"));
        assertArrayEquals(new int[]{0, 2, 3}, aggregators("beta:2,*:1"));
        assertArrayEquals(new int[]{0, 2}, aggregators("*,alpha:5"));
        assertArrayEquals(new int[]{2, 3, 4}, aggregators("alpha:0,*:*"), "N = 0 takes the host out");
    }

    @Test
    void cbNodesCapsTheList() {
        CollectiveSettings s = CollectiveSettings.from(Map.of("cb_config_list", "beta:*,alpha:*", "cb_nodes", "2"), HOSTS.length, 2, 4096, 1);
        assertArrayEquals(new int[]{2, 3}, Aggregators.choose(HOSTS, s));
    }

    @Test
    void theListIsReportedAsInEffect() {
        CollectiveSettings s = CollectiveSettings.from(Map.of("cb_config_list", "beta:2, alpha"), HOSTS.length, 2, 4096, 1);
        assertEquals("beta:2,alpha:1", s.effective().get("cb_config_list"));
    }

    @Test
    void refusalsNameTheKey() {
        for (String bad : new String[]{"beta:-1", "beta:x", "beta:1:2", "alpha,,beta", ":3"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> aggregators(bad), bad);
            assertTrue(e.getMessage().contains("cb_config_list"), e.getMessage());
        }
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> aggregators("gamma:2"));
        assertTrue(none.getMessage().contains("cb_config_list"), none.getMessage());
    }
}
