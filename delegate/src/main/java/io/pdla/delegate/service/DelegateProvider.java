package io.pdla.delegate.service;

import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.IoInterceptorProvider;

import java.util.Map;

/**
 * The {@code delegate} interceptor (order 300: inside tracer and redirect, so the tracer records the
 * application's calls and redirect serves replicas before anything is shipped; outside simpfs-timing, which
 * then times only what reaches storage from this rank). Required for every open of a job started with
 * delegates, so no configuration can bypass the delegates' caches and break consistency.
 */
public final class DelegateProvider implements IoInterceptorProvider {
    @Override
    public String name() {
        return "delegate";
    }

    @Override
    public int order() {
        return 300;
    }

    @Override
    public boolean requiredFor(Map<String, String> hints, boolean writable) {
        return DelegateTransports.current() != null;
    }

    @Override
    public IoInterceptor create(Map<String, String> hints) {
        DelegateTransport t = DelegateTransports.current();
        if (t == null) {
            throw new IllegalArgumentException("interceptor 'delegate' needs delegate ranks: start the job with pdla run --delegates D");
        }
        return new DelegateInterceptor(t, hints);
    }
}
