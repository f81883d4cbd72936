package io.pdla.patterns.online;

import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.IoInterceptorProvider;

import java.util.Map;

/**
 * Registers online PDLA as {@code online}, order 150 (inside the tracer, outside redirect). It joins an open's chain
 * when named, or by itself when the hint {@value OnlineSettings#HINT_ONLINE} (or {@code PDLA_ONLINE}) turns it on.
 */
public final class OnlineProvider implements IoInterceptorProvider {
    @Override
    public String name() {
        return "online";
    }

    @Override
    public int order() {
        return 150;
    }

    @Override
    public boolean requiredFor(Map<String, String> hints, boolean writable) {
        try {
            return !writable && OnlineSettings.requested(hints);
        } catch (IllegalArgumentException e) {
            // a bad on/off value must not fail the open: online PDLA stays off (the launcher checks it first)
            return false;
        }
    }

    @Override
    public IoInterceptor create(Map<String, String> hints) {
        return new OnlineInterceptor();
    }
}
