package io.pdla.replicator.daemon;

import io.pdla.catalog.CatalogAccess;
import io.pdla.catalog.TransientCatalogAccess;
import io.pdla.replicator.construct.LayoutPlanner;
import io.pdla.replicator.construct.ReplicaBuilder;
import io.pdla.replicator.queue.CatalogPatternQueue;
import io.pdla.replicator.queue.PatternQueue;
import io.pdla.storage.StorageDrivers;

import java.io.PrintStream;

/**
 * The replicator's parts wired together from {@link DaemonOptions}: catalog access, queue, builder, scanner
 * and daemon. The catalog is reached per transaction ({@link TransientCatalogAccess}) unless a caller passes
 * its own access, so applications' redirect layers can use it between the daemon's transactions.
 */
public final class Replication {
    public final CatalogAccess catalog;
    public final PatternQueue queue;
    public final ReplicaBuilder builder;
    public final ReplicaScanner scanner;
    public final ReplicatorDaemon daemon;

    public Replication(DaemonOptions o, CatalogAccess catalog, PatternQueue queue, PrintStream progress) {
        this(o, catalog, queue, progress, k -> true);
    }

    /** {@code patternKnown}: whether the pattern database still holds a replica's pattern (the scanner drops it otherwise). */
    public Replication(DaemonOptions o, CatalogAccess catalog, PatternQueue queue, PrintStream progress,
                       java.util.function.Predicate<io.pdla.pattern.PatternKey> patternKnown) {
        StorageDrivers drivers = StorageDrivers.installed();
        if (o.replicaRoot() != null) {
            try {
                io.pdla.catalog.guard.ReplicaGuard.recordRoot(catalog.directory(), o.replicaRoot());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot record replica root " + o.replicaRoot() + " in catalog " + catalog.directory()
                        + " (redirect would refuse its replicas): " + e.getMessage(), e);
            }
        }
        this.catalog = catalog;
        this.queue = queue;
        this.builder = new ReplicaBuilder(catalog, drivers, new LayoutPlanner(o.placement()), o.replicaRoot(), o.chunkBytes(), o.maxBytesPerSecond());
        this.scanner = new ReplicaScanner(catalog, drivers, builder, queue, patternKnown);
        this.daemon = new ReplicatorDaemon(catalog, queue, builder, scanner, progress);
    }

    public static Replication open(DaemonOptions o, PrintStream progress) {
        return open(o, progress, k -> true);
    }

    public static Replication open(DaemonOptions o, PrintStream progress, java.util.function.Predicate<io.pdla.pattern.PatternKey> patternKnown) {
        CatalogAccess c = new TransientCatalogAccess(o.db(), o.catalogWaitMillis());
        return new Replication(o, c, new CatalogPatternQueue(c), progress, patternKnown);
    }
}
