package io.pdla.catalog.replica;

/**
 * Crash points for crash-safety tests, as HDFS's fault injectors: with the system property
 * {@value #WRITE_BACK_HALT} set to N, the JVM halts (no shutdown hooks, like SIGKILL) once a write-back has
 * copied N bytes into an original. Unset, every check is one read of a static final field.
 */
final class FaultInjection {
    static final String WRITE_BACK_HALT = "pdla.fault.writeBackHaltAfterBytes";
    private static final long HALT_AFTER = Long.getLong(WRITE_BACK_HALT, -1);

    private FaultInjection() {
    }

    static void writeBackCopied(long bytesSoFar) {
        if (HALT_AFTER >= 0 && bytesSoFar >= HALT_AFTER) Runtime.getRuntime().halt(137);
    }
}
