package io.pdla.tracer.runtime;

import io.pdla.intercept.Interceptors;
import io.pdla.intercept.IoInterceptorProvider;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** The shim finds the tracer by name through the ServiceLoader file, outermost. */
class TracerProviderTest {
    @Test
    void activatedByTheInterceptorsHint() {
        List<IoInterceptorProvider> chain = new Interceptors().configured(Map.of(Interceptors.HINT, "tracer"));
        assertEquals(1, chain.size());
        assertEquals("tracer", chain.get(0).name());
        assertEquals(100, chain.get(0).order());
        assertInstanceOf(TracingInterceptor.class, chain.get(0).create(Map.of()));
    }
}
