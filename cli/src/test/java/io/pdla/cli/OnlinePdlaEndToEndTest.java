package io.pdla.cli;

import io.pdla.cli.demo.IterativeReader;
import io.pdla.mpiio.launch.MpjJob;
import io.pdla.patterns.db.PatternDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Online PDLA within one job, with the real components: 4 multicore MPJ ranks of {@link IterativeReader} (16 KiB
 * strided, a pass per open, every byte verified by the program), online matching in the ranks, the pattern database,
 * a real `pdla daemon --patterns` process polling every 200 ms, and redirect serving later opens from the replica.
 * Heavy (about 2-3 minutes: seven jobs, each waiting for its replicas): runs in .ci/run, skipped by -Dpdla.skipHeavy.
 */
@Tag("heavy")
class OnlinePdlaEndToEndTest {
    private static final String BLOCK = "16384";

    @TempDir
    Path dir;

    private final List<Process> daemons = new ArrayList<>();

    @AfterEach
    void stopDaemons() throws Exception {
        for (Process p : daemons) {
            p.destroy();
            if (!p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) p.destroyForcibly();
        }
        Path log = dir.resolve("daemon.log");
        if (Files.exists(log)) System.out.println("daemon log:\n" + Files.readString(log));
    }

    @Test
    void laterPassesAreServedFromTheReplicaBuiltDuringTheJob() throws Exception {
        // passes go on (at most 40, 300 ms apart) until one is served by the replicas on every rank: the time the
        // replicas take depends on the machine's load, whether they serve once ready does not
        startDaemon();
        MpjJob.Result r = job("64", "40", "create", "pause=300", "until-served");
        servedAfterTheRepeat(r);
        try (PatternDatabase pdb = PatternDatabase.openExisting(dir.resolve("patterns"), true)) {
            assertEquals(4, pdb.keys().size(), "one local pattern per rank, as pdla analyze stores them: " + pdb.keys());
        }
    }

    /**
     * A job that opens its file once and loops over it: the pattern is established at its second sweep within the open,
     * and the replica built meanwhile serves the rest of that same open (redirect's switch within an open), verified.
     */
    @Test
    void aJobThatKeepsItsFileOpenIsServedWithinThatOpen() throws Exception {
        startDaemon();
        MpjJob.Result r = job("64", "40", "create", "pause=300", "keep-open", "until-served");
        servedAfterTheRepeat(r);
        assertTrue(r.output().contains("KEEPOPEN"), "one open for every pass:\n" + r.output());
    }

    @Test
    void writesThroughPdlaAfterTheReplicaServedServeNoStaleByte() throws Exception {
        // once the replicas serve, the ranks rewrite their blocks through pdla (their own replicas take the writes as
        // DIRTY, or the claims make them STALE) and read twice more; the program verifies the new generation
        startDaemon();
        MpjJob.Result r = job("64", "40", "create", "pause=300", "until-served=wpp");
        int passes = IterativeReaderRuns.passesRun(r);
        IterativeReaderRuns.verified(r, passes, 4);
        assertTrue(passes >= 6 && passes < 43, r.output());
    }

    @Test
    void aChangeOutsidePdlaAfterTheReplicaServedIsNeverServedStale() throws Exception {
        // rank 0 rewrites the file with a plain FileChannel: the original's identity no longer matches the catalog's,
        // so the next opens read the original; the program verifies the new generation on every rank
        startDaemon();
        MpjJob.Result r = job("64", "40", "create", "pause=300", "until-served=opp");
        int passes = IterativeReaderRuns.passesRun(r);
        Map<Integer, Map<Integer, long[]>> served = IterativeReaderRuns.verified(r, passes, 4);
        for (int rank = 0; rank < 4; rank++) {
            assertEquals(0, served.get(rank).get(passes - 2)[0], "the pass right after the outside change reads the original on rank " + rank);
        }
    }

