package io.pdla.cli;

import io.pdla.bdb.JeEnvironments;
import io.pdla.pattern.PatternKey;
import io.pdla.patterns.db.PatternDatabase;
import io.pdla.replicator.catalog.CatalogAccess;
import io.pdla.replicator.daemon.ReplicatorDaemon;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * The long-running daemon's look at the pattern database before each pass: patterns stored since the last look (by
 * {@code pdla analyze}, or by a running job's online PDLA) move into the replication queue, and which patterns the
 * database holds is read again for the scanner. The database is opened only when its log files changed since the
 * last look, so a short poll costs a directory listing while nothing is stored; a database that does not exist yet
 * is waited for.
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

    @Override
    public void run() throws IOException {
        if (!JeEnvironments.exists(dir)) return;
        String now = logFiles();
        if (now.equals(lastSeen)) return;
        try (PatternDatabase pdb = PatternDatabase.openExisting(dir, false)) {
            if (pdb.queueLength() > 0) {
                AnalyzedPatterns.Transfer t = AnalyzedPatterns.transfer(pdb, catalog, log);
                log.println("pdla daemon: took " + t.offered() + " pattern(s) from " + dir + " (" + t.skipped() + " not replicable)");
            }
            known.set(AnalyzedPatterns.known(pdb));
        } catch (RuntimeException e) {
            throw new IOException("cannot take patterns from " + dir + ": " + e.getMessage(), e);
        }
        lastSeen = logFiles();   // after the close: this look's own log writes are not news
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
