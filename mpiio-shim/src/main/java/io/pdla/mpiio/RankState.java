package io.pdla.mpiio;

import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.IoInterceptorProvider;
import io.pdla.intercept.Interceptors;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * State that belongs to one MPI process: the interceptor instances (one tracer per rank, whatever the
 * number of files) and the files it has open. Static on purpose: under MPJ's multicore device each rank
 * loads this class with its own class loader, and under niodev each rank is its own JVM, so a static here
 * is per rank either way.
 */
final class RankState {
    private static final Map<String, IoInterceptor> INTERCEPTORS = new HashMap<>();
    private static final Map<URI, Integer> OPEN = new ConcurrentHashMap<>();
    private static Interceptors registry;

    private RankState() {
    }

    static synchronized List<IoInterceptor> interceptors(Map<String, String> hints, boolean writable) {
        if (registry == null) registry = new Interceptors();
        List<IoInterceptor> out = new ArrayList<>();
        for (IoInterceptorProvider p : registry.configured(hints, writable)) {
            out.add(INTERCEPTORS.computeIfAbsent(p.name(), n -> p.create(hints)));
        }
        return out;
    }

    // made at class initialisation (the rank's warm-up), not linked at the rank's first open and close
    private static final java.util.function.BiFunction<Integer, Integer, Integer> ONE_MORE = Integer::sum;
    private static final java.util.function.BiFunction<URI, Integer, Integer> ONE_LESS = (u, n) -> n == 1 ? null : n - 1;

    static void opened(URI uri) {
        OPEN.merge(uri, 1, ONE_MORE);
    }

    static void closed(URI uri) {
        OPEN.computeIfPresent(uri, ONE_LESS);
    }

    static boolean isOpen(URI uri) {
        return OPEN.containsKey(uri);
    }
}
