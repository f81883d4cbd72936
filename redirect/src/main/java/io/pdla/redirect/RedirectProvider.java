package io.pdla.redirect;

import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.IoInterceptorProvider;

import java.util.Map;

/**
 * Registers the redirect interceptor as {@code redirect}, order 200 (inside the tracer, outside delegates); joins
 * every writer's chain by itself when a replica catalog is configured, and every reader's when online PDLA is on too.
 */
public final class RedirectProvider implements IoInterceptorProvider {
    @Override
    public String name() {
        return "redirect";
    }

    @Override
    public int order() {
        return 200;
    }

    /**
     * Every writer of a file must pass redirect once a catalog is configured: its writes may touch replicated regions.
     * Readers too when online PDLA is on (hint {@value #HINT_ONLINE}): replicas built during the job serve its later opens.
     */
    @Override
    public boolean requiredFor(Map<String, String> hints, boolean writable) {
        return (writable || onlineRequested(hints)) && RedirectConfig.from(hints).catalog() != null;
    }

    /** Online PDLA's on/off setting (pattern-analyzer's {@code OnlineSettings}, read here without depending on it). */
    static final String HINT_ONLINE = "pdla_online";

    static boolean onlineRequested(Map<String, String> hints) {
        String v = hints.get(HINT_ONLINE);
        if (v == null) v = System.getProperty("pdla.online");
        if (v == null) v = io.pdla.intercept.Environment.get("PDLA_ONLINE");
        // a bad value is online PDLA's to report; redirect then joins readers only when named
        return v != null && Boolean.TRUE.equals(io.pdla.hints.HintFlag.tryParse(v));
    }

    /**
     * When the process configures a catalog and online PDLA (every reader's open then passes redirect, and the first
     * one would load these in each rank), the rank's copies of the open path's classes are loaded at its start, and an
     * interceptor is made and dropped: that makes the rank's copies of the classes its construction spins (its stats'
     * per-rank supplier, the replica opener), which the first open made on the rank's thread otherwise.
     */
    @Override
    public void warmUp() {
        if (!onlineRequested(Map.of()) || RedirectConfig.from(Map.of()).catalog() == null) return;
        IoInterceptorProvider.initialise(RedirectInterceptor.class, ReplicaWrites.class, OpenReplica.class, FileRedirect.class,
                io.pdla.catalog.ReplicatedOriginals.class, io.pdla.catalog.CatalogAccesses.class,
                io.pdla.catalog.ReplicaEntry.class, io.pdla.catalog.TransientCatalogAccess.class, io.pdla.catalog.StampedLookups.class,
                ReplicaWatch.class, io.pdla.catalog.WatchLookups.class);
        new RedirectInterceptor(RedirectConfig.from(Map.of()));
    }

    @Override
    public IoInterceptor create(Map<String, String> hints) {
        return new RedirectInterceptor(RedirectConfig.from(hints));
    }
}
