package io.pdla.cli;

import io.pdla.hosts.HostsExtension;
import io.pdla.hosts.NamespaceHosts;
import io.pdla.mpiio.launch.MpjHome;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the multi-host tests share: running pdla commands on a host, and reading what the ranks said. */
final class ClusterJobs {
    private static final Pattern HOST = Pattern.compile("HOST rank (\\d+) (\\S+) (\\d+)");

    private ClusterJobs() {
    }

    /** {@code pdla ARGS} as a process of its own (this test JVM's classes), to be run on a host. */
    static List<String> pdla(String... args) {
        List<String> c = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dpdla.mpjHome=" + MpjHome.locate(), "-cp", System.getProperty("java.class.path"), PdlaCommand.class.getName()));
        c.addAll(List.of(args));
        return c;
    }

    /** {@code pdla ARGS} with PDLA_* variables set for it (pdla hands them to the ranks on every host). */
    static List<String> pdla(Map<String, String> env, String... args) {
        List<String> c = new ArrayList<>(List.of("env"));
        env.forEach((k, v) -> c.add(k + "=" + v));
        c.addAll(pdla(args));
        return c;
    }

    static Path machines(HostsExtension hosts, Path dir, int... which) throws java.io.IOException {
        StringBuilder b = new StringBuilder();
        for (int i : which) b.append(hosts.host(i).name()).append('\n');
        return Files.writeString(dir.resolve("machines-" + which.length + "-" + System.nanoTime()), b);
    }

    /** rank -> {hostname, pid} from the ranks' HOST lines. */
    static Map<Integer, String[]> placement(String output) {
        Map<Integer, String[]> m = new HashMap<>();
        Matcher x = HOST.matcher(output);
        while (x.find()) m.put(Integer.parseInt(x.group(1)), new String[]{x.group(2), x.group(3)});
        return m;
    }

    /** Two ranks a host, in host order (MPJ places ranks in blocks over the machines file). */
    static void assertTwoRanksPerHost(String output, HostsExtension hosts, int ranks) {
        Map<Integer, String[]> at = placement(output);
        assertEquals(ranks, at.size(), output);
        for (int r = 0; r < ranks; r++) assertEquals(hosts.host(r / 2 + 1).name(), at.get(r)[0], "host of rank " + r + "\n" + output);
    }

    static void assertVerified(String output, int ranks, long bytesEach) {
        for (int r = 0; r < ranks; r++) {
            assertTrue(output.contains("VERIFIED rank " + r + " " + bytesEach), "rank " + r + " did not verify its bytes:\n" + output);
        }
    }

    /** Every byte of a strided file written by HostsIo. */
    static void assertFileBytes(Path file, long length) throws java.io.IOException {
        byte[] b = Files.readAllBytes(file);
        assertEquals(length, b.length, file.toString());
        for (int i = 0; i < b.length; i++) {
            if (b[i] != io.pdla.cli.programs.HostsIo.value(i)) throw new AssertionError("byte " + i + " of " + file + " is wrong");
        }
    }

    /** Processes running in a host's namespace (none once pdla stopped what it started there). */
    static List<String> processesOn(NamespaceHosts.Host h) throws Exception {
        Process p = new ProcessBuilder("ip", "netns", "pids", h.name()).redirectErrorStream(true).start();
        assertTrue(p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS));
        String out = new String(p.getInputStream().readAllBytes()).strip();
        return out.isEmpty() ? List.of() : List.of(out.split("\\s+"));
    }

    /** Waits (at most 30 s) until something listens on {@code port} on host {@code h}, as /proc/net/tcp there says. */
    static void awaitListening(NamespaceHosts.Host h, int port, Process p) throws Exception {
        String hexPort = String.format(":%04X ", port);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            assertTrue(p.isAlive(), "exited before listening on " + port);
            Process cat = new ProcessBuilder("ip", "netns", "exec", h.name(), "cat", "/proc/net/tcp", "/proc/net/tcp6").redirectErrorStream(true).start();
            assertTrue(cat.waitFor(20, java.util.concurrent.TimeUnit.SECONDS));
            for (String line : new String(cat.getInputStream().readAllBytes()).split("\n")) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 3 && f[1].endsWith(hexPort.trim()) && f[3].equals("0A")) return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("nothing listens on port " + port + " of " + h.name() + " after 30 s");
    }

    /** Bytes a host's eth0 has received so far. */
    static long receivedBytes(NamespaceHosts.Host h) throws Exception {
        return counter(h, "rx_bytes");
    }

    private static long counter(NamespaceHosts.Host h, String name) throws Exception {
        Process p = new ProcessBuilder("ip", "netns", "exec", h.name(), "cat", "/sys/class/net/eth0/statistics/" + name).redirectErrorStream(true).start();
        assertTrue(p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS));
        return Long.parseLong(new String(p.getInputStream().readAllBytes()).strip());
    }
}
