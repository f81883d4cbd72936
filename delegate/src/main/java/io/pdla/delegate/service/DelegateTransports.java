package io.pdla.delegate.service;

/**
 * The transport of this rank's job, set by the launcher before the application's main runs. Kept per rank
 * ({@link io.pdla.intercept.PerRank}): multicore ranks may share this class (the launcher's shared classes) and
 * each installs its own transport; niodev ranks are JVMs.
 */
public final class DelegateTransports {
    private static final io.pdla.intercept.PerRank<DelegateTransport> CURRENT = io.pdla.intercept.PerRank.of(() -> null);

    private DelegateTransports() {
    }

    public static void install(DelegateTransport transport) {
        CURRENT.set(transport);
    }

    /** The job's transport, or null when the job runs without delegates. */
    public static DelegateTransport current() {
        return CURRENT.get();
    }
}
