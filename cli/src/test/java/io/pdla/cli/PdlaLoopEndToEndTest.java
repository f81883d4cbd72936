package io.pdla.cli;

import io.pdla.cli.programs.StridedIo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole PDLA loop on POSIX under real MPJ ranks: run 1 of a strided reader traced, `pdla analyze`,
 * `pdla daemon --once --patterns`, then run 2 of the same command through the redirect interceptor. Run 2
 * reads (and the program verifies) exactly the bytes that were written, and every one of its strided reads
 * is served by a replica.
 */
class PdlaLoopEndToEndTest {
    @TempDir
    Path dir;

    private static final Pattern REDIRECT = Pattern.compile("REDIRECT rank (\\d+) fromReplica=(\\d+) mixed=(\\d+) fromOriginal=(\\d+)");

    @Test
    void runTwoIsServedFromReplicasAndReadsTheSameBytes() throws Exception {
        String data = dir.resolve("data.dat").toString();
        String blocks = "16384", segments = "32";
        String tests = Path.of(StridedIo.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        // run 0 writes the file (another command, so it is not the application being optimised)
        assertEquals(0, PdlaCommand.commandLine().execute("run", "-np", "4", "--classpath", tests, "--timeout", "120",
                "--", StridedIo.class.getName(), data, blocks, segments));
        Path traces = dir.resolve("traces"), patterns = dir.resolve("patterns"), catalog = dir.resolve("catalog");
        assertEquals(0, PdlaCommand.commandLine().execute("run", "-np", "4", "--classpath", tests, "--trace", traces.toString(),
                "--timeout", "120", "--", StridedIo.class.getName(), data, blocks, segments, "read"));
        assertEquals(0, PdlaCommand.commandLine().execute("analyze", traces.toString(), "--db", patterns.toString()));
        assertEquals(0, PdlaCommand.commandLine().execute("daemon", "--once", "--db", catalog.toString(), "--patterns", patterns.toString()));

        io.pdla.mpiio.launch.MpjJob.Result run2 = redirectedRead(tests, catalog, data, blocks, segments);
        assertTrue(run2.succeeded(), run2.output());
        assertTrue(!run2.output().contains("differs"), run2.output());
        List<String> ranks = new ArrayList<>();
        Matcher m = REDIRECT.matcher(run2.output());
        while (m.find()) {
            ranks.add(m.group(1));
            assertEquals(Integer.parseInt(segments), Integer.parseInt(m.group(2)), "reads served by the replica on rank " + m.group(1) + ":\n" + run2.output());
            assertEquals(0, Integer.parseInt(m.group(4)), "reads left to the original on rank " + m.group(1));
        }
        assertEquals(4, ranks.size(), run2.output());

        // A writer that names no interceptor but has the catalog configured still passes through redirect,
        // so its writes into the replicated regions mark those replicas stale before they land.
        io.pdla.mpiio.launch.MpjJob.Result writer = io.pdla.mpiio.launch.MpjJob.builder(io.pdla.mpiio.launch.RankMain.class.getName())
                .processes(4).classPath(List.of(tests)).classPath(PdlaJar.classPath())
                .args(List.of(data, blocks, segments))
                .env(io.pdla.mpiio.launch.RankMain.ENV_MAIN_CLASS, StridedIo.class.getName())
                .env("PDLA_CATALOG", catalog.toString())
                .build().run(120);
        assertTrue(writer.succeeded(), writer.output());
        java.io.StringWriter listing = new java.io.StringWriter();
        picocli.CommandLine list = PdlaCommand.commandLine();
        list.setOut(new java.io.PrintWriter(listing));
        assertEquals(0, list.execute("replicas", "list", "--db", catalog.toString()));
        List<String> rows = listing.toString().lines().filter(l -> l.contains("|")).toList();
        assertTrue(!rows.isEmpty(), listing.toString());
        for (String row : rows) assertTrue(row.startsWith("STALE"), "after the writer: " + row + "\n" + listing);

        io.pdla.mpiio.launch.MpjJob.Result run3 = redirectedRead(tests, catalog, data, blocks, segments);
        assertTrue(run3.succeeded(), run3.output());
        Matcher m3 = REDIRECT.matcher(run3.output());
        int seen = 0;
        while (m3.find()) {
            seen++;
            assertEquals(0, Integer.parseInt(m3.group(2)), "a stale replica served rank " + m3.group(1) + ":\n" + run3.output());
        }
        assertEquals(4, seen, run3.output());

        // A pattern deleted from the pattern database takes its replica with it at the daemon's next pass; the
        // other ranks' (stale after the writer) are rebuilt.
        String app = String.join(" ", StridedIo.class.getName(), data, blocks, segments, "read");
        assertEquals(0, PdlaCommand.commandLine().execute("patterns", "--db", patterns.toString(), "delete",
                "--app", app, "-np", "4", "--rank", "0", "--file", data));
        assertEquals(0, PdlaCommand.commandLine().execute("daemon", "--once", "--db", catalog.toString(), "--patterns", patterns.toString()));
        java.io.StringWriter after = new java.io.StringWriter();
        picocli.CommandLine list2 = PdlaCommand.commandLine();
        list2.setOut(new java.io.PrintWriter(after));
        assertEquals(0, list2.execute("replicas", "list", "--db", catalog.toString()));
        List<String> left = after.toString().lines().filter(l -> l.contains("|")).toList();
        assertEquals(3, left.size(), after.toString());
        for (String row : left) {
            assertTrue(row.startsWith("VALID") && !row.contains("|4|0|"), "rank 0's replica is gone, the others rebuilt: " + row);
        }
    }

    /** The same read command as run 1, through redirect with the catalog. */
    private static io.pdla.mpiio.launch.MpjJob.Result redirectedRead(String tests, Path catalog, String data, String blocks, String segments) throws Exception {
        return io.pdla.mpiio.launch.MpjJob.builder(io.pdla.mpiio.launch.RankMain.class.getName())
                .processes(4).classPath(List.of(tests)).classPath(PdlaJar.classPath())
                .args(List.of(data, blocks, segments, "read"))
                .env("PDLA_APP", String.join(" ", StridedIo.class.getName(), data, blocks, segments, "read"))
                .env(io.pdla.mpiio.launch.RankMain.ENV_MAIN_CLASS, StridedIo.class.getName())
                .env("PDLA_INTERCEPTORS", "redirect").env("PDLA_CATALOG", catalog.toString())
                .build().run(120);
    }
}
