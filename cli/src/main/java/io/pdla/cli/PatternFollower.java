package io.pdla.cli;

import io.pdla.bdb.JeEnvironments;
import io.pdla.pattern.PatternKey;
import io.pdla.patterns.db.PatternDatabase;
import io.pdla.patterns.db.PatternSpool;
import io.pdla.patterns.online.HandedInPasses;
import io.pdla.catalog.CatalogAccess;
import io.pdla.replicator.daemon.ReplicatorDaemon;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * The long-running daemon's look at the pattern database before each pass: hand-offs of running jobs (online PDLA,
 * {@code PatternSpool}) are stored, patterns stored since the last look (by them or by {@code pdla analyze}) move
 * into the replication queue, and which patterns the database holds is read again for the scanner. The database is
 * opened only when the spool holds something or its log files changed since the last look, so a short poll costs two
 * directory listings while nothing happens; a database that does not exist yet is waited for. A hand-off landing in
 * the spool wakes the daemon at once ({@link SpoolWatch}).
 */
final class PatternFollower implements ReplicatorDaemon.PassHook {
    private final Path dir;
    private final CatalogAccess catalog;
    private final PrintStream log;
    private final AtomicReference<Predicate<PatternKey>> known;
    private String lastSeen = "";

    PatternFollower(Path dir, CatalogAccess catalog, PrintStream log, Predicate<PatternKey> knownAtStart) {
        this.dir = dir;
        this.catalog = catalog;
        this.log = log;
        this.known = new AtomicReference<>(knownAtStart);
    }

    /** The scanner's view of the pattern database, as of the last look. */
    Predicate<PatternKey> known() {
        return k -> known.get().test(k);
    }

    /** Hand-offs start a pass the moment they land in the spool (the poll stays as the fallback). */
    @Override
    public void watch(Runnable wakeUp) {
        SpoolWatch.start(dir, wakeUp, log);
    }

    @Override
    public boolean workWaiting() {
        return PatternSpool.pending(dir);
    }

    @Override
    public void run() throws IOException {
        if (PatternSpool.pending(dir)) {
            takeSpool();
            return;
        }
        if (!JeEnvironments.exists(dir)) return;
        String seen = logFiles();
        if (seen.equals(lastSeen)) return;
        // a read-only look first: it writes nothing, so the logs as they were before it are what it saw, and a
        // store that commits meanwhile changes them and is looked at next pass
        long queued;
        try (PatternDatabase pdb = PatternDatabase.openExisting(dir, true)) {
            queued = pdb.queueLength();
            known.set(AnalyzedPatterns.known(pdb));
        } catch (RuntimeException e) {
            throw new IOException("cannot look at the pattern database " + dir + ": " + e.getMessage(), e);
        }
        if (queued == 0) {
            lastSeen = seen;
            return;
        }
        try (PatternDatabase pdb = PatternDatabase.openExisting(dir, false)) {
            AnalyzedPatterns.Transfer t = AnalyzedPatterns.transfer(pdb, catalog, log);
            log.println("pdla daemon: took " + t.offered() + " pattern(s) from " + dir + " (" + t.skipped() + " not replicable)");
            known.set(AnalyzedPatterns.known(pdb));
        } catch (RuntimeException e) {
            throw new IOException("cannot take patterns from " + dir + ": " + e.getMessage(), e);
        }
        // this look wrote the logs itself (the dequeue, the close's checkpoint): the next pass looks again, read-only
        lastSeen = "";
    }

    /** Stores the running jobs' hand-offs, then moves what is queued to the replicator. */
    private void takeSpool() throws IOException {
        try (PatternDatabase pdb = PatternDatabase.open(dir)) {
            int stored = HandedInPasses.drainInto(pdb, p -> log.println("pdla daemon: " + p));
            if (pdb.queueLength() > 0) {
                AnalyzedPatterns.Transfer t = AnalyzedPatterns.transfer(pdb, catalog, log);
                log.println("pdla daemon: took " + t.offered() + " pattern(s) from " + dir + " (" + stored + " handed in by running jobs, "
                        + t.skipped() + " not replicable)");
            }
            known.set(AnalyzedPatterns.known(pdb));
        } catch (RuntimeException e) {
            throw new IOException("cannot take patterns from " + dir + ": " + e.getMessage(), e);
        }
        lastSeen = "";
    }

    /** The JE log files' names, sizes and times: every committed store appends to them. */
    private String logFiles() {
        File[] logs = dir.toFile().listFiles((d, n) -> n.endsWith(".jdb"));
        if (logs == null) return "";
        Arrays.sort(logs);
        StringBuilder b = new StringBuilder();
        for (File f : logs) b.append(f.getName()).append(':').append(f.length()).append(':').append(f.lastModified()).append(';');
        return b.toString();
    }
}
