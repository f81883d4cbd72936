package io.pdla.redirect;

import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.IoInterceptorProvider;

import java.util.Map;

/**
 * Registers the redirect interceptor as {@code redirect}, order 200 (inside the tracer, outside delegates); joins
 * every writer's chain by itself when a replica catalog is configured.
 */
public final class RedirectProvider implements IoInterceptorProvider {
    @Override
    public String name() {
        return "redirect";
    }

    @Override
    public int order() {
        return 200;
    }

    /** Every writer of a file must pass redirect once a catalog is configured: its writes may touch replicated regions. */
    @Override
    public boolean requiredFor(Map<String, String> hints, boolean writable) {
        return writable && RedirectConfig.from(hints).catalog() != null;
    }

    @Override
    public IoInterceptor create(Map<String, String> hints) {
        return new RedirectInterceptor(RedirectConfig.from(hints));
    }
}
