package io.pdla.cli;

import io.pdla.cli.programs.HelloShim;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunCommandTest {
    @TempDir
    Path dir;

    @Test
    void runsAnMpjJobWithTheShimAndTheApplicationIdentity() throws Exception {
        Path out = dir.resolve("hello.dat");
        int code = PdlaCommand.commandLine().execute("run", "-np", "3", "--timeout", "120", "--", HelloShim.class.getName(), out.toString());
        assertEquals(0, code);
        assertEquals("ABC", Files.readString(out), "every rank wrote its byte through the shim");
    }

    @Test
    void aRankThatThrowsMakesTheRunFail() {
        int code = PdlaCommand.commandLine().execute("run", "-np", "2", "--timeout", "120", "--", io.pdla.cli.programs.FailingRank.class.getName());
        assertEquals(1, code);
    }

    /** PDLA_STATUS_ROOT puts the ranks' status directory where every host sees it; a wrong one is named before any rank starts. */
    @Test
    void theStatusDirectoryGoesUnderPdlaStatusRoot() throws Exception {
        Path root = Files.createDirectories(dir.resolve("shared-status"));
        Process ok = pdlaProcess(root.toString(), "run", "-np", "2", "--timeout", "120", "--", HelloShim.class.getName(), dir.resolve("hello.dat").toString());
        String out = new String(ok.getInputStream().readAllBytes());
        assertEquals(0, ok.waitFor(), out);
        assertEquals("AB", Files.readString(dir.resolve("hello.dat")), out);
        try (var left = Files.list(root)) {
            assertEquals(0, left.count(), "the status directory made under PDLA_STATUS_ROOT is removed after the job");
        }
        // runs refused before their job starts remove it too (they left it empty in the temporary directory)
        Path notADirectory = Files.writeString(dir.resolve("traces-file"), "x");
        Process noTraceDir = pdlaProcess(root.toString(), "run", "-np", "2", "--trace", notADirectory.toString(), "--", HelloShim.class.getName(), dir.resolve("y.dat").toString());
        String traceErr = new String(noTraceDir.getInputStream().readAllBytes());
        assertEquals(2, noTraceDir.waitFor(), traceErr);
        assertTrue(traceErr.contains("--trace " + notADirectory + ": cannot make the trace directory"), traceErr);
        Process noDb = pdlaProcess(root.toString(), "run", "-np", "2", "--online", "--", HelloShim.class.getName(), dir.resolve("z.dat").toString());
        String dbErr = new String(noDb.getInputStream().readAllBytes());
        assertEquals(2, noDb.waitFor(), dbErr);
        try (var left = Files.list(root)) {
            assertEquals(java.util.List.of(), left.toList(), "status directories of refused runs");
        }
        Process bad = pdlaProcess(dir.resolve("no-such-dir").toString(), "run", "-np", "2", "--", HelloShim.class.getName(), dir.resolve("x.dat").toString());
        String err = new String(bad.getInputStream().readAllBytes());
        assertEquals(2, bad.waitFor(), err);
        assertTrue(err.contains("PDLA_STATUS_ROOT=" + dir.resolve("no-such-dir") + " is not a directory"), err);
    }

    @Test
    void aLauncherStoppedBySigtermTakesItsJobWithItAndRemovesTheStatusDirectory() throws Exception {
        Path root = Files.createDirectories(dir.resolve("status"));
        Process launcher = pdlaProcess(root.toString(), "run", "-np", "2", "--timeout", "150", "--", io.pdla.cli.programs.SleepingRank.class.getName());
        java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(launcher.getInputStream()));
        int up = 0;
        StringBuilder seen = new StringBuilder();
        for (String l; up < 2 && (l = out.readLine()) != null; ) {     // bounded: the ranks sleep 120 s at most, then end
            seen.append(l).append('\n');
            if (l.startsWith("SLEEPING rank")) up++;
        }
        assertEquals(2, up, seen.toString());
        java.util.List<ProcessHandle> job = launcher.descendants().toList();
        assertTrue(!job.isEmpty(), "MPJ's starter and its JVM run under the launcher");
        launcher.toHandle().destroy();     // SIGTERM to the launcher alone, as kill PID sends it
        assertTrue(launcher.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the launcher ended");
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && job.stream().anyMatch(ProcessHandle::isAlive)) Thread.sleep(100);
        try {
            assertEquals(java.util.List.of(), job.stream().filter(ProcessHandle::isAlive).map(ProcessHandle::pid).toList(), "the job's processes still running");
            try (var left = Files.list(root)) {
                assertEquals(java.util.List.of(), left.toList(), "the stopped run's status directory");
            }
        } finally {
            job.forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static Process pdlaProcess(String statusRoot, String... args) throws java.io.IOException {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dpdla.mpjHome=" + io.pdla.mpiio.launch.MpjHome.locate(), "-cp", System.getProperty("java.class.path"), PdlaCommand.class.getName()));
        cmd.addAll(java.util.List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put(RunCommand.ENV_STATUS_ROOT, statusRoot);
        return pb.start();
    }

    @Test
    void badArgumentsExitWith2AndSayWhy() {
        PrintStream old = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err));
        try {
            assertEquals(2, PdlaCommand.commandLine().execute("run", "-np", "0", "Main"));
            assertTrue(err.toString().contains("-np must be > 0"), err.toString());
            assertEquals(2, PdlaCommand.commandLine().execute("run", "-np", "2", "--dev", "niodev", "Main"));
            assertTrue(err.toString().contains("--machines"), err.toString());
            assertEquals(2, PdlaCommand.commandLine().execute("run", "-np", "2", "--dev", "carrier-pigeon", "Main"));
            assertTrue(err.toString().contains("unknown MPJ device"), err.toString());
        } finally {
            System.setErr(old);
        }
    }
}
