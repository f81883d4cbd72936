package io.pdla.cli;

import io.pdla.cli.programs.StridedIo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The first half of the PDLA loop under real MPJ ranks: a traced run of IOR's strided shape, then
 * `pdla analyze` finds the four ranks' strided patterns and their one global pattern and stores them,
 * queued for replication; `pdla patterns list` and `pdla why` read the same run.
 */
class TraceAnalyzeEndToEndTest {
    @TempDir
    Path dir;

    private static String capture(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true));
        try {
            int code = PdlaCommand.commandLine().execute(args);
            assertEquals(0, code, "pdla " + String.join(" ", args) + ":\n" + buf);
        } finally {
            System.setOut(old);
        }
        return buf.toString();
    }

    @Test
    void tracedStridedRunIsAnalyzedIntoOneGlobalPatternAndStored() {
        Path traces = dir.resolve("traces"), db = dir.resolve("db"), data = dir.resolve("strided.dat");
        assertEquals(0, PdlaCommand.commandLine().execute("run", "-np", "4", "--trace", traces.toString(), "--timeout", "120",
                "--", StridedIo.class.getName(), data.toString(), "16384", "32"));
        String analysis = capture("analyze", traces.toString(), "--db", db.toString());
        assertTrue(analysis.contains("coverage: 100.0% of 256 requests"), analysis);
        assertTrue(analysis.contains("global[4 ranks 0..3]"), analysis);
        assertTrue(analysis.contains("queued for replication: 5"), analysis);
        String list = capture("patterns", "list", "--db", db.toString());
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(list.contains("STRIDE 64KiB x 32"), list);
        }
        assertTrue(list.contains("\tall\t"), list);
        String why = capture("why", traces.toString());
        assertTrue(why.contains("I/O mode: N-1"), why);
        assertTrue(why.contains(data.toString()), why);
    }
}
