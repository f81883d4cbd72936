package io.pdla.mpiio;

import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.launch.RankMain;
import io.pdla.mpiio.programs.DelegateDifferentialProgram;
import io.pdla.mpiio.programs.DelegateWorldProgram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Jobs with I/O delegates under real MPJ ranks (multicore device). */
class DelegateJobTest {
    @TempDir
    Path dir;

    static MpjJob.Result run(Class<?> main, int np, int delegates, List<String> env, String... args) throws Exception {
        MpjJob.Builder b = MpjJob.builder(RankMain.class.getName()).processes(np).delegates(delegates)
                .classPath(MpjJob.currentClassPath()).args(Arrays.asList(args))
                .env(RankMain.ENV_MAIN_CLASS, main.getName());
        for (int i = 0; i + 1 < env.size(); i += 2) b.env(env.get(i), env.get(i + 1));
        return b.build().run(180);
    }

    @Test
    void theApplicationSeesAWorldOfItsOwnRanks() throws Exception {
        MpjJob.Result r = run(DelegateWorldProgram.class, 3, 2, List.of());
        List<String> passed = MpjTestSupport.assertAllPassed(r, 3);
        assertEquals(3 * 3, passed.size(), r.output());
        assertTrue(r.output().lines().noneMatch(l -> l.startsWith("DONE 3") || l.startsWith("DONE 4")), "a delegate ran main:\n" + r.output());
    }

    @ParameterizedTest(name = "np={0} delegates={1}")
    @CsvSource({"2,1", "3,2", "4,3", "8,2"})
    void throughDelegatesEqualsDirect(int np, int delegates) throws Exception {
        long seed = Long.getLong("pdla.delegate.seed", ThreadLocalRandom.current().nextLong(1_000_000_000L));
        int trials = np >= 8 ? 3 : 5;
        Path direct = Files.createDirectories(dir.resolve("direct")), delegated = Files.createDirectories(dir.resolve("delegated"));
        MpjJob.Result a = MpjTestSupport.run(DelegateDifferentialProgram.class, np, direct.toString(), String.valueOf(seed), String.valueOf(trials), "true");
        try {
            MpjTestSupport.assertAllPassed(a, np);
        } catch (AssertionError e) {
            throw new AssertionError("seed " + seed + ", the run WITHOUT delegates failed: " + e.getMessage(), e);
        }
        MpjJob.Result b = run(DelegateDifferentialProgram.class, np, delegates, List.of(), delegated.toString(), String.valueOf(seed), String.valueOf(trials), "true");
        List<String> passed = MpjTestSupport.assertAllPassed(b, np);
        assertEquals(np * trials, passed.size(), "seed " + seed + "\n" + b.output());
        List<Path> files;
        try (Stream<Path> s = Files.list(direct)) {
            files = s.filter(p -> p.getFileName().toString().startsWith("d-")).sorted().toList();
        }
        assertEquals(trials, files.size(), "seed " + seed);
        for (Path f : files) {
            assertArrayEquals(Files.readAllBytes(f), Files.readAllBytes(delegated.resolve(f.getFileName())), "seed " + seed + ": " + f.getFileName());
        }
    }

    @Test
    void overMpjMessagesInsteadOfSharedQueuesTheResultsAreTheSame() throws Exception {
        // one-JVM jobs use shared queues; PDLA_DELEGATE_TRANSPORT=mpj keeps the MPJ transport (niodev's) tested here too
        long seed = ThreadLocalRandom.current().nextLong(1_000_000_000L);
        MpjJob.Result b = run(DelegateDifferentialProgram.class, 3, 2, List.of("PDLA_DELEGATE_TRANSPORT", "mpj"),
                dir.toString(), String.valueOf(seed), "3", "true");
        List<String> passed = MpjTestSupport.assertAllPassed(b, 3);
        assertEquals(3 * 3, passed.size(), "seed " + seed + "\n" + b.output());
    }

    @ParameterizedTest(name = "np={0} delegates={1}")
    @CsvSource({"2,2", "5,3", "6,1"})
    void collectiveAccessThroughDelegatesMatchesTheModel(int np, int delegates) throws Exception {
        long seed = Long.getLong("pdla.delegate.seed", ThreadLocalRandom.current().nextLong(1_000_000_000L));
        int trials = 5;
        MpjJob.Result b = run(DelegateDifferentialProgram.class, np, delegates, List.of(), dir.toString(), String.valueOf(seed), String.valueOf(trials), "true");
        List<String> passed = MpjTestSupport.assertAllPassed(b, np);
        assertEquals(np * trials, passed.size(), "seed " + seed + "\n" + b.output());
    }

    @ParameterizedTest(name = "np={0} delegates={1}")
    @CsvSource({"2,2", "3,2", "4,3"})
    void ranksThatOnlyBypassTheDelegatesAndRanksThatUseThemSeeEachOthersBytes(int np, int delegates) throws Exception {
        MpjJob.Result r = run(io.pdla.mpiio.programs.DelegateMixedProgram.class, np, delegates, List.of(), dir.toString(), "2");
        List<String> passed = MpjTestSupport.assertAllPassed(r, np);
        assertEquals(np * 2, passed.size(), r.output());
    }

    @ParameterizedTest(name = "np={0} delegates={1}")
    @CsvSource({"2,2", "3,1", "4,3"})
    void aWritableCloseReachesTheDelegatesOnlyWhenARankOfTheOpenNeedsIt(int np, int delegates) throws Exception {
        MpjJob.Result r = run(io.pdla.mpiio.programs.DelegateCloseVoteProgram.class, np, delegates, List.of(), dir.toString());
        List<String> passed = MpjTestSupport.assertAllPassed(r, np);
        assertEquals(np * 6, passed.size(), r.output());
    }

    @Test
    void theIdlePathSendsTheDelegatesNothing() throws Exception {
        int np = 3;
        MpjJob.Result r = run(io.pdla.mpiio.programs.DelegateIdleProgram.class, np, 1,
                List.of("PDLA_DELEGATE_FAIL_AFTER", "0", "PDLA_DELEGATE_TIMEOUT_MS", "4000"), dir.toString(), "4000");
        List<String> passed = MpjTestSupport.assertAllPassed(r, np);
        assertEquals(2 * np, passed.size(), r.output());
    }

    @Test
    void aDeadDelegateFailsEveryRanksNextCallWithoutHanging() throws Exception {
        int np = 3;
        // requests before the "death": np writes (each opening the file at the delegate for its rank), np syncs
        MpjJob.Result r = run(io.pdla.mpiio.programs.DelegateFaultProgram.class, np, 1,
                List.of("PDLA_DELEGATE_FAIL_AFTER", String.valueOf(2 * np), "PDLA_DELEGATE_TIMEOUT_MS", "3000"), dir.toString());
        List<String> passed = MpjTestSupport.assertAllPassed(r, np);
        assertEquals(4 * np, passed.size(), r.output());
        assertTrue(r.output().contains("did not answer within 3000 ms"), r.output());
    }
}
