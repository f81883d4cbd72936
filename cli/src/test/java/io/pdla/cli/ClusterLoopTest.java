package io.pdla.cli;

import io.pdla.cli.programs.StampedIo;
import io.pdla.hosts.HostsExtension;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.pdla.cli.ClusterJobs.assertTwoRanksPerHost;
import static io.pdla.cli.ClusterJobs.assertVerified;
import static io.pdla.cli.ClusterJobs.machines;
import static io.pdla.cli.ClusterJobs.pdla;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PDLA loop across namespace hosts: jobs on hosts 1-3 (launched on host 1), the replicator daemon on host 4,
 * the pattern database and the replica catalog on the shared file system, each opened by one process at a time
 * (docs/cluster.md). Run 2 is served from replicas; two jobs on two hosts writing the same replicated file at once
 * lose nothing and are served no stale byte.
 */
@Tag("heavy")
class ClusterLoopTest {
    @RegisterExtension
    static final HostsExtension HOSTS = new HostsExtension(4);

    private static final int BLOCK = 16384, SEGMENTS = 16;
    private static final Pattern REDIRECT = Pattern.compile("REDIRECT rank (\\d+) fromReplica=(\\d+) mixed=(\\d+) fromOriginal=(\\d+)");
    private static final Pattern WROTE = Pattern.compile("WROTE rank (\\d+) toReplica=(\\d+)");

    @TempDir
    Path dir;

    private HostsExtension.Result on(int host, String log, List<String> cmd) throws Exception {
        return HOSTS.run(HOSTS.host(host), cmd, dir.resolve(log), 150);
    }

    private static List<String> job(Path machines, int np, List<String> extra, Path data) {
        List<String> a = new ArrayList<>(List.of("run", "-np", Integer.toString(np), "--dev", "niodev", "--machines", machines.toString(), "--timeout", "120"));
        a.addAll(extra);
        a.addAll(List.of("--", StampedIo.class.getName(), data.toString(), "" + BLOCK, "" + SEGMENTS));
        return a;
    }

    private static void writeBase(Path data, long length) throws Exception {
        byte[] b = new byte[(int) length];
        for (int i = 0; i < b.length; i++) b[i] = StampedIo.base(i);
        Files.write(data, b);
    }

    @Test
    void tracedRunAnalyzeDaemonOnAFourthHostRedirectedRun() throws Exception {
        Path data = dir.resolve("loop.dat"), traces = dir.resolve("traces"), patterns = dir.resolve("patterns"), catalog = dir.resolve("catalog");
        writeBase(data, 6L * BLOCK * SEGMENTS);
        Path m = machines(HOSTS, dir, 1, 2, 3);
        Map<String, String> read = Map.of("PDLA_TEST_PHASE", "read", "PDLA_TEST_EXPECT", "base");

        HostsExtension.Result run1 = on(1, "run1.log", pdla(read, job(m, 6, List.of("--trace", traces.toString()), data).toArray(String[]::new)));
        assertEquals(0, run1.status(), run1.output());
        assertTwoRanksPerHost(run1.output(), HOSTS, 6);
        assertVerified(run1.output(), 6, (long) BLOCK * SEGMENTS);
        assertTracesPerRank(traces, run1.output());

        HostsExtension.Result analyze = on(2, "analyze.log", pdla("analyze", traces.toString(), "--db", patterns.toString()));
        assertEquals(0, analyze.status(), analyze.output());
        HostsExtension.Result daemon = on(4, "daemon.log", pdla("daemon", "--once", "--db", catalog.toString(), "--patterns", patterns.toString()));
        assertEquals(0, daemon.status(), daemon.output());

        Map<String, String> redirected = Map.of("PDLA_TEST_PHASE", "read", "PDLA_TEST_EXPECT", "base", "PDLA_CATALOG", catalog.toString());
        HostsExtension.Result run2 = on(1, "run2.log", pdla(redirected, job(m, 6, List.of("--interceptors", "redirect"), data).toArray(String[]::new)));
        assertEquals(0, run2.status(), run2.output());
        assertTwoRanksPerHost(run2.output(), HOSTS, 6);
        assertVerified(run2.output(), 6, (long) BLOCK * SEGMENTS);
        assertEquals(6, servedFromReplicas(run2.output()), "every rank on every host read all its blocks from its replica:\n" + run2.output());
    }

