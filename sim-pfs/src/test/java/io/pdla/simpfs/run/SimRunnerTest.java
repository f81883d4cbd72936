package io.pdla.simpfs.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdla.simpfs.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimRunnerTest {
    @TempDir
    Path dir;

    @Test
    void iorWithDefaultsRunsWriteThenReadAndWritesJson() throws Exception {
        SimOptions o = SimOptions.ior(16, 8L << 20, 256 << 10);
        RunReport report = SimRunner.run(o);
        assertEquals(2, report.phases().size());
        assertEquals(8, report.hservers());
        assertEquals(4, report.sservers());
        assertTrue(report.writeBandwidthMiBps() > 0 && report.readBandwidthMiBps() > 0);
        assertEquals(16 * (8L << 20), report.phases().get(1).bytesRead());
        Path json = dir.resolve("out.json");
        SimRunner.writeJson(report, json);
        JsonNode node = new ObjectMapper().readTree(json.toFile());
        assertEquals(report.readBandwidthMiBps(), node.get("readBandwidthMiBps").asDouble(), 1e-9);
        assertEquals(report.writeBandwidthMiBps(), node.get("writeBandwidthMiBps").asDouble(), 1e-9);
        assertEquals(12, node.get("phases").get(0).get("servers").size());
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        SimRunner.print(report, new PrintStream(text, true, StandardCharsets.UTF_8));
        assertTrue(text.toString(StandardCharsets.UTF_8).contains("read bandwidth"));
    }

    @Test
    void layoutAndSpaceChooseWhereDataGoes() {
        SimOptions o = SimOptions.ior(8, 4L << 20, 1 << 20).withLayout("1dv", "ssd").withPhases(false, true);
        RunReport report = SimRunner.run(o);
        assertEquals(1, report.phases().size());
        assertEquals(0, report.writeBandwidthMiBps());
        assertTrue(report.phases().get(0).servers().stream().allMatch(s -> s.kind().equals("ssd") || s.subRequests() == 0));
        assertTrue(report.layout().startsWith("1dv,region=4194304"), "1-DV regions default to one IOR block: " + report.layout());
    }

    @Test
    void filePerProcessSpreadsOneDvFilesOverTheServers() {
        RunReport report = SimRunner.run(SimOptions.ior(8, 4L << 20, 1 << 20).withLayout("1dv", "hdd").withPhases(true, false)
                .withFilePerProcess(true));
        assertTrue(report.phases().get(0).servers().stream().filter(s -> s.kind().equals("hdd")).allMatch(s -> s.bytesWritten() == 4L << 20),
                "each rank's file starts on its own server: " + report.phases().get(0).servers());
        assertEquals(0, report.phases().get(0).lockConflicts(), "one writer per file never conflicts");
    }

    @Test
    void badOptionsAreNamed() {
        ConfigException e = assertThrows(ConfigException.class, () -> SimRunner.run(SimOptions.ior(4, 1 << 20, 256 << 10).withLayout("1dh", "tape")));
        assertTrue(e.getMessage().contains("--space") && e.getMessage().contains("tape"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> SimRunner.run(SimOptions.ior(4, 1 << 20, 256 << 10).withLayout("2d:3", "hdd")));
        assertTrue(e.getMessage().contains("group size 3"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> SimRunner.run(SimOptions.ior(4, 1000, 256 << 10)));
        assertTrue(e.getMessage().contains("-b") && e.getMessage().contains("-t"), e.getMessage());
    }
}
