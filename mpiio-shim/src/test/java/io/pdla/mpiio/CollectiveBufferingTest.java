package io.pdla.mpiio;

import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.programs.CollectiveDifferentialProgram;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Two-phase collective I/O against independent I/O, byte for byte, under real MPJ ranks (multicore device). */
class CollectiveBufferingTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void collectiveEqualsIndependentOnRandomViews(int np) throws Exception {
        long seed = Long.getLong("pdla.collective.seed", ThreadLocalRandom.current().nextLong(1_000_000_000L));
        int trials = np >= 8 ? 6 : 12;
        MpjJob.Result r = MpjTestSupport.run(CollectiveDifferentialProgram.class, np, dir.toString(), String.valueOf(seed), String.valueOf(trials));
        List<String> passed = MpjTestSupport.assertAllPassed(r, np);
        assertTrue(passed.size() >= 2 * trials, "seed " + seed + ": expected " + 2 * trials + " passing checks per rank, got " + passed.size() + "\n" + r.output());
    }

    @org.junit.jupiter.api.Test
    void sideBySideReadsAgreeInTheirOwnAllGatherAndStillFailTogether() throws Exception {
        MpjJob.Result r = MpjTestSupport.run(io.pdla.mpiio.programs.CollectiveReadAgreementProgram.class, 4, dir.toString());
        List<String> passed = MpjTestSupport.assertAllPassed(r, 4);
        assertTrue(passed.size() == 4 * 3, "3 checks on 4 ranks\n" + r.output());
    }

    @org.junit.jupiter.api.Test
    void aFailureOnOneRankFailsEveryRankAndWritesNothing() throws Exception {
        MpjJob.Result r = MpjTestSupport.run(io.pdla.mpiio.programs.CollectiveFailureProgram.class, 4, dir.toString());
        List<String> passed = MpjTestSupport.assertAllPassed(r, 4);
        assertTrue(passed.size() == 4 * 6, "6 checks on 4 ranks\n" + r.output());
    }

    @org.junit.jupiter.api.Test
    void hintsAreValidatedReportedAndOrderedCallsAggregate() throws Exception {
        MpjJob.Result r = MpjTestSupport.run(io.pdla.mpiio.programs.CollectiveHintsProgram.class, 3, dir.toString());
        List<String> passed = MpjTestSupport.assertAllPassed(r, 3);
        assertTrue(passed.size() == 3 * 10, "10 checks on 3 ranks\n" + r.output());
    }
}
