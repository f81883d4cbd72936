package io.pdla.cli;

import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.PatternKey;
import io.pdla.patterns.RuntimeInfo;
import io.pdla.patterns.db.PatternDatabase;
import io.pdla.patterns.db.PatternEntry;
import io.pdla.patterns.db.StoredPattern;
import io.pdla.patterns.template.OpMix;
import io.pdla.patterns.template.PatternKind;
import io.pdla.patterns.template.Temporal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code pdla plan-delegates} through the command line, on a pattern database written by the real store. */
class PlanDelegatesCommandTest {
    @TempDir
    Path dir;

    /** Each of {@code ranks} ranks read {@code bytesPerRank} of its own file (N-N) in 1 MiB requests. */
    private Path history(String app, int processes, int ranks, long bytesPerRank) {
        Path db = dir.resolve("db");
        try (PatternDatabase pdb = PatternDatabase.open(db)) {
            long requests = bytesPerRank >> 20;
            for (int r = 0; r < ranks; r++) {
                Geometry g = Geometry.strided(0, 1 << 20, 1 << 20, requests);
                StoredPattern p = new StoredPattern(PatternKind.STRIDED, OpMix.READ_ONLY, g.spec(), requests, bytesPerRank, 1,
                        new long[]{1 << 20}, new Temporal(Temporal.Kind.FIXED, 1000), List.of(), null, "rank " + r);
                pdb.put(new PatternEntry(PatternKey.local(new AppIdentity(app, processes), r, URI.create("file:///data/out-" + r)),
                        List.of(p), new RuntimeInfo("posix", 1, 65536L, 1, List.of(1L << 20), Map.of())));
            }
        }
        return db;
    }

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = PdlaCommand.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void aBigEarlierRunGetsScaledDelegatesAndSaysWhy() {
        // 64 ranks x 1 GiB = 64 GiB > V_min (20 GiB), N_A = 64 >= N_min (32): S = ceil(64 / F) = 2 with F = 32
        Path db = history("flash-io", 64, 64, 1L << 30);
        Run r = run("plan-delegates", "--db", db.toString(), "--app", "flash-io", "-np", "64");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("decision: scaled"), r.out());
        assertTrue(r.out().contains("delegates: 2"), r.out());
        assertTrue(r.out().contains("64 I/O processes"), r.out());
        assertTrue(r.out().contains("V_min"), "the reason names the rule: " + r.out());
    }

    @Test
    void aNewApplicationOrProcessCountKeepsTheDefaultPath() {
        Path db = history("flash-io", 64, 64, 1L << 30);
        for (String[] job : new String[][]{{"other-app", "64"}, {"flash-io", "128"}}) {
            Run r = run("plan-delegates", "--db", db.toString(), "--app", job[0], "-np", job[1]);
            assertEquals(0, r.exit(), r.err());
            assertTrue(r.out().contains("decision: default_path") && r.out().contains("delegates: 0"), r.out());
            assertTrue(r.out().contains("no earlier run"), r.out());
        }
    }

    @Test
    void aSmallHistoryStaysOnTheDefaultPath() {
        Path db = history("small", 8, 8, 64L << 20);   // 512 MiB over 8 ranks: below V_min and N_min
        Run r = run("plan-delegates", "--db", db.toString(), "--app", "small", "-np", "8");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("decision: default_path"), r.out());
    }

    @Test
    void badInputExitsWith2AndNamesIt() {
        Path db = history("flash-io", 64, 64, 1L << 30);
        Run neighbour = run("plan-delegates", "--db", db.toString(), "--app", "flash-io", "-np", "64", "--neighbour", "noprocesses");
        assertEquals(2, neighbour.exit());
        assertTrue(neighbour.err().contains("neighbour 'noprocesses' must be COMMAND@NP"), neighbour.err());
        Run np = run("plan-delegates", "--db", db.toString(), "--app", "flash-io", "-np", "0");
        assertEquals(2, np.exit());
        assertTrue(np.err().contains("-np must be > 0"), np.err());
        Run missing = run("plan-delegates", "--db", dir.resolve("nothing-here").toString(), "--app", "x", "-np", "4");
        assertEquals(2, missing.exit());
        assertTrue(missing.err().contains("nothing-here"), missing.err());
        assertTrue(!missing.err().contains("\tat "), "no stack trace: " + missing.err());
    }
}
