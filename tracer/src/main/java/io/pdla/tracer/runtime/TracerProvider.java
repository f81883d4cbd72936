package io.pdla.tracer.runtime;

import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.IoInterceptorProvider;

import java.util.Map;

/** Registers the tracer with the shim under the name {@value #NAME}, outermost (order 100). */
public final class TracerProvider implements IoInterceptorProvider {
    public static final String NAME = "tracer";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int order() {
        return 100;
    }

    @Override
    public IoInterceptor create(Map<String, String> hints) {
        return new TracingInterceptor(hints);
    }
}
