package io.pdla.delegate.service;

/**
 * The transport of this rank's job, set by the launcher before the application's main runs. A static is
 * per rank here: multicore ranks each load pdla in their own class loader, niodev ranks are JVMs.
 */
public final class DelegateTransports {
    private static volatile DelegateTransport current;

    private DelegateTransports() {
    }

    public static void install(DelegateTransport transport) {
        current = transport;
    }

    /** The job's transport, or null when the job runs without delegates. */
    public static DelegateTransport current() {
        return current;
    }
}
