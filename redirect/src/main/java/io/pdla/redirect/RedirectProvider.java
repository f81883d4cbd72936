package io.pdla.redirect;

import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.IoInterceptorProvider;

import java.util.Map;

/** Registers the redirect interceptor as {@code redirect}, order 200 (inside the tracer, outside delegates). */
public final class RedirectProvider implements IoInterceptorProvider {
    @Override
    public String name() {
        return "redirect";
    }

    @Override
    public int order() {
        return 200;
    }

    @Override
    public IoInterceptor create(Map<String, String> hints) {
        return new RedirectInterceptor(RedirectConfig.from(hints));
    }
}