    @Test
    void aChangeOutsidePdlaWhileTheReplicaIsBeingBuiltServesNoStaleByte() throws Exception {
        // 512 KiB/s: each rank's 1 MiB replica takes ~2 s to copy (4 in a row), so the outside change before pass 6
        // (about 1.5 s after the patterns were handed on) lands while replicas are being built; the builder must not publish
        // what it copied before the change, redirect must not serve a replica whose original changed. The passes go on
        // until rebuilt replicas serve a whole pass (or 40 passes), every one verified against the new generation.
        startDaemon("--rate", "512k");
        MpjJob.Result r = job("64", "40", "create", "pause=300", "outside-before=6", "until-served");
        IterativeReaderRuns.verified(r, IterativeReaderRuns.passesRun(r), 4);
        assertTrue(Files.readString(dir.resolve("daemon.log")).contains("took "), "the daemon had the patterns to build");
    }

    @Test
    void withoutADaemonTheJobReadsItsOriginalsAndIsNotDelayed() throws Exception {
        MpjJob.Result r = job("64", "6", "create", "pause=200");
        Map<Integer, Map<Integer, long[]>> served = IterativeReaderRuns.verified(r, 6, 4);
        for (var rank : served.values()) for (long[] p : rank.values()) assertEquals(0, p[0], "no replica was ever built");
        // the hand-offs happened: they wait in the pattern database's spool for a daemon
        Path spool = io.pdla.patterns.db.PatternSpool.dirOf(dir.resolve("patterns"));
        try (var files = Files.list(spool)) {
            assertEquals(4, files.filter(f -> f.toString().endsWith(io.pdla.patterns.db.PatternSpool.SUFFIX)).count(), "one hand-off per rank in " + spool + "\n" + r.output());
        }
        // the ranks' threads only matched the two passes that established the pattern (none waited for a store; the
        // bound is loose because a loaded machine stretches wall time, a wait for the database would take seconds)
        Matcher m = Pattern.compile("ONLINE rank (\\d+) (\\d+) requests matched in ([0-9.]+) ms").matcher(r.output());
        int ranks = 0;
        while (m.find()) {
            ranks++;
            assertEquals(2 * 64, Long.parseLong(m.group(2)), "the reads of the first two passes matched on rank " + m.group(1) + ", none after");
            assertTrue(Double.parseDouble(m.group(3)) < 2000, "matching took " + m.group(3) + " ms on rank " + m.group(1));
        }
        assertEquals(4, ranks, r.output());
        // a daemon started afterwards stores them and builds the replicas, as after an offline analysis
        assertEquals(0, PdlaCommand.commandLine().execute("daemon", "--once", "--db", dir.resolve("catalog").toString(),
                "--patterns", dir.resolve("patterns").toString()));
        try (PatternDatabase pdb = PatternDatabase.openExisting(dir.resolve("patterns"), true)) {
            assertEquals(4, pdb.keys().size(), pdb.keys().toString());
        }
        try (var files = Files.list(spool)) {
            assertEquals(0, files.filter(f -> f.toString().endsWith(io.pdla.patterns.db.PatternSpool.SUFFIX)).count(), "the spool is drained");
        }
    }

