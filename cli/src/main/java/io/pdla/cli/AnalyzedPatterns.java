package io.pdla.cli;

import io.pdla.catalog.CatalogAccess;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.patterns.ReplicaSelection;
import io.pdla.patterns.db.PatternDatabase;
import io.pdla.patterns.db.PatternEntry;
import io.pdla.patterns.db.QueueItem;
import io.pdla.replicator.queue.CatalogPatternQueue;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Moves the analyzer's queued patterns into the replicator's queue. Both speak core's pattern key and closed form;
 * which patterns get a replica is {@link ReplicaSelection}'s rule, applied to every (application, file) the queue
 * names, with all of that file's entries (a local pattern's fate depends on its global one). The two queues live in
 * separate Berkeley DB environments: items are first offered to the replicator (durable) and only then taken off
 * the analyzer's queue, so a crash in between offers them twice (the builder finds the replica up to date), never
 * loses one.
 */
final class AnalyzedPatterns {
    record Transfer(int offered, int skipped, List<String> notes) {
    }

    private AnalyzedPatterns() {
    }

    static Transfer transfer(PatternDatabase patterns, CatalogAccess catalog, PrintStream log) throws IOException {
        CatalogPatternQueue queue = new CatalogPatternQueue(catalog);
        List<QueueItem> items = patterns.peekQueue();
        Map<String, List<PatternEntry>> groups = new LinkedHashMap<>();   // (application, file) -> all its entries
        for (QueueItem item : items) {
            PatternKey k = item.key();
            groups.computeIfAbsent(k.app() + "|" + k.file(), g -> patterns.byFile(k.file()).stream()
                    .filter(e -> e.key().app().equals(k.app())).toList());
        }
        int stored = 0;
        List<String> notes = new ArrayList<>();
        List<KeyedPattern> chosen = new ArrayList<>();
        for (List<PatternEntry> entries : groups.values()) {
            for (PatternEntry e : entries) stored += e.patterns().size();
            ReplicaSelection.Selection s = ReplicaSelection.choose(entries);
            chosen.addAll(s.chosen());
            notes.addAll(s.notes());
        }
        // one catalog transaction for all of them: the patterns a job's ranks hand in together reach the queue together
        queue.offerAll(chosen);
        int offered = chosen.size();
        for (int i = 0; i < items.size(); i++) patterns.dequeue();
        for (String n : notes) log.println("pdla daemon: " + n);
        return new Transfer(offered, stored - offered, notes);
    }

    /**
     * Which replicas' patterns the pattern database still holds, as the scanner asks it. It judges only the
     * applications (command and process count) it has analysed: a key of such an application it no longer holds
     * (`pdla patterns delete`) is gone; keys of applications it never saw are not its to judge.
     */
    static Predicate<PatternKey> known(PatternDatabase patterns) {
        Set<PatternKey> keys = new HashSet<>(patterns.keys());
        Set<AppIdentity> apps = new HashSet<>();
        for (PatternKey k : keys) apps.add(k.app());
        return k -> keys.contains(k) || !apps.contains(k.app());
    }

}
