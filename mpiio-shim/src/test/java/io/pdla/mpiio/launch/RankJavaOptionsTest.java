package io.pdla.mpiio.launch;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** PDLA_RANK_JAVA_OPTIONS reaches every rank JVM of a job pdla starts; a word that is not an option is refused, named. */
class RankJavaOptionsTest {
    @Test
    void theOptionsReachTheRankJvm() throws Exception {
        MpjJob.Result r = MpjJob.builder(RankJavaOptionsProgram.class.getName()).processes(2).classPath(MpjJob.currentClassPath())
                .env(MpjJob.ENV_RANK_JAVA_OPTIONS, "-Dpdla.rank.probe=42  -XX:TieredStopAtLevel=1").build().run(60);
        assertTrue(r.succeeded(), r.output());
        assertTrue(r.output().contains("RANK 0 probe=42") && r.output().contains("RANK 1 probe=42"), r.output());
    }

    @Test
    void rankJvmsTakeC2LaterUnlessTheUserSaysOtherwise() throws Exception {
        MpjJob.Result byDefault = MpjJob.builder(RankJavaOptionsProgram.class.getName()).processes(2).classPath(MpjJob.currentClassPath())
                .env(MpjJob.ENV_RANK_JAVA_OPTIONS, "").build().run(60);
        assertTrue(byDefault.succeeded(), byDefault.output());
        assertTrue(byDefault.output().contains("RANK 0 probe=null tier4=50000 ") && byDefault.output().contains("RANK 1 probe=null tier4=50000 "),
                byDefault.output());
        MpjJob.Result own = MpjJob.builder(RankJavaOptionsProgram.class.getName()).processes(2).classPath(MpjJob.currentClassPath())
                .env(MpjJob.ENV_RANK_JAVA_OPTIONS, "-XX:Tier4InvocationThreshold=5000").build().run(60);
        assertTrue(own.succeeded(), own.output());
        assertTrue(own.output().contains("RANK 0 probe=null tier4=5000 "), "the user's threshold wins: " + own.output());
    }

    /**
     * Online PDLA's per-read hook is kept out of the straight path's compiled call site (MpjJob.ONLINE_OBSERVER), and
     * the JVM does not echo that directive into the job's output, which programs and scripts read.
     */
    @Test
    void onlinePdlasHookIsNotInlinedAndTheDirectiveIsNotEchoed() throws Exception {
        MpjJob.Result r = MpjJob.builder(RankJavaOptionsProgram.class.getName()).processes(2).classPath(MpjJob.currentClassPath())
                .env(MpjJob.ENV_RANK_JAVA_OPTIONS, "").build().run(60);
        assertTrue(r.succeeded(), r.output());
        assertTrue(r.output().contains("RANK 0 probe=null tier4=50000 onlineObserverInlined=false")
                && r.output().contains("RANK 1 probe=null tier4=50000 onlineObserverInlined=false"), r.output());
        assertFalse(r.output().contains("CompileCommand"), "the JVM echoed a compile directive: " + r.output());
    }

    @Test
    void aWordThatIsNotAnOptionIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MpjJob.builder("Main")
                .env(MpjJob.ENV_RANK_JAVA_OPTIONS, "-Xmx1g TieredStopAtLevel=1").build());
        assertTrue(e.getMessage().contains("'TieredStopAtLevel=1' is not a JVM option"), e.getMessage());
    }
}
