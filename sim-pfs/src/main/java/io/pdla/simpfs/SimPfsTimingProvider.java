package io.pdla.simpfs;

import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.IoInterceptorProvider;

import java.util.Map;

/** Registers {@link SimPfsTimingInterceptor} as {@code simpfs-timing}, innermost of pdla's interceptors. */
public final class SimPfsTimingProvider implements IoInterceptorProvider {
    @Override
    public String name() {
        return "simpfs-timing";
    }

    @Override
    public int order() {
        return 400;
    }

    @Override
    public IoInterceptor create(Map<String, String> hints) {
        return new SimPfsTimingInterceptor(hints);
    }
}
