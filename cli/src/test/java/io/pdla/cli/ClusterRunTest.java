package io.pdla.cli;

import io.pdla.cli.programs.HostsIo;
import io.pdla.hosts.HostsExtension;
import io.pdla.mpiio.launch.MpjHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.pdla.cli.ClusterJobs.assertFileBytes;
import static io.pdla.cli.ClusterJobs.assertTwoRanksPerHost;
import static io.pdla.cli.ClusterJobs.assertVerified;
import static io.pdla.cli.ClusterJobs.machines;
import static io.pdla.cli.ClusterJobs.pdla;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pdla run --machines} across three namespace hosts (HostsExtension): the launcher runs on host 1, pdla
 * starts MPJ's daemons on the hosts (or uses one it finds) and stops the ones it started; ranks on different
 * hosts share one file through the shim, independently and with collective buffering, and I/O delegates can sit
 * on a host of their own.
 */
class ClusterRunTest {
    @RegisterExtension
    static final HostsExtension HOSTS = new HostsExtension(3);

    private static final int BLOCK = 16384, SEGMENTS = 8;

    @TempDir
    Path dir;

    private HostsExtension.Result run(String log, String... args) throws Exception {
        return HOSTS.run(HOSTS.host(1), pdla(args), dir.resolve(log), 150);
    }

    @Test
    void sixRanksOnThreeHostsShareAFileAndPdlaStopsOnlyTheDaemonsItStarted() throws Exception {
        // a daemon already running on host 3 is found and left running; hosts 1 and 2 get daemons from pdla
        Process own = HOSTS.start(HOSTS.host(3), List.of("env", "MPJ_HOME=" + MpjHome.locate(), Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                MpjHome.locate().resolve("lib/daemon.jar").toString(), "40055"), dir.resolve("own-daemon.log"));
        ClusterJobs.awaitListening(HOSTS.host(3), 40055, own);
        Path data = dir.resolve("shared.dat");
        HostsExtension.Result r = run("run.log", "run", "-np", "6", "--dev", "niodev", "--machines", machines(HOSTS, dir, 1, 2, 3).toString(),
                "--timeout", "120", "--", HostsIo.class.getName(), data.toString(), "" + BLOCK, "" + SEGMENTS, "write");
        assertEquals(0, r.status(), r.output());
        assertTwoRanksPerHost(r.output(), HOSTS, 6);
        assertVerified(r.output(), 6, (long) BLOCK * SEGMENTS);
        assertFileBytes(data, 6L * BLOCK * SEGMENTS);
        assertTrue(r.output().contains("started MPJ daemons on " + HOSTS.host(1).name() + ", " + HOSTS.host(2).name() + " "), r.output());
        assertTrue(ClusterJobs.processesOn(HOSTS.host(1)).isEmpty() && ClusterJobs.processesOn(HOSTS.host(2)).isEmpty(),
                "pdla stops the daemons it started");
        assertTrue(own.isAlive(), "the daemon pdla found on host 3 is not pdla's to stop");
        HostsExtension.stop(own);
    }

    /** Two-phase collective I/O across hosts; under hybdev the two ranks of a host are threads of one JVM. */
    @ParameterizedTest
    @ValueSource(strings = {"niodev", "hybdev"})
    void collectiveIoAcrossHosts(String device) throws Exception {
        Path data = dir.resolve("coll-" + device + ".dat");
        HostsExtension.Result r = run("coll.log", "run", "-np", "6", "--dev", device, "--machines", machines(HOSTS, dir, 1, 2, 3).toString(),
                "--timeout", "120", "--", HostsIo.class.getName(), data.toString(), "" + BLOCK, "" + SEGMENTS, "collective");
        assertEquals(0, r.status(), r.output());
        assertTwoRanksPerHost(r.output(), HOSTS, 6);
        assertVerified(r.output(), 6, (long) BLOCK * SEGMENTS);
        for (int rank = 0; rank < 6; rank++) assertTrue(r.output().contains("COLL rank " + rank + " twoPhase=2"), "two-phase on rank " + rank + "\n" + r.output());
        assertFileBytes(data, 6L * BLOCK * SEGMENTS);
        Map<Integer, String[]> at = ClusterJobs.placement(r.output());
        Set<String> pids = new HashSet<>();
        at.values().forEach(v -> pids.add(v[1]));
        assertEquals(device.equals("hybdev") ? 3 : 6, pids.size(), "JVMs of the job:\n" + r.output());
    }

