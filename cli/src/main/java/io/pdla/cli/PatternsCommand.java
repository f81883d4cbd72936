package io.pdla.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.pdla.patterns.db.PatternDatabase;
import io.pdla.patterns.db.PatternDatabaseException;
import io.pdla.patterns.db.PatternEntry;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.PatternKey;
import io.pdla.storage.StorageDrivers;
import io.pdla.patterns.db.StoredPattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code pdla patterns list|show|delete --db DIR ...}: the pattern database (issue 5). */
@Command(name = "patterns", mixinStandardHelpOptions = true,
        subcommands = {PatternsCommand.ListPatterns.class, PatternsCommand.Show.class, PatternsCommand.Delete.class},
        description = "List, show or delete stored access patterns.")
public final class PatternsCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--db", paramLabel = "DIR", required = true, scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "pattern database directory")
    Path db;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("pdla patterns: say list, show or delete");
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    private static PatternDatabase open(Path db, boolean readOnly) {
        return PatternDatabase.openExisting(db, readOnly);
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "One line per stored entry.")
    static final class ListPatterns implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @ParentCommand
        PatternsCommand parent;
        @Option(names = "--app", paramLabel = "CMD", description = "only this application (secondary index)")
        String app;
        @Option(names = "--file", paramLabel = "PATH", description = "only this file (secondary index)")
        String file;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (PatternDatabase db = open(parent.db, true)) {
                List<PatternEntry> entries;
                if (app != null && file != null) {
                    entries = db.byApp(app).stream().filter(e -> e.key().file().equals(StorageDrivers.toUri(file))).toList();
                } else if (app != null) {
                    entries = db.byApp(app);
                } else if (file != null) {
                    entries = db.byFile(StorageDrivers.toUri(file));
                } else {
                    entries = db.keys().stream().map(k -> db.get(k).orElseThrow()).toList();
                }
                for (PatternEntry e : entries) {
                    out.println(e.key().command() + "\t" + e.key().processes() + "\t" + e.key().scope() + "\t" + e.key().file()
                            + "\t" + e.patterns().size() + " pattern(s)\t" + e.patterns().get(0).notation());
                }
                out.println(entries.size() + " entries, " + db.queueLength() + " queued for replication");
                out.flush();
                return 0;
            } catch (PatternDatabaseException e) {
                spec.commandLine().getErr().println("pdla patterns list: " + e.getMessage());
                return 2;
            }
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "The patterns and runtime info of one key.")
    static final class Show implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @ParentCommand
        PatternsCommand parent;
        @picocli.CommandLine.Mixin
        KeyOptionsMixin keyOptions;
        @Option(names = "--json", description = "print the stored entry as JSON")
        boolean json;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
            PatternKey key;
            try {
                key = keyOptions.key();
            } catch (IllegalArgumentException e) {
                err.println("pdla patterns show: " + e.getMessage());
                return 2;
            }
            try (PatternDatabase db = open(parent.db, true)) {
                Optional<PatternEntry> e = db.get(key);
                if (e.isEmpty()) {
                    err.println("pdla patterns show: no entry " + key + " in " + parent.db);
                    return 2;
                }
                if (json) {
                    out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(e.get()));
                } else {
                    out.println(key);
                    for (StoredPattern p : e.get().patterns()) {
                        out.println("  " + p.notation());
                        out.println("    closed form: " + p.closedForm().describe());
                        if (!p.members().isEmpty()) out.println("    members (rank, index): " + p.members());
                        if (p.globalIndex() != null) out.println("    part of global pattern #" + p.globalIndex());
                    }
                    out.println("  runtime: " + e.get().runtime());
                }
                out.flush();
                return 0;
            } catch (PatternDatabaseException ex) {
                err.println("pdla patterns show: " + ex.getMessage());
                return 2;
            }
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete one key (and its queue items).")
    static final class Delete implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @ParentCommand
        PatternsCommand parent;
        @picocli.CommandLine.Mixin
        KeyOptionsMixin keyOptions;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
            try {
                PatternKey key = keyOptions.key();
                try (PatternDatabase db = open(parent.db, false)) {
                    if (!db.delete(key)) {
                        err.println("pdla patterns delete: no entry " + key + " in " + parent.db);
                        return 2;
                    }
                    out.println("deleted " + key);
                    out.flush();
                    return 0;
                }
            } catch (IllegalArgumentException e) {
                err.println("pdla patterns delete: " + e.getMessage());
                return 2;
            } catch (PatternDatabaseException e) {
                err.println("pdla patterns delete: " + e.getMessage());
                return 1;
            }
        }
    }

    /** Picocli mixin carrying {@link KeyOptions}. */
    public static class KeyOptionsMixin {
        @Option(names = "--app", required = true, paramLabel = "CMD", description = "application execution command")
        String app;
        @Option(names = "-np", required = true, paramLabel = "N", description = "number of processes")
        int nprocs;
        @Option(names = "--rank", required = true, paramLabel = "R|all", description = "rank, or 'all' for global patterns")
        String rank;
        @Option(names = "--file", required = true, paramLabel = "PATH", description = "original file")
        String file;

        PatternKey key() {
            int r = PatternKey.ALL_RANKS;
            if (!rank.equals("all")) {
                try {
                    r = Integer.parseInt(rank);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--rank must be a rank number or 'all', was '" + rank + "'");
                }
            }
            return new PatternKey(new AppIdentity(app, nprocs), r, StorageDrivers.toUri(file));
        }
    }
}
