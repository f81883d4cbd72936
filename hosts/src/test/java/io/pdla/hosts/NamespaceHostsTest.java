package io.pdla.hosts;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** Namespace hosts as the multi-host tests and `pdla hosts` use them: reachable from each other and from nothing else. */
class NamespaceHostsTest {
    @RegisterExtension
    static final HostsExtension HOSTS = new HostsExtension(3);

    @TempDir
    Path dir;

    @Test
    void hostsHaveTheirOwnNamesAddressesAndOnlyTheirSubnet() throws Exception {
        NamespaceHosts h = HOSTS.hosts();
        assertTrue(h.subnet().matches("198\\.1[89]\\.\\d+\\.0/24"), h.subnet());
        for (NamespaceHosts.Host host : h.hosts()) {
            String routes = sh(List.of("ip", "-n", host.name(), "-4", "route", "show", "table", "all"));
            assertFalse(routes.contains("default"), "no default route on " + host.name() + ":\n" + routes);
            String subnetPrefix = h.subnet().replace("/24", "");
            for (String line : routes.strip().split("\n")) {
                if (line.startsWith("local") || line.startsWith("broadcast") || line.contains("127.0.0.")) continue;
                assertTrue(line.startsWith(subnetPrefix + "/24"), "only the test subnet is routed on " + host.name() + ": " + line);
            }
            HostsExtension.Result ns = HOSTS.run(host, java("netns"), dir.resolve("ns-" + host.index()), 60);
            assertTrue(ns.output().contains("NETNS " + host.name()), "a process on a host knows which: " + ns.output());
            HostsExtension.Result who = HOSTS.run(host, java("whoami"), dir.resolve("who-" + host.index()), 60);
            assertEquals(0, who.status(), who.output());
            assertTrue(who.output().contains("NAME " + host.name() + " " + host.address()), who.output());
        }
    }

    @Test
    void rootNamespaceHasNoAddressOrRouteOnTheTestNet() throws Exception {
        assertEquals(null, NamespaceHosts.currentNamespace(), "the test JVM runs in the root namespace, which has no name");
        String root = sh(List.of("ip", "-4", "route", "show", "table", "all")) + sh(List.of("ip", "-4", "addr"));
        String net = HOSTS.hosts().subnet().replace(".0/24", ".");
        assertFalse(root.contains(net), "the root namespace knows " + net + "*:\n" + root);
    }

    @Test
    void hostsReachEachOtherAndNothingOutside() throws Exception {
        NamespaceHosts.Host h1 = HOSTS.host(1), h2 = HOSTS.host(2);
        Process server = HOSTS.start(h2, java("serve", "5999"), dir.resolve("serve.log"));
        awaitLine(dir.resolve("serve.log"), "LISTENING", server);
        HostsExtension.Result send = HOSTS.run(h1, java("send", h2.name(), "5999", "100000"), dir.resolve("send.log"), 60);
        assertTrue(send.output().contains("SENT 100000"), send.output());
        assertTrue(server.waitFor(20, TimeUnit.SECONDS));
        assertTrue(Files.readString(dir.resolve("serve.log")).contains("RECEIVED 100000"));
        // an address outside the subnet (the machine's own gateway range in the notes; any would do) is unreachable at once
        HostsExtension.Result out = HOSTS.run(h1, java("send", "192.0.2.1", "80", "1"), dir.resolve("out.log"), 60);
        assertTrue(out.output().contains("FAILED") && out.output().contains("unreachable"), out.output());
    }

    @Test
    void linksAreShapedToTheRate() throws Exception {
        try (NamespaceHosts slow = NamespaceHosts.up(HostsExtension.PREFIX, 2, "40mbit", "0ms")) {
            String qdisc = sh(List.of("tc", "-n", slow.host(1).name(), "qdisc", "show", "dev", "eth0"));
            assertTrue(qdisc.contains("tbf") && qdisc.contains("40Mbit"), qdisc);
            List<Process> procs = new ArrayList<>();
            try {
                Process server = new ProcessBuilder(slow.command(slow.host(2), java("serve", "5998"))).redirectErrorStream(true)
                        .redirectOutput(dir.resolve("slow-serve.log").toFile()).start();
                procs.add(server);
                awaitLine(dir.resolve("slow-serve.log"), "LISTENING", server);
                Process send = new ProcessBuilder(slow.command(slow.host(1), java("send", slow.host(2).name(), "5998", Long.toString(4_000_000))))
                        .redirectErrorStream(true).redirectOutput(dir.resolve("slow-send.log").toFile()).start();
                procs.add(send);
                assertTrue(send.waitFor(60, TimeUnit.SECONDS), "send did not finish");
                String out = Files.readString(dir.resolve("slow-send.log"));
                assertTrue(out.contains("SENT 4000000"), out);
                long nanos = Long.parseLong(out.substring(out.indexOf("SENT ")).split("\\s+")[2]);
                // 32 Mbit at 40 Mbit/s: 0.8 s; unshaped veths move it in milliseconds
                assertTrue(nanos >= 600_000_000L, "4 MB crossed a 40 Mbit/s link in " + nanos / 1_000_000 + " ms");
            } finally {
                procs.forEach(HostsExtension::stop);
            }
        }
    }

