package io.pdla.cli;

import io.pdla.catalog.Catalog;
import io.pdla.catalog.CatalogException;
import io.pdla.replicator.daemon.DaemonOptions;
import io.pdla.replicator.daemon.FileSync;
import io.pdla.replicator.daemon.Replication;
import io.pdla.storage.StorageDrivers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code pdla sync FILE}: brings FILE and its replicas up to date now: DIRTY replicas written back, stale ones rebuilt. */
@Command(name = "sync", mixinStandardHelpOptions = true,
        description = "Writes the DIRTY replicas of FILE back to it, rebuilds its stale, changed or missing replicas, and ends dead writers' sessions (those of this host, and of hosts named by --host-down).")
public final class SyncCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The original file (path or URI).")
    String file;

    @Option(names = "--db", required = true, description = "Replica catalog directory.")
    Path db;

    @Option(names = "--host-down", paramLabel = "HOST",
            description = "A host that is down (repeatable): end the write sessions its processes held, which no process elsewhere can judge. "
                    + "Say it only when nothing of pdla runs there any more (docs/cluster.md).")
    java.util.Set<String> hostsDown = new java.util.HashSet<>();

    @Override
    public Integer call() {
        URI uri;
        try {
            uri = StorageDrivers.toUri(file);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        try {
            Catalog.openExisting(db).close();
            for (String line : new FileSync(Replication.open(DaemonOptions.defaults(db), null)).sync(uri, hostsDown)) spec.commandLine().getOut().println(line);
            return 0;
        } catch (CatalogException | IOException e) {
            spec.commandLine().getErr().println("pdla sync: " + e.getMessage());
            return 1;
        }
    }
}
