package io.pdla.cli;

import io.pdla.cli.programs.StridedIo;
import io.pdla.mpiio.launch.MpjHome;
import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.launch.RankMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The PDLA loop with one JVM per rank (MPJ's niodev device over loopback, MPJ's daemon started here): pdla's
 * settings reach ranks that MPJ's daemon starts with its own environment, and three rank JVMs share the replica
 * catalog (Berkeley DB lets one process at a time open it) while run 2 is served from replicas.
 */
class NiodevLoopTest {
    private static final int DAEMON_PORT = 40055; // mpjexpress.mpjdaemon.port.1 in conf/mpjexpress.conf
    private static final Pattern REDIRECT = Pattern.compile("REDIRECT rank (\\d+) fromReplica=(\\d+) mixed=(\\d+) fromOriginal=(\\d+)");

    @TempDir
    Path dir;

    @Test
    void runTwoInThreeJvmsIsServedFromReplicas() throws Exception {
        Process daemon = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                MpjHome.locate().resolve("lib/daemon.jar").toString(), Integer.toString(DAEMON_PORT))
                .redirectErrorStream(true).redirectOutput(dir.resolve("daemon.log").toFile()).start();
        try {
            awaitPort(daemon);
            Path machines = Files.writeString(dir.resolve("machines"), "localhost\n");
            String data = dir.resolve("data.dat").toString(), block = "16384", segments = "16";
            String tests = Path.of(StridedIo.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
            List<String> niodev = List.of("run", "-np", "3", "--dev", "niodev", "--machines", machines.toString(), "--classpath", tests, "--timeout", "120");
            Path traces = dir.resolve("traces"), patterns = dir.resolve("patterns"), catalog = dir.resolve("catalog");
            assertEquals(0, PdlaCommand.commandLine().execute(concat(niodev, "--", StridedIo.class.getName(), data, block, segments)));
            assertEquals(0, PdlaCommand.commandLine().execute(concat(niodev, "--trace", traces.toString(), "--", StridedIo.class.getName(), data, block, segments, "read")));
            assertTrue(Files.list(traces).anyMatch(p -> p.getFileName().toString().startsWith("rank-2")), "every rank JVM traced");
            assertEquals(0, PdlaCommand.commandLine().execute("analyze", traces.toString(), "--db", patterns.toString()));
            assertEquals(0, PdlaCommand.commandLine().execute("daemon", "--once", "--db", catalog.toString(), "--patterns", patterns.toString()));

            MpjJob.Result run2 = MpjJob.builder(RankMain.class.getName()).processes(3).device("niodev").machinesFile(machines)
                    .classPath(List.of(tests)).classPath(PdlaJar.classPath())
                    .args(List.of(data, block, segments, "read"))
                    .env("PDLA_APP", String.join(" ", StridedIo.class.getName(), data, block, segments, "read"))
                    .env(RankMain.ENV_MAIN_CLASS, StridedIo.class.getName())
                    .env("PDLA_INTERCEPTORS", "redirect").env("PDLA_CATALOG", catalog.toString())
                    .build().run(120);
            assertTrue(run2.succeeded() && !run2.output().contains("differs"), run2.output());
            Matcher m = REDIRECT.matcher(run2.output());
            int ranks = 0;
            while (m.find()) {
                ranks++;
                assertEquals(Integer.parseInt(segments), Integer.parseInt(m.group(2)), "reads served by the replica on rank " + m.group(1) + ":\n" + run2.output());
            }
            assertEquals(3, ranks, run2.output());
        } finally {
            daemon.descendants().forEach(ProcessHandle::destroy);
            daemon.destroy();
            daemon.waitFor();
        }
    }

    private static String[] concat(List<String> head, String... tail) {
        List<String> all = new java.util.ArrayList<>(head);
        all.addAll(List.of(tail));
        return all.toArray(String[]::new);
    }

    private static void awaitPort(Process daemon) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            assertTrue(daemon.isAlive(), "MPJ daemon exited at start (port " + DAEMON_PORT + " in use?)");
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", DAEMON_PORT), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        fail("MPJ daemon did not listen on port " + DAEMON_PORT + " within 20 s");
    }
}
