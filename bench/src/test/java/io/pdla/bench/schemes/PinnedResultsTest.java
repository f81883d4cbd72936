package io.pdla.bench.schemes;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bench/RESULTS-schemes.md} holds one pinned block: the options of a small matrix run and its tables. The
 * matrix runs in virtual time, so re-running those options must give exactly that text; when the code changes what
 * the matrix measures, this fails until the results file is regenerated from the new output.
 */
class PinnedResultsTest {
    private static final Pattern BLOCK = Pattern.compile(
            "<!-- pinned-matrix: quick=(true|false) per-proc=(\\d+) stride-factor=([0-9.]+) only=(.*?) -->\\n```\\n(.*?)```\\n<!-- end pinned-matrix -->",
            Pattern.DOTALL);

    @Test
    void thePinnedBlockOfTheResultsFileIsWhatTheMatrixPrintsToday() throws IOException {
        Path results = Path.of("RESULTS-schemes.md");
        assertTrue(Files.exists(results), "run from the bench module: " + results.toAbsolutePath());
        Matcher m = BLOCK.matcher(Files.readString(results));
        assertTrue(m.find(), results + " has no pinned-matrix block");
        SchemeMatrix.Options o = new SchemeMatrix.Options(Boolean.parseBoolean(m.group(1)), Long.parseLong(m.group(2)),
                Double.parseDouble(m.group(3)), m.group(4).isEmpty() ? null : Pattern.compile(m.group(4), Pattern.CASE_INSENSITIVE));
        List<SchemeComparison.Table> tables = SchemeMatrix.run(o, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(m.group(5), SchemeMatrix.report(tables), "regenerate the pinned block of " + results
                + " from `./pdla bench matrix` with these options (or SchemeMatrix.report)");
    }
}
