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

    /** A fresh interceptor for one rank's job, configured from the open's hints. */
    IoInterceptor create(Map<String, String> hints);
}
