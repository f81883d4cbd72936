package io.pdla.cli;

import io.pdla.cli.programs.StampedIo;
import io.pdla.hosts.HostsExtension;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.pdla.cli.ClusterJobs.assertVerified;
import static io.pdla.cli.ClusterJobs.machines;
import static io.pdla.cli.ClusterJobs.pdla;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Hosts that die (HostsExtension.crash: every process SIGKILLed, link down) in the middle of the PDLA loop: the
 * replicator daemon's host in the middle of a pass, and a rank's host in the middle of a write session. What is
 * asserted is what docs/cluster.md says happens.
 */
@Tag("heavy")
class ClusterFailureTest {
    @RegisterExtension
    static final HostsExtension HOSTS = new HostsExtension(4);

    private static final int BLOCK = 16384, SEGMENTS = 16, NP = 2;
    private static final Pattern REDIRECT = Pattern.compile("REDIRECT rank (\\d+) fromReplica=(\\d+) mixed=(\\d+) fromOriginal=(\\d+)");

    @TempDir
    Path dir;

    private HostsExtension.Result on(int host, String log, List<String> cmd) throws Exception {
        return HOSTS.run(HOSTS.host(host), cmd, dir.resolve(log), 150);
    }

    private static List<String> job(Path machines, List<String> extra, Path data) {
        List<String> a = new ArrayList<>(List.of("run", "-np", "" + NP, "--dev", "niodev", "--machines", machines.toString(), "--timeout", "120"));
        a.addAll(extra);
        a.addAll(List.of("--", StampedIo.class.getName(), data.toString(), "" + BLOCK, "" + SEGMENTS));
        return a;
    }

    /** Base bytes, a traced run 1 on host 1 and its patterns: what both tests start from. */
    private void runOneAndAnalyze(Path data, Path traces, Path patterns) throws Exception {
        byte[] b = new byte[NP * BLOCK * SEGMENTS];
        for (int i = 0; i < b.length; i++) b[i] = StampedIo.base(i);
        Files.write(data, b);
        HostsExtension.Result run1 = on(1, "run1.log", pdla(Map.of("PDLA_TEST_PHASE", "read", "PDLA_TEST_EXPECT", "base"),
                job(machines(HOSTS, dir, 1), List.of("--trace", traces.toString()), data).toArray(String[]::new)));
        assertEquals(0, run1.status(), run1.output());
        assertEquals(0, on(1, "analyze.log", pdla("analyze", traces.toString(), "--db", patterns.toString())).status());
    }

    private HostsExtension.Result readOnHost1(Path data, Path catalog, String expect, String log) throws Exception {
        HostsExtension.Result r = on(1, log, pdla(Map.of("PDLA_TEST_PHASE", "read", "PDLA_TEST_EXPECT", expect, "PDLA_CATALOG", catalog.toString()),
                job(machines(HOSTS, dir, 1), List.of("--interceptors", "redirect"), data).toArray(String[]::new)));
        assertEquals(0, r.status(), "a read on host 1 (" + expect + " expected) failed:\n" + r.output());
        assertVerified(r.output(), NP, (long) BLOCK * SEGMENTS);
        return r;
    }

