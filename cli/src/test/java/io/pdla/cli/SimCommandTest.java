package io.pdla.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdla.simpfs.run.RunReport;
import io.pdla.simpfs.run.SimOptions;
import io.pdla.simpfs.run.SimRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimCommandTest {
    @TempDir
    Path dir;

    private record Run(int exitCode, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cmd = new CommandLine(new SimCommand());
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        return new Run(cmd.execute(args), out.toString(), err.toString());
    }

    @Test
    void iorReadAndWriteWithJsonMatchTheRunner() throws Exception {
        Path json = dir.resolve("sim.json");
        Run r = run("--workload", "ior", "-np", "16", "-b", "8m", "-t", "256k", "-w", "-r", "--layout", "2d:2", "--json", json.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("write bandwidth") && r.out().contains("read bandwidth"), r.out());
        JsonNode node = new ObjectMapper().readTree(json.toFile());
        RunReport expected = SimRunner.run(SimOptions.ior(16, 8L << 20, 256 << 10).withLayout("2d:2", "hdd").withPhases(true, true));
        assertEquals(expected.readBandwidthMiBps(), node.get("readBandwidthMiBps").asDouble(), 1e-9);
        assertEquals(expected.writeBandwidthMiBps(), node.get("writeBandwidthMiBps").asDouble(), 1e-9);
        assertTrue(node.get("readBandwidthMiBps").asDouble() > 0);
    }

    @Test
    void aBadSpaceIsAUsageErrorNamingTheOption() {
        Run r = run("-np", "4", "--space", "tape");
        assertNotEquals(0, r.exitCode());
        assertTrue(r.err().contains("--space") && r.err().contains("tape"), r.err());
    }
}
