package io.pdla.cli;

import io.pdla.catalog.Catalog;
import io.pdla.catalog.CatalogAccess;
import io.pdla.catalog.CatalogException;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.TransientCatalogAccess;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.daemon.ReplicaAdmin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code pdla replicas list|show|drop}: the replica catalog (issue 7). Pattern ids are {@code command|np|rank|uri}. */
@Command(name = "replicas", mixinStandardHelpOptions = true,
        description = "List, show or drop replicas in the replica catalog.",
        subcommands = {ReplicasCommand.ListCmd.class, ReplicasCommand.ShowCmd.class, ReplicasCommand.DropCmd.class})
public final class ReplicasCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 0;
    }

    abstract static class Base implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--db", required = true, description = "Replica catalog directory.")
        Path db;

        CatalogAccess catalog() {
            Catalog.openExisting(db).close(); // a clear error when there is no catalog there
            return new TransientCatalogAccess(db, 30_000);
        }

        PatternKey key(String id) {
            try {
                return PatternKey.parse(id);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage(), e);
            }
        }

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            validate();
            try {
                return run(new ReplicaAdmin(catalog()), out);
            } catch (CatalogException | IOException e) {
                spec.commandLine().getErr().println("pdla replicas: " + e.getMessage());
                // a catalog of another schema version (or a damaged version record) is bad input; other failures are not
                return e.getCause() instanceof io.pdla.bdb.SchemaMismatchException ? 2 : 1;
            }
        }

        /** Checks the arguments before the catalog is touched (bad input exits 2). */
        void validate() {
        }

        abstract int run(ReplicaAdmin admin, PrintWriter out) throws IOException;
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "One line per replica: state, space, layout, bytes, pattern id.")
    static final class ListCmd extends Base {
        @Override
        int run(ReplicaAdmin admin, PrintWriter out) throws IOException {
            List<ReplicaEntry> all = admin.list();
            for (ReplicaEntry e : all) out.println(ReplicaAdmin.line(e));
            out.println(all.size() + " replica(s)");
            return 0;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Everything the catalog knows of one replica, and whether it is usable.")
    static final class ShowCmd extends Base {
        @Parameters(paramLabel = "PATTERN-ID")
        String id;

        @Override
        void validate() {
            key(id);
        }

        @Override
        int run(ReplicaAdmin admin, PrintWriter out) throws IOException {
            Optional<List<String>> lines = admin.show(key(id));
            if (lines.isEmpty()) {
                spec.commandLine().getErr().println("pdla replicas: no replica for pattern " + id);
                return 1;
            }
            lines.get().forEach(out::println);
            return 0;
        }
    }

    @Command(name = "drop", mixinStandardHelpOptions = true,
            description = "Removes a replica (catalog entry, then file). A DIRTY replica is written back to its original first; "
                    + "if that fails, nothing is dropped unless --discard-writes says to lose its writes.")
    static final class DropCmd extends Base {
        @Parameters(paramLabel = "PATTERN-ID")
        String id;

        @picocli.CommandLine.Option(names = "--discard-writes",
                description = "Drop a DIRTY replica even if its writes cannot be written back (say, its file was lost): they are gone.")
        boolean discardWrites;

        @Override
        void validate() {
            key(id);
        }

        @Override
        int run(ReplicaAdmin admin, PrintWriter out) throws IOException {
            if (!admin.drop(key(id), discardWrites)) {
                spec.commandLine().getErr().println("pdla replicas: no replica for pattern " + id);
                return 1;
            }
            out.println("dropped " + id);
            return 0;
        }
    }
}
