package io.pdla.intercept;

import java.util.Map;

/**
 * Makes an interceptor known to the shim by name, through {@link java.util.ServiceLoader}. The
 * {@link #order()} fixes its place in the chain whatever order users list names in: lower is outer.
 * pdla's own: tracer 100, redirect 200, delegate 300.
 */
public interface IoInterceptorProvider {
    String name();

    int order();

    /**
     * Whether this interceptor must see an open even when the configuration does not name it (not even with
     * "none"): a guard of consistency rather than an optional service. Redirect is one for writers once a
     * replica catalog is configured, since a write it does not see would leave a replica stale unnoticed.
     */
    default boolean requiredFor(Map<String, String> hints, boolean writable) {
        return false;
    }

    /**
     * Work worth doing once at a rank's start, before its first open, when the process's settings (system properties,
     * environment; no open's hints exist yet) turn this interceptor on: e.g. running code that every read of the
     * first pass runs, so that the JIT has compiled it by then. Called on the rank's warm-up thread
     * ({@code RankWarmup}), never on the application's; whatever it throws is ignored there.
     */
    default void warmUp() {
    }

    /**
     * For {@link #warmUp}: loads and initialises {@code classes} (those a rank's first open through the interceptor
     * would load: each rank loads its own copy of a class not shared by the ranks, which cost the first open tens of
     * milliseconds on a busy machine). One that cannot be initialised is passed over; its use at the open reports it.
     */
    static void initialise(Class<?>... classes) {
        for (Class<?> c : classes) {
            try {
                Class.forName(c.getName(), true, c.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                // the open that needs it fails the same way and reports it
            }
        }
    }

    /** A fresh interceptor for one rank's job, configured from the open's hints. */
    IoInterceptor create(Map<String, String> hints);
}
