package io.pdla.cli;

import org.junit.jupiter.api.Test;

import static io.pdla.cli.ConsoleCapture.bench;
import static io.pdla.cli.ConsoleCapture.capture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code pdla bench partitions}: the five methods' table on sim-pfs, and its option checks. */
class BenchPartitionsCommandTest {
    @Test
    void printsOneRowPerMethodAndAggregatorCount() throws Exception {
        String out = capture(true, () -> bench("partitions", "--hservers", "4", "-np", "16", "--per-rank", "1m", "--stripe", "256k",
                "--buffer", "2m", "-P", "4,3"), 0);
        for (String m : new String[]{"even", "stripe_aligned", "stripe_aligned+stripe_size_io", "static_cyclic", "group_cyclic", "transpose"}) {
            long rows = out.lines().filter(l -> l.startsWith(m + " ")).count();
            assertEquals(2, rows, m + " rows in\n" + out);
        }
        assertTrue(out.contains("4 HDD servers") && out.contains("256 KiB stripes"), out);
    }

    @Test
    void badOptionsExit2NamingTheOption() throws Exception {
        assertTrue(capture(false, () -> bench("partitions", "--hservers", "0"), 2).contains("--hservers"));
        assertTrue(capture(false, () -> bench("partitions", "--stripe", "1q"), 2).contains("1q"));
        assertTrue(capture(false, () -> bench("partitions", "-P", "4,0"), 2).contains("aggregator counts"));
    }
}