    /**
     * Four application ranks on hosts 1 and 2, two delegates on host 3 (ranks 4 and 5 of the job: MPJ fills hosts
     * in order): every byte the application writes crosses host 3's link, which it would not without delegates.
     */
    @Test
    void delegatesOnAHostOfTheirOwn() throws Exception {
        Path data = dir.resolve("delegated.dat");
        long before = ClusterJobs.receivedBytes(HOSTS.host(3));
        HostsExtension.Result r = run("deleg.log", "run", "-np", "4", "--delegates", "2", "--dev", "niodev",
                "--machines", machines(HOSTS, dir, 1, 2, 3).toString(), "--timeout", "120", "--",
                HostsIo.class.getName(), data.toString(), "" + BLOCK, "" + SEGMENTS, "write");
        long received = ClusterJobs.receivedBytes(HOSTS.host(3)) - before;
        assertEquals(0, r.status(), r.output());
        assertTwoRanksPerHost(r.output(), HOSTS, 4);
        assertVerified(r.output(), 4, (long) BLOCK * SEGMENTS);
        assertFileBytes(data, 4L * BLOCK * SEGMENTS);
        assertTrue(received >= 4L * BLOCK * SEGMENTS, "host 3 received " + received + " bytes: the delegates there did not get the writes");
    }

    @Test
    void aHostWithoutADaemonIsNamedInOneError() throws Exception {
        String nobody = HOSTS.hosts().subnet().replace(".0/24", ".200");   // in the subnet, but no host has it
        Path m = dir.resolve("machines-bad");
        java.nio.file.Files.writeString(m, HOSTS.host(1).name() + "\n" + HOSTS.host(2).name() + "\n" + nobody + "\n");
        long t0 = System.nanoTime();
        HostsExtension.Result r = run("bad.log", "run", "-np", "3", "--dev", "niodev", "--machines", m.toString(), "--timeout", "60",
                "--", HostsIo.class.getName(), dir.resolve("never.dat").toString(), "" + BLOCK, "1", "write");
        assertEquals(2, r.status(), r.output());
        List<String> errors = r.output().lines().filter(l -> l.startsWith("pdla run:")).toList();
        assertEquals(1, errors.size(), r.output());
        assertTrue(errors.get(0).contains("host " + nobody + " cannot be reached"), errors.get(0));
        assertFalse(r.output().contains("MPJ Express (0.44) is started"), "MPJ must not start:\n" + r.output());
        assertTrue((System.nanoTime() - t0) / 1e9 < 60, "the error came within the connect timeout");
        assertTrue(ClusterJobs.processesOn(HOSTS.host(1)).isEmpty() && ClusterJobs.processesOn(HOSTS.host(2)).isEmpty(),
                "the daemons started before the unreachable host was found are stopped");

        Path unknown = java.nio.file.Files.writeString(dir.resolve("machines-unknown"), HOSTS.host(1).name() + "\nno-such-host-pdla\n");
        HostsExtension.Result u = run("unknown.log", "run", "-np", "2", "--dev", "niodev", "--machines", unknown.toString(),
                "--", HostsIo.class.getName(), dir.resolve("never.dat").toString(), "" + BLOCK, "1", "write");
        assertEquals(2, u.status(), u.output());
        assertTrue(u.output().contains("host no-such-host-pdla cannot be reached") && u.output().contains("unknown host"), u.output());
    }

