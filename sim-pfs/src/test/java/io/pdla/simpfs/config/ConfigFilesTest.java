package io.pdla.simpfs.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigFilesTest {
    @TempDir
    Path dir;

    @Test
    void aJsonFileOverridesOnlyWhatItNames() throws Exception {
        Path f = dir.resolve("c.json");
        Files.writeString(f, "{\"hservers\": 16, \"hdd\": {\"rpm\": 5400}, \"network\": {\"linkMBps\": 1170}}");
        SimPfsConfig c = ConfigFiles.load(f);
        assertEquals(16, c.hservers());
        assertEquals(SimPfsConfig.DEFAULT.sservers(), c.sservers());
        assertEquals(5400, c.hdd().rpm());
        assertEquals(HddParams.DEFAULT.fullStrokeMs(), c.hdd().fullStrokeMs());
        assertEquals(1170, c.network().linkMBps());
        Path copy = dir.resolve("copy.json");
        ConfigFiles.write(c, copy);
        assertEquals(c, ConfigFiles.load(copy));
    }

    @Test
    void aPropertiesFileUsesDottedKeys() throws Exception {
        Path f = dir.resolve("c.properties");
        Files.writeString(f, "sservers=2\nssd.writeMBps=150\ndefaultLayout=2d:2\nextentLocks=false\n");
        SimPfsConfig c = ConfigFiles.load(f);
        assertEquals(2, c.sservers());
        assertEquals(150, c.ssd().writeMBps());
        assertEquals("2d:2", c.defaultLayout());
        assertEquals(false, c.extentLocks());
    }

    @Test
    void badSettingsAreNamedWithTheirFile() throws Exception {
        Path f = dir.resolve("bad.json");
        Files.writeString(f, "{\"hdd\": {\"rpms\": 5400}}");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigFiles.load(f));
        assertTrue(e.getMessage().contains("bad.json") && e.getMessage().contains("hdd.rpms"), e.getMessage());

        Files.writeString(f, "{\"hdd\": {\"rpm\": -1}}");
        e = assertThrows(ConfigException.class, () -> ConfigFiles.load(f));
        assertTrue(e.getMessage().contains("hdd.rpm") && e.getMessage().contains("-1"), e.getMessage());

        Path p = dir.resolve("bad.properties");
        Files.writeString(p, "network.linkMBps=fast\n");
        e = assertThrows(ConfigException.class, () -> ConfigFiles.load(p));
        assertTrue(e.getMessage().contains("bad.properties") && e.getMessage().contains("network.linkMBps") && e.getMessage().contains("fast"), e.getMessage());

        Files.writeString(p, "defaultLayout=2d\n");
        e = assertThrows(ConfigException.class, () -> ConfigFiles.load(p));
        assertTrue(e.getMessage().contains("defaultLayout") && e.getMessage().contains("group size"), e.getMessage());

        Files.writeString(f, "{\"hservers\": 0, \"sservers\": 0}");
        e = assertThrows(ConfigException.class, () -> ConfigFiles.load(f));
        assertTrue(e.getMessage().contains("at least one server"), e.getMessage());

        e = assertThrows(ConfigException.class, () -> ConfigFiles.load(dir.resolve("missing.json")));
        assertTrue(e.getMessage().contains("missing.json"), e.getMessage());
    }
}
