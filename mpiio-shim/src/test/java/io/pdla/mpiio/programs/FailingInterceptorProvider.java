package io.pdla.mpiio.programs;

import io.pdla.access.IoOp;
import io.pdla.intercept.IoCall;
import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.IoInterceptorProvider;

import java.util.Map;

/** A test interceptor that throws a RuntimeException on the writes of the rank named by hint {@code test_fail_rank}. */
public final class FailingInterceptorProvider implements IoInterceptorProvider {
    @Override
    public String name() {
        return "test-fail";
    }

    @Override
    public int order() {
        return 150;
    }

    @Override
    public IoInterceptor create(Map<String, String> hints) {
        int failing = Integer.parseInt(hints.getOrDefault("test_fail_rank", "-1"));
        return new IoInterceptor() {
            @Override
            public long intercept(IoCall call, Chain next) throws java.io.IOException {
                if (call.op() == IoOp.WRITE && call.file().rank() == failing) throw new IllegalStateException("injected failure on rank " + failing);
                return next.proceed(call);
            }
        };
    }
}
