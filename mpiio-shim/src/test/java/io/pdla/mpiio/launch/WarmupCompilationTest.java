package io.pdla.mpiio.launch;

import io.pdla.straight.StraightPathWarmupCalls;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * In a rank JVM the straight path is C2-compiled during the rank's warm-up, before a job's first read, although rank
 * JVMs take C2 only after ten times the JDK's thresholds: their JIT options scale the shared path's thresholds back
 * ({@link MpjJob#SHARED_READ_PATH}). Without that scaling the same warm-up leaves it to the job's third iteration of
 * 16 KiB reads, which is what the control shows.
 */
class WarmupCompilationTest {
    @Test
    void theRankJvmsOptionsHaveTheWarmupCompileTheStraightPathWithC2() throws Exception {
        String out = run(MpjJob.RANK_JIT_OPTIONS, 30);
        assertTrue(out.contains("warm-up reads " + StraightPathWarmupCalls.CALLS + " "), "the warm-up did not make all its calls: " + out);
        assertTrue(out.contains("C2 yes"), "C2 did not compile StraightPath.independent within 30 s of the warm-up: " + out);
    }

    @Test
    void withoutTheScalingTheWarmupIsTooShortForC2() throws Exception {
        List<String> unscaled = MpjJob.RANK_JIT_OPTIONS.stream().filter(o -> !o.contains("CompileThresholdScaling")).toList();
        assertTrue(unscaled.size() < MpjJob.RANK_JIT_OPTIONS.size(), "the rank options scale no thresholds: " + MpjJob.RANK_JIT_OPTIONS);
        String out = run(unscaled, 3);
        assertTrue(out.contains("warm-up reads " + StraightPathWarmupCalls.CALLS + " "), "the warm-up did not make all its calls: " + out);
        assertTrue(out.contains("C2 no"), "C2 compiled the path without the scaling, so the test cannot tell what the scaling does: " + out);
    }

    private static String run(List<String> jitOptions, int waitSeconds) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jitOptions);
        // C2's thresholds otherwise grow with its queue's length (and methods wait at tier 2 while it is long), which on
        // a loaded machine is noise about the JVM's start-up, not about these options: the test asks what they do
        cmd.add("-XX:Tier4LoadFeedback=1000");
        cmd.add("-XX:Tier3DelayOn=1000");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(WarmupCompilationProgram.class.getName());
        cmd.add(Integer.toString(waitSeconds));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(waitSeconds + 60L, TimeUnit.SECONDS)) throw new AssertionError("the warm-up JVM did not end within " + (waitSeconds + 60) + " s");
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.exitValue() == 0 && out.contains("warm-up reads "), "the warm-up JVM failed: " + out);
            return out;
        } finally {
            p.destroyForcibly();
        }
    }
}
