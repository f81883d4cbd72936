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
        assertTrue(passed.size() == 4 * 4, "4 checks on 4 ranks\n" + r.output());
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {1, 4})
    void steadyReadsSkipTheirMeetingsAndKeepEveryByteAndTheRanksInStep(int np) throws Exception {
        MpjJob.Result r = MpjTestSupport.run(io.pdla.mpiio.programs.SteadyCollectiveReadsProgram.class, np, dir.toString());
        List<String> passed = MpjTestSupport.assertAllPassed(r, np);
        assertTrue(passed.size() == 6 * np, "6 checks on " + np + " ranks\n" + r.output());
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {1, 4})
    void sideBySideCallsOnAnUncachedFileAreGatheredAndOnACachedOneAreNot(int np) throws Exception {
        passesOnDirectIo(io.pdla.mpiio.programs.UncachedGatheringProgram.class, np, 2);
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {1, 4, 8})
    void aStreamOfGatheredReadsIsServedFromReadAheadAndNoChangeIsHidden(int np) throws Exception {
        passesOnDirectIo(io.pdla.mpiio.programs.ReadAheadConsistencyProgram.class, np, 1);
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void aRanksOwnCompletedIwriteIsSeenByItsNextCollectiveRead(int np) throws Exception {
        passesOnDirectIo(io.pdla.mpiio.programs.ReadAheadIwriteProgram.class, np, 1);
    }

    /** Runs an O_DIRECT program on {@code np} ranks: every rank passes its {@code checksPerRank} checks. */
    private void passesOnDirectIo(Class<?> program, int np, int checksPerRank) throws Exception {
        assumeDirectIo(dir);
        MpjJob.Result r = MpjTestSupport.run(program, np, dir.toString());
        List<String> passed = MpjTestSupport.assertAllPassed(r, np);
        assertTrue(passed.size() == checksPerRank * np, checksPerRank + " check(s) on " + np + " ranks\n" + r.output());
    }

    /** Only "no O_DIRECT on this file system" (tmpfs) skips; CI's temporary directory has it. */
    private static void assumeDirectIo(Path dir) throws java.io.IOException {
        io.pdla.storage.OpenOptions o = io.pdla.storage.OpenOptions.createReadWrite().withHints(java.util.Map.of("posix_direct_io", "true"));
        try (io.pdla.storage.StorageFile f = new io.pdla.storage.posix.PosixDriver().open(dir.resolve("probe").toUri(), o)) {
            assertTrue(f.bypassesCache(), "a file opened with direct I/O says it bypasses the cache");
        } catch (io.pdla.storage.StorageException e) {
            if (e.reason() != io.pdla.storage.StorageException.Reason.UNSUPPORTED) throw e;
            org.junit.jupiter.api.Assumptions.assumeTrue(false, "O_DIRECT not supported on the test file system: " + e.getMessage());
        }
        java.nio.file.Files.deleteIfExists(dir.resolve("probe"));
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
