package io.pdla.mpiio;

import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.programs.PlainCallDifferentialProgram;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The everyday independent and collective calls' straight paths end every call as the general path does
 * ({@link PlainCallDifferentialProgram}, {@link io.pdla.mpiio.programs.PlainCollectiveDifferentialProgram}): on POSIX
 * files, and on the counting test driver, which also shows the straight path taken. A fresh seed each run, printed with the outcome, so a failure can be replayed.
 */
class PlainCallDifferentialTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} ranks, {1}")
    @CsvSource({"1, posix", "2, posix", "2, failfs"})
    void straightAndGeneralPathsAgree(int np, String store) throws Exception {
        long seed = Long.getLong("pdla.test.seed", System.nanoTime());   // -DargLine=-Dpdla.test.seed=S replays a run
        MpjJob.Result r = MpjTestSupport.run(PlainCallDifferentialProgram.class, np, dir.toString(), Long.toString(seed), "3000", store);
        List<String> passed = MpjTestSupport.assertAllPassed(r, np);
        assertEquals(np, passed.size(), "seed " + seed + ":\n" + r.output());
    }

    /** The collective calls' straight path ({@link io.pdla.mpiio.programs.PlainCollectiveDifferentialProgram}), ranks of both paths in one call. */
    @ParameterizedTest(name = "collective, {0} ranks, {1}")
    @CsvSource({"1, posix", "2, posix", "4, posix", "3, failfs"})
    void straightAndGeneralCollectiveCallsAgree(int np, String store) throws Exception {
        long seed = Long.getLong("pdla.test.seed", System.nanoTime());   // -DargLine=-Dpdla.test.seed=S replays a run
        MpjJob.Result r = MpjTestSupport.run(io.pdla.mpiio.programs.PlainCollectiveDifferentialProgram.class, np, dir.toString(),
                Long.toString(seed), "600", store);
        List<String> passed = MpjTestSupport.assertAllPassed(r, np);
        assertEquals(np, passed.size(), "seed " + seed + ":\n" + r.output());
    }

    /** The chain's per-open answer (IoInterceptor.observesOnly(FileContext)) is asked after the open's hooks ran. */
    @org.junit.jupiter.api.Test
    void anInterceptorThatOnlyWatchesOneOpenIsToldOfItsCallsAndPassedTheOthers() throws Exception {
        MpjJob.Result r = MpjTestSupport.run(io.pdla.mpiio.programs.PerOpenWatcherProgram.class, 2, dir.toString());
        MpjTestSupport.assertAllPassed(r, 2);
    }

    /** Interceptors' wish for rank 0's share at open (IoInterceptor.wantsRankZeroAtOpen) is gathered in the open's meeting. */
    @org.junit.jupiter.api.Test
    void everyRankIsToldAlikeWhetherAnyRankWantedRankZerosShareAtOpen() throws Exception {
        MpjJob.Result r = MpjTestSupport.run(io.pdla.mpiio.programs.RankZeroWishProgram.class, 3, dir.toString());
        MpjTestSupport.assertAllPassed(r, 3);
    }

    @org.junit.jupiter.api.Test
    void aStraightCallsHintThatIsNoFlagFailsTheOpenNamingIt() throws Exception {
        MpjJob.Result r = MpjTestSupport.run(io.pdla.mpiio.programs.BadStraightHintProgram.class, 1, dir.toString());
        MpjTestSupport.assertAllPassed(r, 1);
    }
}
