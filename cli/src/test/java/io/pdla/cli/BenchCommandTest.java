package io.pdla.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.pdla.cli.ConsoleCapture.bench;
import static io.pdla.cli.ConsoleCapture.capture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code pdla bench ior}: launcher options, IOR options passed through, exit status of the job; {@code pdla bench matrix}: its options. */
class BenchCommandTest {
    @TempDir
    Path dir;



    @Test
    void iorOptionsPassThroughToTheJob() throws Exception {
        Path json = dir.resolve("ior.json");
        int code = bench("ior", "-np", "2", "-w", "-r", "-R", "-b", "32k", "-t", "8k", "-s", "2", "-i", "2",
                "-o", dir.resolve("f").toString(), "--json", json.toString());
        assertEquals(0, code);
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertEquals(2, root.get("run").get("tasks").asInt(), "-np reached the job");
        assertEquals(32 * 1024, root.get("run").get("blockSize").asLong(), "-b reached the job");
        assertEquals(8 * 1024, root.get("run").get("transferSize").asLong(), "-t reached the job");
        assertEquals(8, root.get("points").size());
        assertTrue(root.get("writeRatio").asDouble() > 0 && root.get("readRatio").asDouble() > 0, root.toString());
        assertEquals(0, root.get("verification").get("badTransfers").asLong());
    }

    /** {@code pdla bench tile}: its own options reach the job, which writes and reads the tiles and checks every byte (exit 3 if not). */
    @Test
    void tileRunsTheJobWithItsOptionsAndChecksItsOptionsFirst() throws Exception {
        Path file = dir.resolve("tile.dat");
        assertEquals(0, bench("tile", "-np", "2", "--nx-tiles", "1", "--ny-tiles", "2", "--tile-x", "24", "--tile-y", "8",
                "--element-size", "4", "-i", "1", "--warmup", "0", "-o", file.toString(), "--hint", "romio_cb_write=enable"));
        assertEquals(2L * 24 * 8 * 4, Files.size(file), "a 1 x 2 grid of 24 x 8 tiles of 4-byte elements");
        assertTrue(capture(false, () -> bench("tile", "-np", "2", "--nx-tiles", "3"), 2).contains("must equal the 2 ranks"));
        assertTrue(capture(false, () -> bench("tile", "-np", "2", "-i", "0"), 2).contains("-i must be >= 1"));
        assertTrue(capture(false, () -> bench("tile", "-np", "0"), 2).contains("-np"));
    }

    @Test
    void openCloseRunsCollectiveOpensAndClosesAndRemovesItsFile() throws Exception {
        Path file = dir.resolve("oc.dat");
        assertEquals(0, bench("open-close", "-np", "3", "-i", "5", "--warmup", "1", "-o", file.toString()));
        assertFalse(Files.exists(file), "rank 0 removes the file at the end");
        assertEquals(0, bench("open-close", "-np", "2", "-i", "3", "--warmup", "0", "--amode", "rdonly", "-o", file.toString()));
        assertTrue(capture(false, () -> bench("open-close", "--amode", "append"), 2).contains("--amode"));
        assertTrue(capture(false, () -> bench("open-close", "-np", "0"), 2).contains("-np"));
    }

    @Test
    void badIorOptionExits2NamingTheOption() throws Exception {
        String err = capture(false, () -> bench("ior", "-np", "2", "-b", "16q"), 2);
        assertTrue(err.contains("'-b'") && err.contains("16q"), err);
        err = capture(false, () -> bench("ior", "-np", "2", "-b", "16k", "-t", "3k"), 2);
        assertTrue(err.contains("-t (transfer size)"), err);
    }

    @Test
    void launcherOptionsAreChecked() throws Exception {
        assertTrue(capture(false, () -> bench("ior", "-w"), 2).contains("-np"));
        assertTrue(capture(false, () -> bench("ior", "-np", "2", "--dev", "niodev"), 2).contains("--machines"));
        assertTrue(capture(false, () -> bench("ior", "-np", "2", "--dev", "smoke-signals"), 2).contains("unknown MPJ device"));
    }

    @Test
    void aFailingJobGivesANonZeroExit() {
        // reading a file that does not exist: an I/O error in the job (status 1), not a launcher problem
        assertEquals(1, bench("ior", "-np", "2", "-r", "-b", "16k", "-t", "16k", "-o", dir.resolve("absent").toString()));
        assertFalse(Files.exists(dir.resolve("absent")));
    }

    @Test
    void helpListsIorOptions() throws Exception {
        String out = capture(true, () -> bench("ior", "--help"), 0);
        assertTrue(out.contains("-np"), out);
        assertTrue(out.contains("block size") && out.contains("transfer size") && out.contains("--json"), out);
    }

    @Test
    void matrixOnlyRunsTheChosenWorkloadWithTheSixSchemeRows() throws Exception {
        String out = capture(true, () -> bench("matrix", "--quick", "--only", "ior.*8 procs", "--per-rank", "2m", "--stride-factor", "3"), 0);
        assertTrue(out.contains("**IOR fixed stride, 8 procs, 256k requests, stride 768k, 2m per proc**"), out);
        assertTrue(out.contains("bytes per process per request size: 2m"), out);
        for (String scheme : new String[]{"Original", "PD", "H-PDLA", "S-ORIG", "NS-PDLA", "S-PDLA"}) {
            assertTrue(out.lines().anyMatch(l -> l.matches("\\| " + java.util.regex.Pattern.quote(scheme) + " \\| [0-9.]+ \\| [0-9.]+ \\|.*")),
                    "a row for " + scheme + ":\n" + out);
        }
    }

    @Test
    void badMatrixOptionsExit2NamingTheOptionAndValue() throws Exception {
        String err = capture(false, () -> bench("matrix", "--quick", "--per-rank", "12q"), 2);
        assertTrue(err.contains("--per-rank") && err.contains("12q"), err);
        err = capture(false, () -> bench("matrix", "--quick", "--per-rank", "0"), 2);
        assertTrue(err.contains("--per-rank must be at least 1 byte, was 0"), err);
        err = capture(false, () -> bench("matrix", "--quick", "--stride-factor", "0.5"), 2);
        assertTrue(err.contains("--stride-factor") && err.contains("0.5"), err);
        err = capture(false, () -> bench("matrix", "--quick", "--only", "(unclosed"), 2);
        assertTrue(err.contains("--only") && err.contains("(unclosed"), err);
        err = capture(false, () -> bench("matrix", "--quick", "--only", "LANL"), 2);
        assertTrue(err.contains("--only 'LANL' matches no workload of --quick"), err);
        err = capture(false, () -> bench("matrix", "--fast"), 2);
        assertTrue(err.contains("--fast"), err);
    }

    @Test
    void redirectedBackendReportsRedirectsOverheadRatio() throws Exception {
        Path json = dir.resolve("redirected.json");
        assertEquals(0, bench("ior", "-np", "2", "-w", "-r", "-R", "-b", "64k", "-t", "16k", "-s", "2", "-i", "2", "--no-baseline",
                "--redirected", dir.resolve("catalog").toString(), "-o", dir.resolve("r").toString(), "--json", json.toString()));
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertTrue(root.get("run").get("backends").toString().contains("mpiio-redirect"), root.get("run").toString());
        assertTrue(root.get("redirectedWriteRatio").asDouble() > 0 && root.get("redirectedReadRatio").asDouble() > 0, root.toString());
        assertEquals(0, root.get("verification").get("badTransfers").asLong());
    }
}
