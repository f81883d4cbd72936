package io.pdla.storage.posix;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;

/**
 * Unmaps a mapping at once, through {@code sun.misc.Unsafe.invokeCleaner} (module jdk.unsupported, open to the
 * class path): the JDK unmaps only when the buffer is garbage collected. Callers must drop every view of the
 * buffer first; touching one afterwards crashes the JVM.
 */
final class Unmapper {
    private static final Object UNSAFE;
    private static final Method INVOKE_CLEANER;
    static final boolean AVAILABLE;

    static {
        Object unsafe = null;
        Method invoke = null;
        try {
            Class<?> c = Class.forName("sun.misc.Unsafe");
            Field f = c.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            unsafe = f.get(null);
            invoke = c.getMethod("invokeCleaner", ByteBuffer.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            unsafe = null;
            invoke = null;
        }
        UNSAFE = unsafe;
        INVOKE_CLEANER = invoke;
        AVAILABLE = invoke != null;
    }

    private Unmapper() {
    }

    static void unmap(ByteBuffer mapping) {
        try {
            INVOKE_CLEANER.invoke(UNSAFE, mapping);
        } catch (ReflectiveOperationException e) {
            // left to the garbage collector, as the JDK would
        }
    }
}
