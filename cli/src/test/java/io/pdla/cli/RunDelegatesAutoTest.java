package io.pdla.cli;

import io.pdla.cli.programs.HelloShim;
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

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.pdla.cli.ConsoleCapture.capture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pdla run --delegates auto}: the launcher asks the pattern database what the application's earlier run did,
 * starts as many delegate ranks as DFRA's rules give, and the job ends well only if all of them finished (the run's
 * exit status counts the application ranks plus the delegates it started).
 */
class RunDelegatesAutoTest {
    @TempDir
    Path dir;

    /** An earlier run of {@code command} on {@code np} ranks, each reading 4 MiB of its own file. */
    private Path history(String command, int np) {
        Path db = dir.resolve("db");
        try (PatternDatabase pdb = PatternDatabase.open(db)) {
            for (int r = 0; r < np; r++) {
                Geometry g = Geometry.strided(0, 1 << 20, 1 << 20, 4);
                StoredPattern p = new StoredPattern(PatternKind.STRIDED, OpMix.READ_ONLY, g.spec(), 4, 4L << 20, 1,
                        new long[]{1 << 20}, new Temporal(Temporal.Kind.FIXED, 1000), List.of(), null, "rank " + r);
                pdb.put(new PatternEntry(PatternKey.local(new AppIdentity(command, np), r, URI.create("file:///data/in-" + r)),
                        List.of(p), new RuntimeInfo("posix", 1, 65536L, 1, List.of(1L << 20), Map.of())));
            }
        }
        return db;
    }

    @Test
    void autoStartsTheDelegatesThePatternDatabaseCallsFor() throws Exception {
        Path out = dir.resolve("hello.dat");
        String command = HelloShim.class.getName() + " " + out;
        Path db = history(command, 2);
        // DFRA's published thresholds (20 GB, 32 I/O processes) scaled down to this 2-rank history: 8 MiB > V_min,
        // 2 I/O processes >= N_min, one delegate per 2 processes
        Map<String, String> settings = Map.of("PDLA_DFRA_V_MIN_BYTES", "1m", "PDLA_DFRA_N_MIN", "2", "PDLA_DFRA_F", "2");
        settings.forEach((k, v) -> System.setProperty("pdla.env." + k, v));
        try {
            String err = capture(false, () -> PdlaCommand.commandLine().execute("run", "-np", "2", "--delegates", "auto", "--db", db.toString(),
                    "--timeout", "120", "--", HelloShim.class.getName(), out.toString()), 0);
            assertTrue(err.contains("delegates: scaled, 1 delegate(s)"), err);
            assertEquals("AB", Files.readString(out), "the two application ranks wrote through the shim");
            // another process count has no history: the default path, no delegate
            Files.delete(out);
            err = capture(false, () -> PdlaCommand.commandLine().execute("run", "-np", "3", "--delegates", "auto", "--db", db.toString(),
                    "--timeout", "120", "--", HelloShim.class.getName(), out.toString()), 0);
            assertTrue(err.contains("delegates: default path, 0 delegate(s)"), err);
            assertEquals("ABC", Files.readString(out));
        } finally {
            settings.keySet().forEach(k -> System.clearProperty("pdla.env." + k));
        }
    }

    @Test
    void autoWithoutADatabaseExits2SayingSo() throws Exception {
        String err = capture(false, () -> PdlaCommand.commandLine().execute("run", "-np", "2", "--delegates", "auto", "--", "Main"), 2);
        assertTrue(err.contains("--delegates auto needs --db"), err);
        err = capture(false, () -> PdlaCommand.commandLine().execute("run", "-np", "2", "--delegates", "some", "--", "Main"), 2);
        assertTrue(err.contains("'some'"), err);
    }
}
