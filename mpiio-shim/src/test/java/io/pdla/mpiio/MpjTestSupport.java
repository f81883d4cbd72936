package io.pdla.mpiio;

import io.pdla.mpiio.launch.MpjJob;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs a program of this module's test classes as an MPJ job and checks its PASS/FAIL lines. */
public final class MpjTestSupport {
    private MpjTestSupport() {
    }

    public static MpjJob.Result run(Class<?> main, int np, String... args) throws Exception {
        MpjJob job = MpjJob.builder(main.getName()).processes(np)
                .classPath(MpjJob.currentClassPath()).args(Arrays.asList(args)).build();
        return job.run(120);
    }

    /** Asserts the job ended well, no check failed, and every rank finished all checks. */
    public static List<String> assertAllPassed(MpjJob.Result r, int np) {
        String out = r.output();
        assertFalse(r.timedOut(), "job timed out:\n" + out);
        List<String> fails = out.lines().filter(l -> l.startsWith("FAIL ")).collect(Collectors.toList());
        assertTrue(fails.isEmpty(), "failed checks: " + fails + "\n" + out);
        for (int rank = 0; rank < np; rank++) {
            String done = "DONE " + rank + " failures=0";
            assertTrue(out.lines().anyMatch(done::equals), "rank " + rank + " did not finish:\n" + out);
        }
        assertEquals(0, r.exitCode(), "exit code\n" + out);
        return out.lines().filter(l -> l.startsWith("PASS ")).collect(Collectors.toList());
    }
}