    /**
     * Run 1 on three hosts: one trace and counter file per rank, each with that rank's 16 reads of its own blocks, the
     * pid in each rank's records that of the rank's JVM on its own host, and the shared counters summed over hosts.
     */
    private static void assertTracesPerRank(Path traces, String run1) throws Exception {
        Map<Integer, String[]> at = ClusterJobs.placement(run1);
        for (int r = 0; r < 6; r++) {
            assertTrue(Files.isRegularFile(traces.resolve("rank-" + r + ".pdlt")) && Files.isRegularFile(traces.resolve("rank-" + r + ".pdlc")), "rank " + r + "'s files");
        }
        java.io.StringWriter out = new java.io.StringWriter();
        picocli.CommandLine cl = PdlaCommand.commandLine();
        cl.setOut(new java.io.PrintWriter(out));
        assertEquals(0, cl.execute("trace", "dump", traces.toString(), "--csv"));
        int[] reads = new int[6];
        for (String line : out.toString().lines().skip(1).toList()) {
            String[] f = line.split(",");
            int rank = Integer.parseInt(f[0]);
            assertEquals(at.get(rank)[1], f[1], "rank " + rank + "'s records carry the pid of its JVM on " + at.get(rank)[0]);
            if (!f[3].equals("READ")) continue;
            long off = Long.parseLong(f[6]);
            assertEquals(rank, (off / BLOCK) % 6, "rank " + rank + " read a block it owns: " + line);
            assertEquals(BLOCK, Long.parseLong(f[7]));
            reads[rank]++;
        }
        for (int r = 0; r < 6; r++) assertEquals(SEGMENTS, reads[r], "reads traced on rank " + r);
        java.io.StringWriter counters = new java.io.StringWriter();
        cl = PdlaCommand.commandLine();
        cl.setOut(new java.io.PrintWriter(counters));
        assertEquals(0, cl.execute("counters", traces.toString()));
        assertTrue(counters.toString().lines().anyMatch(l -> l.matches("POSIX\\t-1\\t\\d+\\tPOSIX_READS\\t" + 6 * SEGMENTS + "\\t.*")), counters.toString());
        assertTrue(counters.toString().lines().anyMatch(l -> l.matches("POSIX\\t-1\\t\\d+\\tPOSIX_BYTES_READ\\t" + 6L * SEGMENTS * BLOCK + "\\t.*")), counters.toString());
    }

    /**
     * The pattern database is one JE environment that jobs on many hosts add to: a `pdla analyze` that finds it held
     * by another process (here this test JVM, for 3 s) waits for it instead of failing, and stores its patterns.
     */
    @Test
    void analyzeWaitsWhileAnotherProcessHoldsThePatternDatabase() throws Exception {
        Path data = dir.resolve("a.dat"), traces = dir.resolve("traces"), patterns = dir.resolve("patterns");
        writeBase(data, 2L * BLOCK * SEGMENTS);
        HostsExtension.Result run1 = on(1, "run1.log", pdla(Map.of("PDLA_TEST_PHASE", "read", "PDLA_TEST_EXPECT", "base"),
                job(machines(HOSTS, dir, 1), 2, List.of("--trace", traces.toString()), data).toArray(String[]::new)));
        assertEquals(0, run1.status(), run1.output());
        io.pdla.patterns.db.PatternDatabase.open(patterns).close();
        Process analyze;
        long held;
        try (io.pdla.patterns.db.PatternDatabase busy = io.pdla.patterns.db.PatternDatabase.open(patterns)) {
            analyze = HOSTS.start(HOSTS.host(2), pdla("analyze", traces.toString(), "--db", patterns.toString()), dir.resolve("analyze.log"));
            long t0 = System.nanoTime();
            Thread.sleep(8000);   // longer than analyze takes to reach its open on this loaded machine
            held = System.nanoTime() - t0;
            assertTrue(analyze.isAlive(), "analyze gave up while the database was held:\n" + Files.readString(dir.resolve("analyze.log")));
        }
        assertTrue(analyze.waitFor(120, java.util.concurrent.TimeUnit.SECONDS));
        String out = Files.readString(dir.resolve("analyze.log"));
        assertEquals(0, analyze.exitValue(), out);
        assertTrue(out.contains("queued for replication") && held >= 8_000_000_000L, out);
        try (io.pdla.patterns.db.PatternDatabase db = io.pdla.patterns.db.PatternDatabase.openExisting(patterns, true)) {
            assertTrue(db.queueLength() > 0, "the waiting analyze stored its patterns");
        }
    }

