package io.pdla.cli;

import io.pdla.catalog.TransientCatalogAccess;
import io.pdla.patterns.db.PatternDatabase;
import java.io.IOException;

import io.pdla.costmodel.ModelParameters;
import io.pdla.replicator.construct.PlacementConfig;
import io.pdla.replicator.daemon.DaemonMain;
import io.pdla.replicator.daemon.DaemonOptions;
import io.pdla.size.ByteSizeConverter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code pdla daemon}: builds replicas for the patterns in the replication queue (issue 7). {@code --once}
 * processes the queue and exits; otherwise it polls until SIGTERM, which stops it cleanly.
 */
@Command(name = "daemon", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Replicator daemon: builds one replica per queued pattern, laid out by the cost model, "
                + "published atomically in the replica catalog.",
            "Sizes: bytes or a binary unit k, m, g, t (4k = 4KiB = 4096; see the README)."})
public final class DaemonCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--db", required = true, description = "Replica catalog directory (Berkeley DB environment).")
    Path db;

    @Option(names = "--patterns", description = "Pattern database of `pdla analyze --db`: its queued patterns are taken into the replication queue first, "
            + "and replicas of the applications it analysed whose pattern it no longer holds (`pdla patterns delete`) are removed. "
            + "Without --once it is looked at again before every pass (patterns stored meanwhile, e.g. by a job under `pdla run --online`, "
            + "are taken), and one that does not exist yet is waited for.")
    Path patterns;

    @Option(names = "--once", description = "Process the queue once and exit.")
    boolean once;

    @Option(names = "--replica-root", description = "Directory URI for replicas (default: .pdla-replicas/ beside each original).")
    String replicaRoot;

    @Option(names = "--hservers", defaultValue = "8", description = "HDD servers (default ${DEFAULT-VALUE}).")
    int hServers;

    @Option(names = "--sservers", defaultValue = "0", description = "SSD servers; 0 = H-PDLA only (default ${DEFAULT-VALUE}).")
    int sServers;

    @Option(names = "--ssd-space", defaultValue = "0", converter = ByteSizeConverter.class,
            description = "Space for replicas on one SServer, a size (default ${DEFAULT-VALUE}).")
    long ssdSpace;

    @Option(names = "--stripe", defaultValue = "64k", converter = ByteSizeConverter.class,
            description = "Stripe size of 1-DH/2-D replicas (default ${DEFAULT-VALUE}).")
    long stripe;

    @Option(names = "--threshold", defaultValue = "0", description = "Critical-pattern benefit threshold in seconds (default ${DEFAULT-VALUE}).")
    double threshold;

    @Option(names = "--processes-per-node", defaultValue = "1", description = "Processes per client node m (default ${DEFAULT-VALUE}).")
    int perNode;

    @Option(names = "--rate", defaultValue = "0", converter = ByteSizeConverter.class,
            description = "Copy rate limit, a size per second (e.g. 100m), 0 = none (default ${DEFAULT-VALUE}).")
    long rate;

    @Option(names = "--poll", defaultValue = "5000", description = "Milliseconds between passes (default ${DEFAULT-VALUE}); "
            + "with --patterns a hand-off of a running job (online PDLA) starts a pass at once, so the poll is only the fallback "
            + "for a spool a directory watch cannot see (NFS written from other hosts). The catalog is scanned at most every 2 s.")
    long poll;

    @Option(names = "--gather-ms", defaultValue = "" + io.pdla.replicator.daemon.ReplicatorDaemon.DEFAULT_GATHER_MILLIS,
            description = "Running daemon: how long to wait for the rest of a job's ranks' patterns of a file (online hand-offs come rank "
            + "by rank) before combining them into one replica holding rank after rank (default ${DEFAULT-VALUE}); -1: one replica per "
            + "rank's pattern, as --once always builds.")
    long gatherMs;

    @Option(names = "--no-warmup", description = "Do not replicate a scratch file (3 x 16 MiB, beside the catalog or in "
            + "--replica-root, deleted afterwards) at start. The warm-up compiles the build path before the first hand-off, "
            + "so a fresh daemon's first replica copies at the speed of its later ones.")
    boolean noWarmup;

    @Override
    public Integer call() {
        DaemonOptions o;
        try {
            PlacementConfig p = new PlacementConfig(hServers, sServers, ssdSpace, threshold,
                    ModelParameters.defaults(), perNode, stripe);
            o = DaemonOptions.defaults(db).withPlacement(p).withReplicaRoot(replicaRoot == null ? null : URI.create(replicaRoot))
                    .withRate(4 << 20, rate).withPollMillis(poll).withGatherMillis(gatherMs).withWarmUp(!noWarmup && !once);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        java.util.function.Predicate<io.pdla.pattern.PatternKey> known = k -> true;
        if (patterns != null && !once) warmUpIntake();
        if (patterns != null && io.pdla.patterns.db.PatternSpool.pending(patterns)) {
            // hand-offs of jobs under `pdla run --online` that no daemon took yet
            try (PatternDatabase pdb = PatternDatabase.open(patterns)) {
                int n = io.pdla.patterns.online.HandedInPasses.drainInto(pdb, p -> System.out.println("pdla daemon: " + p));
                System.out.println("pdla daemon: stored " + n + " pattern(s) handed in by online PDLA into " + patterns);
            } catch (IOException | RuntimeException e) {
                System.err.println("pdla daemon: cannot store the patterns handed in to " + patterns + ": " + e.getMessage());
                return 2;
            }
        }
        if (patterns != null && !once && !io.pdla.bdb.JeEnvironments.exists(patterns)) {
            System.out.println("pdla daemon: no pattern database at " + patterns + " yet; its patterns are taken once it exists");
            PatternFollower follow = new PatternFollower(patterns, new TransientCatalogAccess(db, 10_000), System.out, known);
            return DaemonMain.run(o, false, follow.known(), follow);
        }
        if (patterns != null) {
            try (PatternDatabase pdb = PatternDatabase.openExisting(patterns, false)) {
                AnalyzedPatterns.Transfer t = AnalyzedPatterns.transfer(pdb, new TransientCatalogAccess(db, 10_000), System.out);
                System.out.println("pdla daemon: took " + t.offered() + " pattern(s) from " + patterns + " (" + t.skipped() + " not replicable)");
                // the scanner drops replicas whose pattern the database no longer holds (as of this start)
                known = AnalyzedPatterns.known(pdb);
            } catch (IOException | RuntimeException e) {
                System.err.println("pdla daemon: cannot take patterns from " + patterns + ": " + e.getMessage());
                return 2;
            }
        }
        if (patterns != null && !once) {
            PatternFollower follow = new PatternFollower(patterns, new TransientCatalogAccess(db, 10_000), System.out, known);
            return DaemonMain.run(o, false, follow.known(), follow);
        }
        return DaemonMain.run(o, once, known);
    }

    /**
     * A daemon that follows a pattern database waits for hand-offs of running jobs: its intake's classes (the record,
     * the analysis, the JSON codec) load on a thread of their own meanwhile, so the first hand-off's replicas start
     * copying sooner (online PDLA: the copy runs while the job's passes do, and every second counts). Storing nothing,
     * it cannot fail the daemon; a problem shows again where the real intake reports it.
     */
    private static void warmUpIntake() {
        Thread t = new Thread(() -> {
            try {
                io.pdla.patterns.online.HandedInPasses.warmUp();
            } catch (RuntimeException | LinkageError e) {
                // only time is lost: the first hand-off loads the same classes and reports what is wrong
            }
        }, "pdla-daemon-warmup");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
    }
}
