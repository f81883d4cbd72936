package io.pdla.mpiio.launch;

import io.pdla.straight.StraightPathWarmup;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingStream;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs the straight path's warm-up in a JVM started with a rank JVM's JIT options and prints whether C2 compiled the
 * straight path's read ({@code StraightPath.independent}) by {@code argv[0]} seconds after it: "C2 yes" or "C2 no".
 * The JVM's own compilation events tell (JFR's jdk.Compilation), recorded from before the warm-up starts.
 */
public final class WarmupCompilationProgram {
    public static void main(String[] argv) throws Exception {
        long waitSeconds = Long.parseLong(argv[0]);
        CountDownLatch compiled = new CountDownLatch(1);
        try (RecordingStream events = new RecordingStream()) {
            events.enable("jdk.Compilation").withThreshold(Duration.ZERO);
            events.onEvent("jdk.Compilation", e -> {
                RecordedMethod m = e.getValue("method");
                if (m.getType().getName().equals("io.pdla.straight.StraightPath") && m.getName().equals("independent")
                        && e.getShort("compileLevel") == 4 && e.getBoolean("succeded")) {
                    compiled.countDown();
                }
            });
            events.startAsync();
            int reads = StraightPathWarmup.run();
            boolean c2 = compiled.await(waitSeconds, TimeUnit.SECONDS);
            System.out.println("warm-up reads " + reads + " C2 " + (c2 ? "yes" : "no"));
        }
    }
}
