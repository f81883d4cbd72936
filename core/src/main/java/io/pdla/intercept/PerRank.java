package io.pdla.intercept;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Supplier;

/**
 * A value of which every MPJ rank has its own, for the static state of pdla's classes. Under MPJ's multicore device
 * the ranks are threads of one JVM; when pdla's MPI-free classes are loaded once per JVM (the launcher's shared
 * classes, {@code PDLA_SHARED_CLASSES}) a plain static would be one for all ranks. What tells ranks apart is the
 * thread's context class loader: MPJ's multicore starter gives each rank thread its own (the loader of the rank's
 * copy of the application and of MPJ), and threads a rank starts inherit it. In a JVM of one rank (niodev, the
 * command line, tests) there is one such loader and so one value, as a plain static.
 *
 * <p>Look a value up where a rank starts using it (an interceptor's construction, an open), not per I/O call: the
 * look-up takes a lock.
 */
public final class PerRank<T> {
    /** The key of threads without a context class loader. */
    private static final Object NO_LOADER = new Object();

    private final Supplier<T> initial;
    /** Weak keys: a rank's loader that is gone takes its value with it (a value must not hold its own loader). */
    private final Map<Object, T> values = new WeakHashMap<>();

    private PerRank(Supplier<T> initial) {
        this.initial = initial;
    }

    public static <T> PerRank<T> of(Supplier<T> initial) {
        return new PerRank<>(initial);
    }

    /** The calling rank's value, made by the supplier at its first look-up. */
    public synchronized T get() {
        Object key = key();
        T v = values.get(key);
        if (v == null) {
            v = initial.get();   // no computeIfAbsent lambda: every rank's first open looks values up
            values.put(key, v);
        }
        return v;
    }

    /** Replaces the calling rank's value. */
    public synchronized void set(T value) {
        values.put(key(), value);
    }

    /** Every rank's value made so far in this JVM, for what ends a JVM's work (shutdown, tests). */
    public synchronized List<T> all() {
        return new ArrayList<>(values.values());
    }

    private static Object key() {
        ClassLoader l = Thread.currentThread().getContextClassLoader();
        return l == null ? NO_LOADER : l;
    }
}
