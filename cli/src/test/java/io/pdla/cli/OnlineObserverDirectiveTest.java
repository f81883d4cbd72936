package io.pdla.cli;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.IoInterceptor;
import io.pdla.mpiio.launch.MpjJob;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rank JVMs' compile directive names online PDLA's per-read hook by text ({@link MpjJob#ONLINE_OBSERVER}: the launcher
 * does not depend on pattern-analyzer); a rename would leave a directive that matches nothing, and the straight path's
 * compiled call site would inline the whole matcher again without any test failing.
 */
class OnlineObserverDirectiveTest {
    @Test
    void theDirectiveNamesOnlinePdlasObservedHook() throws Exception {
        String[] parts = MpjJob.ONLINE_OBSERVER.split("::");
        assertEquals(2, parts.length, MpjJob.ONLINE_OBSERVER);
        Class<?> c = Class.forName(parts[0]);
        assertTrue(IoInterceptor.class.isAssignableFrom(c), c + " is no interceptor");
        Method m = c.getDeclaredMethod(parts[1], FileContext.class, IoOp.class, Positioning.class, long.class, long.class, long.class,
                long.class, long.class);
        assertEquals(IoInterceptor.class.getMethod("observed", m.getParameterTypes()).getName(), m.getName(),
                "the directive must name the override of IoInterceptor.observed, the straight path's per-read call");
    }
}
