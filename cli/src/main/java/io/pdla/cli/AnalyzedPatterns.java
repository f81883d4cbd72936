package io.pdla.cli;

import io.pdla.patterns.db.PatternDatabase;
import io.pdla.patterns.db.PatternEntry;
import io.pdla.patterns.db.QueueItem;
import io.pdla.patterns.db.StoredPattern;
import io.pdla.pattern.Geometry;
import io.pdla.replicator.catalog.CatalogAccess;
import io.pdla.replicator.pattern.NestedStridedPattern;
import io.pdla.replicator.pattern.PatternKey;
import io.pdla.replicator.queue.CatalogPatternQueue;
import io.pdla.storage.StorageDrivers;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Moves the analyzer's queued patterns into the replicator's queue, translating the analyzer's closed forms
 * ({@link Geometry}) into the replicator's ({@link NestedStridedPattern}). The two live in separate Berkeley
 * DB environments; each item is first offered to the replicator (durable) and only then taken off the
 * analyzer's queue, so a crash in between offers it twice (a rebuild of the same replica), never loses it.
 *
 * <p>Which patterns are worth a replica: a global pattern that is one contiguous range is laid out in the
 * original exactly as a replica would be, so it is skipped and its ranks' local patterns (strided within
 * their own data) are replicated instead. Patterns whose cycle has several segments (repeating size
 * sequences) have no nested-strided form yet and are reported, not replicated.
 */
final class AnalyzedPatterns {
    record Transfer(int offered, int skipped, List<String> notes) {
    }

    private AnalyzedPatterns() {
    }

    static Transfer transfer(PatternDatabase patterns, CatalogAccess catalog, PrintStream log) throws IOException {
        CatalogPatternQueue queue = new CatalogPatternQueue(catalog);
        int offered = 0, skipped = 0;
        List<String> notes = new ArrayList<>();
        for (QueueItem item : patterns.peekQueue()) {
            Optional<PatternEntry> entry = patterns.get(item.key());
            if (entry.isPresent()) {
                for (StoredPattern sp : entry.get().patterns()) {
                    Optional<NestedStridedPattern> p = translate(entry.get(), sp, notes);
                    if (p.isPresent()) {
                        queue.offer(p.get());
                        offered++;
                    } else {
                        skipped++;
                    }
                }
            }
            patterns.dequeue();
        }
        for (String n : notes) log.println("pdla daemon: " + n);
        return new Transfer(offered, skipped, notes);
    }

    /**
     * Which replicas' patterns the pattern database still holds, as the scanner asks it. It judges only the
     * applications (command and process count) it has analysed: a key of such an application it no longer holds
     * (`pdla patterns delete`) is gone; keys of applications it never saw are not its to judge.
     */
    static java.util.function.Predicate<PatternKey> known(PatternDatabase patterns) {
        java.util.Set<PatternKey> keys = new java.util.HashSet<>();
        java.util.Set<String> apps = new java.util.HashSet<>();
        for (io.pdla.patterns.db.PatternKey k : patterns.keys()) {
            keys.add(new PatternKey(k.appCommand(), k.nprocs(), k.rank() == null ? PatternKey.ALL_RANKS : k.rank(), StorageDrivers.toUri(k.file())));
            apps.add(k.appCommand() + "\u0000" + k.nprocs());
        }
        return k -> keys.contains(k) || !apps.contains(k.command() + "\u0000" + k.processes());
    }

    static Optional<NestedStridedPattern> translate(PatternEntry entry, StoredPattern sp, List<String> notes) {
        io.pdla.patterns.db.PatternKey k = entry.key();
        Geometry.Spec g = sp.geometry();
        boolean global = k.rank() == null;
        if (g.segOffsets().length != 1) {
            notes.add(k.file() + ": " + sp.notation() + ": a cycle of " + g.segOffsets().length + " segments has no nested-strided form yet; not replicated");
            return Optional.empty();
        }
        if (global && g.strides().length == 0) {
            notes.add(k.file() + ": " + sp.notation() + ": one contiguous range, already laid out as a replica would be; its ranks' local patterns are replicated instead");
            return Optional.empty();
        }
        PatternKey key = new PatternKey(k.appCommand(), k.nprocs(), global ? PatternKey.ALL_RANKS : k.rank(), StorageDrivers.toUri(k.file()));
        List<NestedStridedPattern.Level> levels = new ArrayList<>();
        for (int i = 0; i < g.strides().length; i++) levels.add(new NestedStridedPattern.Level(g.strides()[i], g.counts()[i]));
        long size = g.segLengths()[0];
        long expected = size;
        for (long c : g.counts()) expected *= c;
        if (expected != g.totalBytes()) {
            notes.add(k.file() + ": " + sp.notation() + ": an incomplete last block has no nested-strided form yet; not replicated");
            return Optional.empty();
        }
        try {
            return Optional.of(new NestedStridedPattern(key, g.start() + g.segOffsets()[0], size, levels));
        } catch (IllegalArgumentException e) {
            notes.add(k.file() + ": " + sp.notation() + ": " + e.getMessage());
            return Optional.empty();
        }
    }
}
