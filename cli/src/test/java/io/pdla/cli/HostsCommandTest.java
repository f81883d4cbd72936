package io.pdla.cli;

import io.pdla.hosts.HostsExtension;
import io.pdla.hosts.NamespaceHosts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `pdla hosts up`, `exec` and `down` as a user types them. */
class HostsCommandTest {
    @TempDir
    Path dir;

    @Test
    void upExecDown() throws Exception {
        NamespaceHosts.checkSupport();   // fails loudly on a machine without namespaces
        Path state = dir.resolve("hosts.state"), machines = dir.resolve("machines");
        try {
            assertEquals(0, PdlaCommand.commandLine().execute("hosts", "up", "2", "--prefix", HostsExtension.PREFIX, "--rate", "500mbit",
                    "--state", state.toString(), "--machines", machines.toString()));
            NamespaceHosts hosts = NamespaceHosts.load(state);
            assertEquals(List.of(hosts.host(1).name(), hosts.host(2).name()), Files.readAllLines(machines));
            assertEquals("500mbit", hosts.rate());
            // a second `up` on the same state file would lose track of the first hosts: refused
            assertEquals(2, PdlaCommand.commandLine().execute("hosts", "up", "1", "--prefix", HostsExtension.PREFIX, "--state", state.toString(),
                    "--machines", dir.resolve("m2").toString()));
            Path out = dir.resolve("out");
            assertEquals(0, PdlaCommand.commandLine().execute("hosts", "exec", "--state", state.toString(), "2", "--",
                    "sh", "-c", "hostname > " + out + "; getent hosts " + hosts.host(1).name() + " >> " + out));
            List<String> lines = Files.readAllLines(out);
            assertEquals(hosts.host(2).name(), lines.get(0));
            assertTrue(lines.get(1).startsWith(hosts.host(1).address() + " "), lines.toString());
            assertEquals(0, PdlaCommand.commandLine().execute("hosts", "down", "--state", state.toString()));
            assertFalse(Files.exists(state));
            for (NamespaceHosts.Host h : hosts.hosts()) assertFalse(Files.exists(Path.of("/var/run/netns", h.name())), h.name());
            assertEquals(2, PdlaCommand.commandLine().execute("hosts", "down", "--state", state.toString()));
        } finally {
            if (Files.exists(state)) NamespaceHosts.load(state).close();
        }
    }
}
