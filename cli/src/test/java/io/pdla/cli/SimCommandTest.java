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
    void lockConflictsAndClientsPerServerPerCallAreReportedInTextAndJson() throws Exception {
        Path json = dir.resolve("locks.json");
        Run r = run("--workload", "ior", "-np", "16", "-b", "1m", "-t", "64k", "-w", "--json", json.toString());
        assertEquals(0, r.exitCode(), r.err());
        RunReport expected = SimRunner.run(SimOptions.ior(16, 1L << 20, 64 << 10).withPhases(true, false));
        var phase = expected.phases().get(0);
        assertTrue(r.out().contains("at most " + phase.maxLockConflictsPerServerPerCall() + " lock conflicts, at most "
                + phase.maxClientsPerServerPerCall() + " clients"), r.out());
        JsonNode p = new ObjectMapper().readTree(json.toFile()).get("phases").get(0);
        assertEquals(phase.calls(), p.get("calls").asLong());
        assertEquals(phase.maxClientsPerServerPerCall(), p.get("maxClientsPerServerPerCall").asInt());
        assertTrue(p.get("maxClientsPerServerPerCall").asInt() > 1, "16 ranks share the servers of one file");
        assertEquals(phase.servers().get(0).lockConflicts(), p.get("servers").get(0).get("lockConflicts").asLong());
        assertEquals(phase.servers().get(0).maxClientsPerCall(), p.get("servers").get(0).get("maxClientsPerCall").asInt());
    }

    @Test
    void aBadSpaceIsAUsageErrorNamingTheOption() {
        Run r = run("-np", "4", "--space", "tape");
        assertNotEquals(0, r.exitCode());
        assertTrue(r.err().contains("--space") && r.err().contains("tape"), r.err());
    }
}
