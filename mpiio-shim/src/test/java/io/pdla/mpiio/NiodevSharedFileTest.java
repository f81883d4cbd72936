package io.pdla.mpiio;

import io.pdla.mpiio.launch.MpjHome;
import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.programs.StridedSharedFileProgram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Three JVMs under MPJ's niodev device over loopback write disjoint strided parts of one shared file and
 * read back another rank's part. The test starts MPJ's daemon on the port of MPJ_HOME's configuration
 * and stops it afterwards.
 */
class NiodevSharedFileTest {
    private static final int DAEMON_PORT = 40055; // mpjexpress.mpjdaemon.port.1 in conf/mpjexpress.conf

    @TempDir
    Path dir;

    @Test
    void threeJvmsShareOneFileThroughTheShim() throws Exception {
        withDaemon(() -> {
            Path machines = Files.writeString(dir.resolve("machines"), "localhost\n");
            Path shared = dir.resolve("shared.dat");
            MpjJob.Result r = MpjJob.builder(StridedSharedFileProgram.class.getName()).processes(3).device("niodev")
                    .machinesFile(machines).classPath(MpjJob.currentClassPath()).args(List.of(shared.toString()))
                    .build().run(120);
            MpjTestSupport.assertAllPassed(r, 3);
            Set<String> pids = r.output().lines().filter(l -> l.startsWith("PID ")).map(l -> l.split(" ")[2]).collect(Collectors.toSet());
            assertEquals(3, pids.size(), "three ranks in three JVMs:\n" + r.output());
            byte[] file = Files.readAllBytes(shared);
            assertEquals(3 * 4096 * 32, file.length);
            for (int i = 0; i < file.length; i++) {
                if (file[i] != (byte) (i * 31L + (i >>> 8) * 7L + 1)) fail("byte " + i + " of the shared file is wrong");
            }
        });
    }

    /** The collective-vs-independent differential over MPJ messages (MpjExchange): ranks in three JVMs share no memory. */
    @Test
    void collectiveBufferingAcrossThreeJvmsEqualsIndependentIo() throws Exception {
        withDaemon(() -> {
            Path machines = Files.writeString(dir.resolve("machines"), "localhost\n");
            long seed = java.util.concurrent.ThreadLocalRandom.current().nextLong(1_000_000_000L);
            MpjJob.Result r = MpjJob.builder(io.pdla.mpiio.programs.CollectiveDifferentialProgram.class.getName()).processes(3).device("niodev")
                    .machinesFile(machines).classPath(MpjJob.currentClassPath()).args(List.of(dir.toString(), String.valueOf(seed), "6"))
                    .build().run(180);
            List<String> passed = MpjTestSupport.assertAllPassed(r, 3);
            assertTrue(passed.size() >= 12, "seed " + seed + ": 12 checks per rank expected\n" + r.output());
        });
    }

    /**
     * Steady collective reads skip their meetings across JVMs too, where a rank that skipped a meeting the others held
     * would leave them waiting on MPJ messages for good: the schedule, failures and vetoes on one rank, a rank turning
     * the hint off (SteadyCollectiveReadsProgram's checks) in three JVMs.
     */
    @Test
    void steadyCollectiveReadsAcrossThreeJvmsStayInStep() throws Exception {
        withDaemon(() -> {
            Path machines = Files.writeString(dir.resolve("machines"), "localhost\n");
            MpjJob.Result r = MpjJob.builder(io.pdla.mpiio.programs.SteadyCollectiveReadsProgram.class.getName()).processes(3).device("niodev")
                    .machinesFile(machines).classPath(MpjJob.currentClassPath()).args(List.of(dir.toString()))
                    .build().run(180);
            List<String> passed = MpjTestSupport.assertAllPassed(r, 3);
            assertEquals(6 * 3, passed.size(), "6 checks on 3 ranks:\n" + r.output());
        });
    }

