package io.pdla.cli;

import io.pdla.cli.programs.GenerationUpdate;
import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.launch.RankMain;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Writes through replicas under real MPJ ranks: a read-modify-write application (same command every run) is
 * traced, its patterns replicated; run 2 reads generation 1 from the replicas and writes generation 2 into them
 * (DIRTY); the daemon's next pass writes them back; a run without pdla at all then reads generation 2 from the
 * original. Nothing written is lost on the way, and nothing older is read. Run 2 also runs with two I/O delegates
 * beside redirect: the close then ends redirect's write sessions after the close meeting (the meeting after the
 * closed hooks, which redirect asks for), and the run after it must still find every replica DIRTY and every byte.
 */
class WritesIntoReplicasEndToEndTest {
    private static final Pattern GEN = Pattern.compile("GEN rank (\\d+) g=(-?\\d+)");
    private static final Pattern REDIRECT = Pattern.compile("REDIRECT rank (\\d+) fromReplica=(\\d+) writtenToReplica=(\\d+)");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "delegates in run 2: {0}")
    @ValueSource(ints = {0, 2})
    void runTwoWritesIntoReplicasAndTheDaemonBringsTheOriginalUpToDate(int delegates) throws Exception {
        String data = dir.resolve("gen.dat").toString(), block = "8192", segments = "16";
        String tests = Path.of(GenerationUpdate.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        Path traces = dir.resolve("traces"), patterns = dir.resolve("patterns"), catalog = dir.resolve("catalog");
        assertEquals(0, PdlaCommand.commandLine().execute("run", "-np", "4", "--classpath", tests, "--timeout", "120",
                "--", GenerationUpdate.class.getName(), data, block, segments, "init"));
        MpjJob.Result run1 = job(tests, data, block, segments, 0, Map.of("PDLA_INTERCEPTORS", "tracer", "PDLA_TRACE_DIR", traces.toString()));
        assertGenerations(run1, 0);
        assertEquals(0, PdlaCommand.commandLine().execute("analyze", traces.toString(), "--db", patterns.toString()));
        assertEquals(0, PdlaCommand.commandLine().execute("daemon", "--once", "--db", catalog.toString(), "--patterns", patterns.toString()));

        MpjJob.Result run2 = job(tests, data, block, segments, delegates,
                Map.of("PDLA_INTERCEPTORS", delegates > 0 ? "redirect,delegate" : "redirect", "PDLA_CATALOG", catalog.toString()));
        assertGenerations(run2, 1);
        Matcher m = REDIRECT.matcher(run2.output());
        int ranks = 0;
        while (m.find()) {
            ranks++;
            assertEquals(Integer.parseInt(segments), Integer.parseInt(m.group(2)), "rank " + m.group(1) + " read from its replica:\n" + run2.output());
            assertEquals(Long.parseLong(segments) * Long.parseLong(block), Long.parseLong(m.group(3)), "rank " + m.group(1) + " wrote into it");
        }
        assertEquals(4, ranks, run2.output());
        assertTrue(listing(catalog).stream().allMatch(l -> l.startsWith("DIRTY")), "run 2's writes made the replicas DIRTY: " + listing(catalog));

        assertEquals(0, PdlaCommand.commandLine().execute("daemon", "--once", "--db", catalog.toString()));
        assertTrue(listing(catalog).stream().allMatch(l -> l.startsWith("VALID")), "written back: " + listing(catalog));
        MpjJob.Result plain = job(tests, data, block, segments, 0, Map.of("PDLA_INTERCEPTORS", "none"));
        assertGenerations(plain, 2);
    }

    private static MpjJob.Result job(String tests, String data, String block, String segments, int delegates, Map<String, String> env) throws Exception {
        MpjJob.Builder b = MpjJob.builder(RankMain.class.getName()).processes(4).delegates(delegates).classPath(List.of(tests)).classPath(PdlaJar.classPath())
                .args(List.of(data, block, segments))
                .env("PDLA_APP", String.join(" ", GenerationUpdate.class.getName(), data, block, segments))
                .env(RankMain.ENV_MAIN_CLASS, GenerationUpdate.class.getName());
        env.forEach(b::env);
        MpjJob.Result r = b.build().run(120);
        assertTrue(r.succeeded(), r.output());
        return r;
    }

    private static void assertGenerations(MpjJob.Result r, int expected) {
        Matcher m = GEN.matcher(r.output());
        int ranks = 0;
        while (m.find()) {
            ranks++;
            assertEquals(expected, Integer.parseInt(m.group(2)), "rank " + m.group(1) + " read generation:\n" + r.output());
        }
        assertEquals(4, ranks, r.output());
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