    @Test
    void aDaemonThatDiesMidBuildLeavesTheJobCorrect() throws Exception {
        Process daemon = startDaemon("--rate", "256k");
        Thread killer = new Thread(() -> {
            try {
                // pass 2 ends ~1.5 s in; the daemon then takes the patterns and starts copying at 256 KiB/s
                Path log = dir.resolve("daemon.log");
                long deadline = System.currentTimeMillis() + 60_000;
                while (System.currentTimeMillis() < deadline && !Files.readString(log).contains("took ")) Thread.sleep(50);
                Thread.sleep(1500);
                daemon.destroyForcibly();
            } catch (IOException | InterruptedException ignored) {
                // the test's assertions below say what happened
            }
        });
        killer.start();
        MpjJob.Result r = job("64", "8", "create", "pause=700");
        killer.join();
        IterativeReaderRuns.verified(r, 8, 4);
        assertTrue(daemon.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), "the daemon was killed");
        assertFalse(Files.readString(dir.resolve("daemon.log")).contains("[4/4]"), "it died before building every replica");
        assertTrue(Files.readString(dir.resolve("daemon.log")).contains("took "), "the daemon had taken the patterns before it died");
        // a daemon started again cleans up the dead one's leftovers and builds what is queued
        ProcessBuilder again = daemonCommand("--once");
        Process p = again.redirectErrorStream(true).redirectOutput(dir.resolve("daemon2.log").toFile()).start();
        assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("daemon2.log")));
    }

    @Test
    void pdlaRunOnlineNamesWhatIsMissing() throws IOException {
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cl = PdlaCommand.commandLine();
        cl.setErr(new java.io.PrintWriter(err));
        java.io.PrintStream old = System.err;
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(buf, true));
        int code;
        try {
            code = cl.execute("run", "-np", "2", "--online", "--db", dir.resolve("p").toString(), "--", IterativeReader.class.getName());
        } finally {
            System.setErr(old);
        }
        if (System.getenv("PDLA_CATALOG") == null) {
            assertEquals(2, code);
            assertTrue(buf.toString().contains("--catalog"), buf.toString());
        }
        // a catalog that cannot be one is named before any rank starts
        Path notADir = dir.resolve("file");
        Files.writeString(notADir, "x");
        buf.reset();
        System.setErr(new java.io.PrintStream(buf, true));
        try {
            code = PdlaCommand.commandLine().execute("run", "-np", "2", "--online", "--db", dir.resolve("p").toString(),
                    "--catalog", notADir.toString(), "--", IterativeReader.class.getName());
        } finally {
            System.setErr(old);
        }
        assertEquals(2, code);
        assertTrue(buf.toString().contains(notADir + " is not a directory"), buf.toString());
    }

    /**
     * The job verified every byte of every pass, read passes 1 and 2 from the original on every rank (no replica can
     * exist before the pattern repeated), and ended (before its 40th) with a pass its replica served whole on every rank.
     */
    private static void servedAfterTheRepeat(MpjJob.Result r) throws Exception {
        int passes = IterativeReaderRuns.passesRun(r);
        assertTrue(passes >= 3 && passes < 40, "a pass served whole by replicas came, after the pattern repeated:\n" + r.output());
        Map<Integer, Map<Integer, long[]>> served = IterativeReaderRuns.verified(r, passes, 4);
        for (int rank = 0; rank < 4; rank++) {
            for (int pass = 1; pass <= 2; pass++) {
                assertEquals(0, served.get(rank).get(pass)[0], "no replica can exist before the pattern repeated; rank " + rank + " pass " + pass);
            }
            long[] last = served.get(rank).get(passes);
            assertEquals(64, last[0], "the last pass is served by the replica on rank " + rank + ":\n" + r.output());
            assertEquals(0, last[1] + last[2], "nothing of the last pass left to the original on rank " + rank);
        }
    }

    private Process startDaemon(String... extra) throws IOException {
        Process p = daemonCommand(extra).redirectErrorStream(true).redirectOutput(dir.resolve("daemon.log").toFile()).start();
        daemons.add(p);
        return p;
    }

    private ProcessBuilder daemonCommand(String... extra) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                String.join(java.io.File.pathSeparator, PdlaJar.classPath()), PdlaCommand.class.getName(), "daemon",
                "--db", dir.resolve("catalog").toString(), "--patterns", dir.resolve("patterns").toString(), "--poll", "200"));
        cmd.addAll(List.of(extra));
        return new ProcessBuilder(cmd);
    }

    private MpjJob.Result job(String segments, String passes, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of(dir.resolve("data.dat").toString(), BLOCK, segments, passes));
        args.addAll(List.of(options));
        return IterativeReaderRuns.onlineJob(dir, 4, args).build().run(300);
    }
}
