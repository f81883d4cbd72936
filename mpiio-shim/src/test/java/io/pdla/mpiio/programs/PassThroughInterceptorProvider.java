package io.pdla.mpiio.programs;

import io.pdla.intercept.IoCall;
import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.IoInterceptorProvider;

import java.io.IOException;
import java.util.Map;

/**
 * An interceptor that passes every call on unchanged: a file that names it ({@code pdla_interceptors=test-pass-through})
 * has a chain that is not bare, so its everyday calls take the shim's general path instead of the straight one.
 * What {@code PlainCallDifferentialProgram} compares against.
 */
public final class PassThroughInterceptorProvider implements IoInterceptorProvider {
    public static final String NAME = "test-pass-through";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int order() {
        return 150;
    }

    @Override
    public IoInterceptor create(Map<String, String> hints) {
        return new IoInterceptor() {
            @Override
            public long intercept(IoCall call, Chain chain) throws IOException {
                return chain.proceed(call);
            }
        };
    }
}