    @Test
    void downRemovesExactlyWhatUpMadeAndTheStateFileSaysSo() throws Exception {
        Path state = dir.resolve("hosts.state");
        NamespaceHosts made = NamespaceHosts.up(HostsExtension.PREFIX, 2, "1gbit", "0ms");
        try {
            made.save(state);
            NamespaceHosts loaded = NamespaceHosts.load(state);
            assertEquals(made.hosts(), loaded.hosts());
            loaded.close();
            for (NamespaceHosts.Host h : made.hosts()) {
                assertFalse(Files.exists(Path.of("/var/run/netns", h.name())), h.name() + " still there");
                assertFalse(Files.exists(Path.of("/etc/netns", h.name())), "/etc/netns/" + h.name() + " still there");
            }
            assertFalse(Files.exists(Path.of("/var/run/netns", made.switchNamespace())));
            // the fixture's own hosts are untouched
            assertTrue(Files.exists(Path.of("/var/run/netns", HOSTS.host(1).name())));
        } finally {
            made.close();
        }
        // a state file naming anything but its own run's hosts is refused, so `down` never deletes a foreign namespace
        String text = Files.readString(state).replace(made.host(1).name(), HOSTS.host(1).name());
        Files.writeString(state, text);
        assertThrows(IOException.class, () -> NamespaceHosts.load(state));
    }

    @Test
    void sweepRemovesDeadRunsOfItsPrefixOnly() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        String dead = HostsExtension.PREFIX + gone.pid() + "-zz1-h1";
        String alive = HostsExtension.PREFIX + ProcessHandle.current().pid() + "-zz2-h1";
        try {
            sh(List.of("ip", "netns", "add", dead));
            sh(List.of("ip", "netns", "add", alive));
            Files.createDirectories(Path.of("/etc/netns", dead));
            List<String> swept = NamespaceHosts.sweepStale(HostsExtension.PREFIX);
            assertTrue(swept.contains(dead), swept.toString());
            assertFalse(swept.contains(alive), swept.toString());
            assertFalse(Files.exists(Path.of("/var/run/netns", dead)));
            assertFalse(Files.exists(Path.of("/etc/netns", dead)));
            assertTrue(Files.exists(Path.of("/var/run/netns", alive)));
            assertTrue(Files.exists(Path.of("/var/run/netns", HOSTS.host(1).name())), "a live run's hosts stay");
        } finally {
            new ProcessBuilder("ip", "netns", "del", alive).start().waitFor(10, TimeUnit.SECONDS);
            new ProcessBuilder("ip", "netns", "del", dead).start().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void badRatesAndDelaysAreRefusedBeforeAnythingIsMade() {
        assertThrows(IllegalArgumentException.class, () -> NamespaceHosts.up(HostsExtension.PREFIX, 2, "fast", "0ms"));
        assertThrows(IllegalArgumentException.class, () -> NamespaceHosts.up(HostsExtension.PREFIX, 2, "1gbit", "soon"));
        assertThrows(IllegalArgumentException.class, () -> NamespaceHosts.up(HostsExtension.PREFIX, 0, "1gbit", "0ms"));
    }

    /** Not root: the fixture's check refuses, naming what is missing (a test class using it then fails, never skips). */
    @Test
    void withoutRootTheCheckFailsSayingWhy() throws Exception {
        Path readable = readableClassPath();
        try {
            List<String> cmd = new ArrayList<>(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPathIn(readable),
                    Probe.class.getName(), "support"));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(out.contains("UNSUPPORTED network-namespace hosts are not available here: missing root"), out);
        } finally {
            try (java.util.stream.Stream<Path> all = Files.walk(readable)) {
                all.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /**
     * The test's class path copied under /tmp where user nobody can read it: the checkout may sit in a directory other
     * users cannot enter (a clone under /root), and its own files' modes are not this test's to widen.
     */
    private static Path readableClassPath() throws IOException {
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "pdla-hosts-cp-");
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        int i = 0;
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path from = Path.of(e);
            if (e.isBlank() || !Files.exists(from)) continue;
            Path to = dir.resolve(String.format("%03d-%s", i++, from.getFileName()));
            try (java.util.stream.Stream<Path> all = Files.walk(from)) {
                for (Path f : all.toList()) {
                    Path t = Files.isDirectory(from) ? to.resolve(from.relativize(f).toString()) : to;
                    if (Files.isDirectory(f)) Files.createDirectories(t);
                    else Files.copy(f, t);
                    Files.setPosixFilePermissions(t, java.nio.file.attribute.PosixFilePermissions.fromString(Files.isDirectory(f) ? "rwxr-xr-x" : "rw-r--r--"));
                }
            }
        }
        return dir;
    }

    private static String classPathIn(Path dir) throws IOException {
        try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
            return String.join(java.io.File.pathSeparator, entries.sorted().map(Path::toString).toList());
        }
    }

    @Test
    void subnetOverlapCheck() {
        long[] machine = NamespaceHosts.cidr("198.18.0.0/15");
        long[] mine = NamespaceHosts.cidr("198.19.4.0/24");
        assertTrue(NamespaceHosts.overlaps(machine[0], machine[1], mine[0], mine[1]));
        long[] other = NamespaceHosts.cidr("192.0.2.0/24");
        assertFalse(NamespaceHosts.overlaps(other[0], other[1], mine[0], mine[1]));
        long[] host = NamespaceHosts.cidr("198.19.4.7");
        assertTrue(NamespaceHosts.overlaps(host[0], host[1], mine[0], mine[1]));
    }

    private static List<String> java(String... args) {
        List<String> c = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Probe.class.getName()));
        c.addAll(List.of(args));
        return c;
    }

    private static String sh(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(cmd + " did not finish");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), cmd + ": " + out);
        return out;
    }

    static void awaitLine(Path log, String text, Process p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).contains(text)) return;
            assertTrue(p.isAlive(), "exited before '" + text + "': " + (Files.exists(log) ? Files.readString(log) : ""));
            Thread.sleep(50);
        }
        fail("no '" + text + "' within 30 s");
    }
}