    /**
     * ROMIO's atomicity and external32 programs in three JVMs: atomic mode's byte-range locks must exclude
     * across processes (FileChannel locks), and a file written in external32 by one JVM reads the same in another.
     */
    @Test
    void romioAtomicityAndExternal32AcrossThreeJvms() throws Exception {
        withDaemon(() -> {
            Path machines = Files.writeString(dir.resolve("machines"), "localhost\n");
            for (Class<?> program : List.of(io.pdla.mpiio.romio.RomioAtomicityProgram.class, io.pdla.mpiio.romio.RomioExternal32Program.class)) {
                MpjJob.Result r = MpjJob.builder(program.getName()).processes(3).device("niodev")
                        .machinesFile(machines).classPath(MpjJob.currentClassPath())
                        .args(List.of(dir.resolve(program.getSimpleName()).toString())).build().run(180);
                List<String> passed = MpjTestSupport.assertAllPassed(r, 3);
                assertEquals(3, passed.size(), program.getSimpleName() + ":\n" + r.output());
            }
        });
    }

    /** Two application JVMs and one delegate JVM: through the delegate, the same files as without it. */
    @Test
    void delegatesAcrossJvmsEqualDirectIo() throws Exception {
        withDaemon(() -> {
            Path machines = Files.writeString(dir.resolve("machines"), "localhost\n");
            long seed = java.util.concurrent.ThreadLocalRandom.current().nextLong(1_000_000_000L);
            Path direct = Files.createDirectories(dir.resolve("direct")), delegated = Files.createDirectories(dir.resolve("delegated"));
            List<String> common = List.of(String.valueOf(seed), "3", "true");
            List<String> a = new java.util.ArrayList<>(List.of(direct.toString()));
            a.addAll(common);
            MpjTestSupport.assertAllPassed(MpjTestSupport.run(io.pdla.mpiio.programs.DelegateDifferentialProgram.class, 2, a.toArray(new String[0])), 2);
            List<String> b = new java.util.ArrayList<>(List.of(delegated.toString()));
            b.addAll(common);
            MpjJob.Result r = MpjJob.builder(io.pdla.mpiio.launch.RankMain.class.getName()).processes(2).delegates(1).device("niodev")
                    .machinesFile(machines).classPath(MpjJob.currentClassPath()).args(b)
                    .env(io.pdla.mpiio.launch.RankMain.ENV_MAIN_CLASS, io.pdla.mpiio.programs.DelegateDifferentialProgram.class.getName())
                    .build().run(180);
            MpjTestSupport.assertAllPassed(r, 2);
            for (int t = 0; t < 3; t++) {
                org.junit.jupiter.api.Assertions.assertArrayEquals(Files.readAllBytes(direct.resolve("d-" + t)),
                        Files.readAllBytes(delegated.resolve("d-" + t)), "seed " + seed + " file d-" + t);
            }
        });
    }

    private interface WithDaemon {
        void run() throws Exception;
    }

    /** Runs {@code body} while MPJ's daemon listens on the port of MPJ_HOME's configuration, and stops it afterwards. */
    private void withDaemon(WithDaemon body) throws Exception {
        Path home = MpjHome.locate();
        Process daemon = new ProcessBuilder(javaBin(), "-jar", home.resolve("lib/daemon.jar").toString(), Integer.toString(DAEMON_PORT))
                .redirectErrorStream(true).redirectOutput(dir.resolve("daemon.log").toFile()).start();
        try {
            awaitPort(DAEMON_PORT, daemon);
            body.run();
        } finally {
            daemon.descendants().forEach(ProcessHandle::destroy);
            daemon.destroy();
            daemon.waitFor();
        }
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void awaitPort(int port, Process daemon) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            assertTrue(daemon.isAlive(), "MPJ daemon exited at start (port " + port + " in use?)");
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        fail("MPJ daemon did not listen on port " + port + " within 20 s");
    }
}
