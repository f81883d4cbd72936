package io.pdla.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.pdla.cli.ConsoleCapture.bench;
import static io.pdla.cli.ConsoleCapture.capture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code pdla bench direct}: a small real run through MPJ and the shim on O_DIRECT, and its option checks. */
class DirectBenchCommandTest {
    /** A round's row: run 1, run 2 without and with read-ahead (each with its ratio to run 1), sequential. */
    private static final Pattern ROUND_ROW = Pattern.compile(
            "(?m)^0\\s+([0-9.]+)\\s+([0-9.]+) \\(([0-9.]+)x\\)\\s+([0-9.]+) \\(([0-9.]+)x\\)\\s+([0-9.]+)\\s+([0-9.]+)x\\s+([0-9]+)%$");

    @TempDir
    Path dir;



    @Test
    void runTwoIsServedByReplicasAndEveryRunHasItsColumn() throws Exception {
        String unsupported = DirectBenchCommand.directIoUnsupported(dir);
        assumeTrue(unsupported == null, () -> "O_DIRECT is not supported in the test's temporary directory " + dir + ": " + unsupported);
        Path work = dir.resolve("direct"), json = dir.resolve("direct.json");
        String out = capture(true, () -> bench("direct", "--per-rank", "1m", "--rounds", "1", "--dir", work.toString(),
                "--json", json.toString()), 0);

        Matcher row = ROUND_ROW.matcher(out);
        assertTrue(row.find(), "a row for round 0:\n" + out);
        for (int g = 1; g <= 8; g++) assertTrue(Double.parseDouble(row.group(g)) > 0, "column " + g + " of round 0:\n" + out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("median ")), "a median line:\n" + out);
        assertTrue(out.contains("run 2 reads were all served by replicas"), out);
        assertFalse(Files.exists(work.resolve(".pdla-direct-probe")), "the O_DIRECT probe file is removed");

        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertEquals(4, root.get("ranks").asInt());
        assertEquals(16 * 1024, root.get("blockBytes").asLong());
        assertEquals(8L << 20, root.get("fileBytes").asLong(), "4 ranks x 2 x 1 MiB");
        assertEquals(1, root.get("rounds").size());
        JsonNode round = root.get("rounds").get(0);
        long reads = 4 * (1 << 20) / (16 * 1024);
        assertEquals(reads, round.get("run2NoReadAheadServedByReplica").asLong(), "every read of run 2 without read-ahead came from a replica");
        assertEquals(reads, round.get("run2ReadAheadServedByReplica").asLong(), "every read of run 2 with read-ahead came from a replica");
        assertEquals(0, round.get("run2ReadAheadServedByOriginal").asLong());
        assertEquals(Double.parseDouble(row.group(1)), round.get("run1MiBps").asDouble(), 0.05, "the JSON's run 1 is the table's");
        assertEquals(round.get("run2ReadAheadMiBps").asDouble() / round.get("run1MiBps").asDouble(),
                root.get("median").get("run2ReadAheadOverRun1").asDouble(), 1e-9, "one round: the median is that round");
    }

    @Test
    void badValuesExit2NamingTheOption() throws Exception {
        assertTrue(capture(false, () -> bench("direct", "--block", "1000"), 2).contains("--block must be a positive multiple of 4k, was 1000"));
        assertTrue(capture(false, () -> bench("direct", "--per-rank", "20k"), 2).contains("--per-rank must be a multiple of --block"));
        assertTrue(capture(false, () -> bench("direct", "--per-rank", "1g"), 2).contains("--per-rank must be below 1g, was 1073741824"));
        assertTrue(capture(false, () -> bench("direct", "--rounds", "0"), 2).contains("--rounds must be > 0, was 0"));
        assertTrue(capture(false, () -> bench("direct", "-np", "0"), 2).contains("-np must be > 0, was 0"));
        String err = capture(false, () -> bench("direct", "--readahead", "lots"), 2);
        assertTrue(err.contains("--readahead") && err.contains("'lots' is not a size"), err);
        Path nowhere = dir.resolve("absent").resolve("out.json");
        err = capture(false, () -> bench("direct", "--json", nowhere.toString()), 2);
        assertTrue(err.contains("--json: directory " + nowhere.getParent() + " does not exist"), err);
    }
}