    /**
     * The daemon's host dies while a (throttled) pass copies a replica: nothing half-built is ever served, the
     * catalog opens again at once (the dead process's lock went with it), and the same daemon command on another
     * host finishes the work, after which run 2 is served from replicas.
     */
    @Test
    void daemonHostDiesMidPassAndADaemonOnAnotherHostTakesOver() throws Exception {
        Path data = dir.resolve("d.dat"), traces = dir.resolve("traces"), patterns = dir.resolve("patterns"), catalog = dir.resolve("catalog");
        runOneAndAnalyze(data, traces, patterns);
        Process daemon = HOSTS.start(HOSTS.host(4), pdla("daemon", "--db", catalog.toString(), "--patterns", patterns.toString(), "--rate", "64k"),
                dir.resolve("daemon4.log"));
        Path replicas = dir.resolve(".pdla-replicas");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!hasFiles(replicas)) {
            assertTrue(daemon.isAlive(), "daemon exited: " + Files.readString(dir.resolve("daemon4.log")));
            if (System.nanoTime() > deadline) fail("no replica file appeared within 60 s: " + Files.readString(dir.resolve("daemon4.log")));
            Thread.sleep(20);
        }
        HOSTS.crash(HOSTS.host(4));
        assertTrue(daemon.waitFor(10, TimeUnit.SECONDS));
        try {
            // before anyone cleans up: a redirected run reads every byte right, from whatever was published
            readOnHost1(data, catalog, "base", "between.log");
            HostsExtension.Result takeOver = on(3, "daemon3.log", pdla("daemon", "--once", "--db", catalog.toString(), "--patterns", patterns.toString()));
            assertEquals(0, takeOver.status(), takeOver.output());
            HostsExtension.Result run2 = readOnHost1(data, catalog, "base", "run2.log");
            assertEquals(NP, fromReplicas(run2.output()), "run 2 served from the replicas the second daemon finished:\n" + run2.output());
            try (Stream<Path> s = Files.walk(replicas)) {
                List<Path> tmp = s.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
                assertTrue(tmp.isEmpty(), "half-built replicas of the dead pass left behind: " + tmp);
            }
        } finally {
            HOSTS.restore(HOSTS.host(4));
        }
    }

    /**
     * A rank's host dies while its job holds the file open for writing (its writes went into its DIRTY replica).
     * Reads through the shim still see the newest bytes; no other host can tell the session's process is dead, so
     * `pdla sync` keeps the replicas DIRTY and says who still writes; once the host is declared down
     * (`--host-down`), the session ends and every write the dead ranks had completed reaches the original.
     */
    @Test
    void rankHostDiesMidWriteSession() throws Exception {
        Path data = dir.resolve("w.dat"), traces = dir.resolve("traces"), patterns = dir.resolve("patterns"), catalog = dir.resolve("catalog");
        runOneAndAnalyze(data, traces, patterns);
        assertEquals(0, on(4, "daemon.log", pdla("daemon", "--once", "--db", catalog.toString(), "--patterns", patterns.toString())).status());

        Path log = dir.resolve("writer.log");
        HOSTS.start(HOSTS.host(2), pdla(Map.of("PDLA_TEST_PHASE", "stamp", "PDLA_TEST_HALF", "0", "PDLA_TEST_HANG", "100", "PDLA_CATALOG", catalog.toString()),
                job(machines(HOSTS, dir, 2), List.of("--interceptors", "redirect"), data).toArray(String[]::new)), log);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!(Files.readString(log).contains("HANGING rank 0") && Files.readString(log).contains("HANGING rank 1"))) {
            if (System.nanoTime() > deadline) fail("the writers never got to hold the file: " + Files.readString(log));
            Thread.sleep(50);
        }
        List<Long> acked = new ArrayList<>();
        Matcher a = Pattern.compile("ACK rank \\d+ (\\d+)").matcher(Files.readString(log));
        while (a.find()) acked.add(Long.parseLong(a.group(1)));
        assertEquals(NP * SEGMENTS / 2, acked.size(), Files.readString(log));
        HOSTS.crash(HOSTS.host(2));
        try {
            assertTrue(listing(catalog).stream().allMatch(l -> l.startsWith("DIRTY")), listing(catalog).toString());
            readOnHost1(data, catalog, "half0", "during.log");   // no stale byte served while the session dangles

            HostsExtension.Result sync = on(4, "sync1.log", pdla("sync", data.toString(), "--db", catalog.toString()));
            assertEquals(0, sync.status(), sync.output());
            assertTrue(sync.output().contains("on " + HOSTS.host(2).name() + " still writes"), sync.output());
            assertTrue(listing(catalog).stream().allMatch(l -> l.startsWith("DIRTY")), "kept DIRTY: " + listing(catalog));
            assertEquals(StampedIo.base(acked.get(0)), Files.readAllBytes(data)[(int) (long) acked.get(0)], "not yet written back");

            HostsExtension.Result down = on(4, "sync2.log", pdla("sync", data.toString(), "--db", catalog.toString(), "--host-down", HOSTS.host(2).name()));
            assertEquals(0, down.status(), down.output());
            assertTrue(down.output().contains("(host declared down)"), down.output());
            byte[] original = Files.readAllBytes(data);
            for (long off : acked) {
                for (int i = 0; i < BLOCK; i++) {
                    if (original[(int) off + i] != StampedIo.stamped(off + i)) fail("acknowledged write at " + off + " lost (byte " + (off + i) + ")\n" + down.output());
                }
            }
            assertFalse(listing(catalog).stream().anyMatch(l -> l.startsWith("DIRTY")), listing(catalog).toString());
            readOnHost1(data, catalog, "half0", "after.log");
        } finally {
            HOSTS.restore(HOSTS.host(2));
        }
    }

    private static boolean hasFiles(Path dir) throws java.io.IOException {
        if (!Files.isDirectory(dir)) return false;
        try (Stream<Path> s = Files.walk(dir)) {
            return s.anyMatch(Files::isRegularFile);
        }
    }

    private static int fromReplicas(String output) {
        Matcher x = REDIRECT.matcher(output);
        int ranks = 0;
        while (x.find()) {
            if (Integer.parseInt(x.group(2)) == SEGMENTS && x.group(4).equals("0")) ranks++;
        }
        return ranks;
    }

    private static List<String> listing(Path catalog) {
        StringWriter out = new StringWriter();
        picocli.CommandLine list = PdlaCommand.commandLine();
        list.setOut(new PrintWriter(out));
        assertEquals(0, list.execute("replicas", "list", "--db", catalog.toString()));
        List<String> rows = out.toString().lines().filter(l -> l.contains("|")).toList();
        assertTrue(!rows.isEmpty(), out.toString());
        return rows;
    }
}