    /**
     * A failure every rank shares (the collective open of a missing file fails on all six, on three hosts) ends the
     * job when the ranks end, with the ranks' count, not at the launcher's --timeout.
     */
    @Test
    void aFailureEveryRankSharesEndsTheJobAtOnce() throws Exception {
        long t0 = System.nanoTime();
        HostsExtension.Result r = run("fail.log", "run", "-np", "6", "--dev", "niodev", "--machines", machines(HOSTS, dir, 1, 2, 3).toString(),
                "--timeout", "110", "--", HostsIo.class.getName(), dir.resolve("missing.dat").toString(), "" + BLOCK, "1", "read");
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertEquals(1, r.status(), r.output());
        assertTrue(r.output().contains("pdla run: 6 rank(s) failed") && !r.output().contains("killed after"), r.output());
        assertTrue(r.output().contains("ERR_NO_SUCH_FILE") || r.output().contains("NO_SUCH_FILE") || r.output().contains("does not exist"), r.output());
        assertTrue(seconds < 60, "the job ended " + seconds + " s after it began, as if it had waited for --timeout");
        assertTrue(ClusterJobs.processesOn(HOSTS.host(2)).isEmpty(), "no rank JVM or daemon left on host 2");
    }

    /**
     * One rank fails alone, by an exception or by System.exit, while the five others wait for it in a barrier (under
     * niodev they would wait until --timeout): the launcher stops the job within its failure grace, names the rank
     * and its host, and leaves no rank JVM behind on any host.
     */
    @ParameterizedTest
    @ValueSource(strings = {"throw", "exit"})
    void aRankFailingAloneStopsTheJobAndIsNamed(String how) throws Exception {
        long t0 = System.nanoTime();
        HostsExtension.Result r = run("lone-" + how + ".log", "run", "-np", "6", "--dev", "niodev", "--machines", machines(HOSTS, dir, 1, 2, 3).toString(),
                "--timeout", "140", "--failure-grace", "3", "--", io.pdla.cli.programs.LoneFailingRank.class.getName(), how);
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertEquals(1, r.status(), r.output());
        assertFalse(r.output().contains("killed after"), r.output());
        String named = "pdla run: rank 1 on " + HOSTS.host(1).name() + " failed";
        assertTrue(r.output().contains(named), "expected '" + named + "' in:\n" + r.output());
        assertTrue(r.output().contains(how.equals("throw") ? "rank 1 fails alone on purpose" : "exited before its main returned"), r.output());
        assertTrue(r.output().contains("pdla run: 1 rank(s) failed, 5 rank(s) stopped"), r.output());
        // MPJ's start-up on a loaded machine takes its seconds; waiting for --timeout would take 140
        assertTrue(seconds < 70, "the job ended " + seconds + " s after it began, as if it had waited for --timeout");
        for (int h = 1; h <= 3; h++) assertTrue(ClusterJobs.processesOn(HOSTS.host(h)).isEmpty(), "no rank JVM or daemon left on host " + h);
    }

    /**
     * The launcher in the root namespace (as a user forgetting `pdla hosts exec`) is told where to run before it
     * sends anything: from here a connect to a host's address would leave by the machine's default route.
     */
    @Test
    void aLauncherOutsideTheHostsIsToldToRunOnOne() throws Exception {
        java.io.StringWriter err = new java.io.StringWriter();
        java.io.PrintStream old = System.err;
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(buf, true));
        int code;
        long t0 = System.nanoTime();
        try {
            code = PdlaCommand.commandLine().execute("run", "-np", "2", "--dev", "niodev", "--machines", machines(HOSTS, dir, 1, 2).toString(),
                    "--", HostsIo.class.getName(), dir.resolve("never.dat").toString(), "" + BLOCK, "1", "write");
        } finally {
            System.setErr(old);
        }
        String out = buf.toString() + err;
        assertEquals(2, code, out);
        assertTrue(out.contains("host " + HOSTS.host(1).name() + " is a namespace host") && out.contains("pdla hosts exec 1 -- pdla run"), out);
        assertTrue((System.nanoTime() - t0) / 1e9 < 10, "told at once, not after a connect time-out");
        assertTrue(ClusterJobs.processesOn(HOSTS.host(1)).isEmpty(), "no daemon started on a host the launcher cannot reach");
    }
}