    private static int servedFromReplicas(String output) {
        Matcher x = REDIRECT.matcher(output);
        int ranks = 0;
        while (x.find()) {
            if (Integer.parseInt(x.group(2)) == SEGMENTS && x.group(4).equals("0")) ranks++;
        }
        return ranks;
    }

    /**
     * Two jobs of the replicated application, on hosts 2 and 3, hold the file open for writing at the same time and
     * write disjoint halves of its blocks; both write into the same replicas (each rank's own, claimed DIRTY in the
     * catalog, which the two jobs' rank JVMs open one process at a time). A redirected read on host 1 then sees every
     * new byte (none stale), and after the daemon's pass on host 4 the original holds both jobs' bytes (none lost).
     */
    @Test
    void twoJobsOnTwoHostsWriteTheSameReplicatedFileAtOnce() throws Exception {
        Path data = dir.resolve("shared.dat"), traces = dir.resolve("traces"), patterns = dir.resolve("patterns"), catalog = dir.resolve("catalog");
        Path rendezvous = Files.createDirectories(dir.resolve("rendezvous"));
        writeBase(data, 2L * BLOCK * SEGMENTS);
        HostsExtension.Result run1 = on(1, "run1.log", pdla(Map.of("PDLA_TEST_PHASE", "read", "PDLA_TEST_EXPECT", "base"),
                job(machines(HOSTS, dir, 1), 2, List.of("--trace", traces.toString()), data).toArray(String[]::new)));
        assertEquals(0, run1.status(), run1.output());
        assertEquals(0, on(1, "analyze.log", pdla("analyze", traces.toString(), "--db", patterns.toString())).status());
        assertEquals(0, on(4, "daemon1.log", pdla("daemon", "--once", "--db", catalog.toString(), "--patterns", patterns.toString())).status());

        CompletableFuture<HostsExtension.Result>[] jobs = new CompletableFuture[2];
        for (int half = 0; half < 2; half++) {
            int host = 2 + half, h = half;
            Path m = machines(HOSTS, dir, host);
            Map<String, String> env = Map.of("PDLA_TEST_PHASE", "stamp", "PDLA_TEST_HALF", "" + h, "PDLA_TEST_RENDEZVOUS", rendezvous.toString(),
                    "PDLA_CATALOG", catalog.toString());
            jobs[half] = CompletableFuture.supplyAsync(() -> {
                try {
                    return on(host, "stamp-" + h + ".log", pdla(env, job(m, 2, List.of("--interceptors", "redirect"), data).toArray(String[]::new)));
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
        }
        for (int half = 0; half < 2; half++) {
            HostsExtension.Result r = jobs[half].get();
            assertEquals(0, r.status(), "job " + half + ":\n" + r.output());
            Matcher w = WROTE.matcher(r.output());
            int ranks = 0;
            while (w.find()) {
                ranks++;
                assertEquals((long) BLOCK * SEGMENTS / 2, Long.parseLong(w.group(2)), "job " + half + " rank " + w.group(1) + " wrote into its replica:\n" + r.output());
            }
            assertEquals(2, ranks, r.output());
        }
        assertTrue(Files.exists(rendezvous.resolve("open-0")) && Files.exists(rendezvous.resolve("open-1")));

        HostsExtension.Result after = on(1, "after.log", pdla(Map.of("PDLA_TEST_PHASE", "read", "PDLA_TEST_EXPECT", "stamped", "PDLA_CATALOG", catalog.toString()),
                job(machines(HOSTS, dir, 1), 2, List.of("--interceptors", "redirect"), data).toArray(String[]::new)));
        assertEquals(0, after.status(), "a stale byte was served:\n" + after.output());
        assertVerified(after.output(), 2, (long) BLOCK * SEGMENTS);

        assertEquals(0, on(4, "daemon2.log", pdla("daemon", "--once", "--db", catalog.toString())).status());
        byte[] original = Files.readAllBytes(data);
        for (int i = 0; i < original.length; i++) {
            if (original[i] != StampedIo.stamped(i)) throw new AssertionError("byte " + i + " of the original lost a job's write (written back by the daemon)");
        }
    }

}
