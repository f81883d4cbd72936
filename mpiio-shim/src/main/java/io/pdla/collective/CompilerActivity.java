package io.pdla.collective;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * Whether the JVM's JIT compilers finished any work since the last time this object was asked: how a rank kept
 * waiting in a collective tells a rank that the compiler threads keep off a core (a job's first iterations: park and
 * leave the core to them) from one that merely waits its turn among more rank threads than cores (steady state: keep
 * yielding, and pay no wake-up). One per waiting rank's exchange; asked only once a wait has outlasted the short
 * yield, so the bean's read stays off the everyday path.
 */
class CompilerActivity {
    private long lastMillis = -1;

    /** Made at the first long wait, not at the open: the platform beans' start-up stays off a job's first calls. */
    private static final class Compiler {
        static final CompilationMXBean BEAN = bean();

        private static CompilationMXBean bean() {
            CompilationMXBean b = ManagementFactory.getCompilationMXBean();
            return b != null && b.isCompilationTimeMonitoringSupported() ? b : null;
        }
    }

    /** True when the compilers worked since the previous call, or when the JVM cannot tell (the safe answer: park). */
    boolean busySinceLastAsked() {
        CompilationMXBean compiler = Compiler.BEAN;
        if (compiler == null) return true;
        long now = compiler.getTotalCompilationTime();
        boolean busy = now != lastMillis;
        lastMillis = now;
        return busy;
    }
}
