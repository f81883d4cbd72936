package io.pdla.tracer.runtime;

/** Control of the in-process tracer for embedders and tests. */
public final class Tracing {
    private Tracing() {
    }

    /**
     * Seals every rank's trace and writes its summary, as the JVM shutdown hook does; for programs that run
     * several traced jobs in one JVM (tests, benchmarks). Files still open are not traced afterwards.
     */
    public static void finishAll() {
        RankTracer.shutdownAll();
    }
}
