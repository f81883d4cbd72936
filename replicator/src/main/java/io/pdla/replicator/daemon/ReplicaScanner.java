package io.pdla.replicator.daemon;

import io.pdla.catalog.CatalogAccess;
import io.pdla.catalog.FileIdentity;
import io.pdla.catalog.FileRecord;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.catalog.ReplicaValidity;
import io.pdla.catalog.WriteSessions;
import io.pdla.catalog.WriterSession;
import io.pdla.catalog.guard.PendingWrites;
import io.pdla.catalog.replica.ReplicaNames;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.construct.ReplicaBuilder;
import io.pdla.replicator.queue.PatternQueue;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.logging.Logger;

/**
 * Keeps the catalog honest. At start-up it finishes what interrupted builds left (the journal) and ends the
 * write sessions of processes that died; each scan removes replicas whose original is gone or changed,
 * whose pattern is no longer known, whose file vanished or was cut short, and undecodable rows. Replicas that
 * were merely out of date (changed or stale) are queued again so the daemon rebuilds them. Whatever the catalog
 * says, a replica that holds writes ({@link PendingWrites}) is never deleted: it is DIRTY again and written back,
 * and one nothing vouches for is kept on disk.
 */
public final class ReplicaScanner {
    private static final Logger LOG = Logger.getLogger(ReplicaScanner.class.getName());

    private final CatalogAccess catalog;
    private final StorageDrivers drivers;
    private final ReplicaBuilder builder;
    private final PatternQueue queue;
    private final Predicate<PatternKey> patternKnown;

    /**
     * Whether the pattern database still has what the replica was built for. A replica the daemon combined from a job's
     * ranks' patterns ({@link RankMajorGroups}) has a global key the database never held: it was built for the ranks'
     * own keys, so it is known while any of them is.
     */
    private boolean known(ReplicaEntry e) {
        PatternKey k = e.key();
        if (patternKnown.test(k)) return true;
        if (!k.global() || e.pattern().geometry().groups() < 2) return false;
        for (int r = 0; r < k.processes(); r++) if (patternKnown.test(PatternKey.local(k.app(), r, k.file()))) return true;
        return false;
    }

    /** @param patternKnown whether the pattern database still has the pattern; {@code k -> true} when there is none */
    public ReplicaScanner(CatalogAccess catalog, StorageDrivers drivers, ReplicaBuilder builder, PatternQueue queue,
                          Predicate<PatternKey> patternKnown) {
        this.catalog = catalog;
        this.drivers = drivers;
        this.builder = builder;
        this.queue = queue;
        this.patternKnown = patternKnown;
    }

    public record Report(int leftoversDeleted, int sessionsEnded, int removed, int requeued, List<String> notes) {
    }

    /** Start-up: the journal's files not referenced by an entry are deleted, dead writers' sessions ended. */
    public Report cleanLeftovers() throws IOException {
        // held over the snapshot, the journal rows with nothing to delete and the write sessions; let go before a delete
        // or a digest of a replica (PendingWrites)
        try (BookkeepingHold held = new BookkeepingHold(catalog)) {
            return cleanLeftovers(held);
        }
    }

    private Report cleanLeftovers(BookkeepingHold held) throws IOException {
        held.take();
        List<String> notes = new ArrayList<>();
        record Snapshot(Map<String, List<URI>> journal, Set<URI> referenced) {
        }
        Snapshot s = catalog.transact(t -> {
            Set<URI> refs = new HashSet<>();
            t.forEachEntry(e -> refs.add(e.replica()), k -> { });
            return new Snapshot(t.journalRows(), refs);
        });
        int deleted = 0;
        io.pdla.catalog.guard.ReplicaGuard guard = builder.guard();
        for (Map.Entry<String, List<URI>> row : s.journal().entrySet()) {
            held.take();
            for (URI u : row.getValue()) {
                if (s.referenced().contains(u)) continue;
                held.release();
                // journal rows are data: only a file where a replica may be is ever deleted
                String keep = guard.reasonNotDeletable(u);
                if (keep != null) {
                    notes.add("refused to delete " + u + " named by journal row " + row.getKey() + ": " + keep);
                    LOG.warning("replicator: refused to delete " + u + " named by journal row " + row.getKey() + ": " + keep);
                    continue;
                }
                StorageDriver d = drivers.forUri(u);
                // a published replica file may hold writes (a catalog writer can drop its entry and name it here):
                // only an unpublished .tmp or one whose content is its in-step mark is deleted
                PendingWrites.Verdict pending = u.getPath().endsWith(".tmp") ? PendingWrites.Verdict.NONE : PendingWrites.of(d, u);
                if (pending != PendingWrites.Verdict.NONE) {
                    notes.add("kept " + u + " named by journal row " + row.getKey() + ": " + (pending == PendingWrites.Verdict.HELD
                            ? "it differs from its in-step mark (holds writes its original may lack)" : "it has no in-step mark") + "; delete it by hand once inspected");
                    LOG.warning("replicator: kept " + u + " named by journal row " + row.getKey() + " (" + pending + ")");
                } else if (d.exists(u)) {
                    d.delete(u);
                    deleted++;
                    notes.add("deleted unreferenced replica file " + u + " (journal row " + row.getKey() + ")");
                }
            }
            catalog.transact(t -> {
                t.unjournal(row.getKey());
                return null;
            });
        }
        int ended = 0;
        held.take();
        for (URI f : catalog.transact(t -> t.recordedFiles())) {
            for (WriterSession w : catalog.transact(t -> t.writers(f))) {
                if (w.ownerDead()) {
                    WriteSessions.end(catalog, drivers.forUri(f), f, w.sessionId());
                    ended++;
                    notes.add("ended write session " + w.sessionId() + " of dead process " + w.pid() + " on " + f);
                }
            }
        }
        notes.forEach(LOG::info);
        return new Report(deleted, ended, 0, 0, notes);
    }

    /** Turns {@code e} back into DIRTY if the catalog still holds it as seen; false when it changed meanwhile. */
    private boolean reclaimDirty(ReplicaEntry e) throws IOException {
        return catalog.transact(t -> {
            var cur = t.entry(e.key());
            if (cur.isEmpty() || !cur.get().equals(e)) return false;
            t.put(e.withState(ReplicaState.DIRTY));
            return true;
        });
    }

    /** Removes unusable replicas; re-queues the patterns of those that are only out of date. */
    public Report scan() throws IOException {
        List<String> notes = new ArrayList<>();
        // held over the look-ups and the metadata probes of each entry and on into the leftovers; let go before a
        // write-back, a digest of a replica (PendingWrites) and what follows it for that entry, and a delete
        try (BookkeepingHold held = new BookkeepingHold(catalog)) {
            int[] removedRequeued = scan(notes, held);
            notes.forEach(LOG::info);
            Report leftovers = cleanLeftovers(held);
            return new Report(leftovers.leftoversDeleted(), leftovers.sessionsEnded(), removedRequeued[0], removedRequeued[1], notes);
        }
    }

    private int[] scan(List<String> notes, BookkeepingHold held) throws IOException {
        held.take();
        // first bring originals up to date from DIRTY replicas: until then those replicas are the only copy
        WriteBack writeBack = new WriteBack(catalog, drivers);
        Set<URI> withDirty = catalog.transact(t -> {
            Set<URI> out = new java.util.TreeSet<>();
            t.forEachEntry(e -> {
                if (e.state() == ReplicaState.DIRTY) out.add(e.key().file());
            }, k -> { });
            return out;
        });
        if (!withDirty.isEmpty()) held.release();
        for (URI f : withDirty) {
            try {
                notes.addAll(writeBack.writeBack(f));
            } catch (IOException | RuntimeException e) {
                notes.add("write-back of " + f + " failed, its DIRTY replicas are kept: " + e.getMessage());
            }
        }
        List<ReplicaEntry> entries = new ArrayList<>();
        List<byte[]> corrupt = new ArrayList<>();
        held.take();
        catalog.transact(t -> {
            entries.clear();
            corrupt.clear();
            t.forEachEntry(entries::add, corrupt::add);
            return null;
        });
        int removed = 0;
        int requeued = 0;
        for (byte[] k : corrupt) {
            catalog.transact(t -> {
                t.deleteRaw(k);
                return null;
            });
            removed++;
            notes.add("removed an undecodable catalog row (" + k.length + " key bytes)");
        }
        for (ReplicaEntry e : entries) {
            held.take();
            URI original = e.key().file();
            StorageDriver od = drivers.forUri(original);
            String reason = null;
            boolean rebuild = false;
            if (!od.exists(original)) {
                reason = "original " + original + " is gone";
            } else if (e.state() == ReplicaState.DIRTY) {
                continue; // holds writes the original lacks (write-back deferred or failed above): never dropped
            } else if (!known(e)) {
                reason = "pattern " + e.key().id() + " is no longer known";
            } else {
                FileRecord f = catalog.transact(t -> t.file(original));
                if (f.writers() > 0) continue; // judged when the writers are done
                String why = ReplicaValidity.reasonUnusable(e, f, FileIdentity.probe(od, original));
                if (why == null && !builder.replicaIntact(e)) why = "replica file " + e.replica() + " is missing or not " + e.pattern().totalBytes() + " bytes";
                if (why == null) {
                    // wrong owner, wider permissions than the original's now, a symbolic link, a path outside the replica folder
                    String refused = builder.guard().reasonRefused(original, ReplicaNames.keyDirName(e.key()), e.replica());
                    if (refused != null) why = "replica refused: " + refused;
                }
                if (why != null) {
                    reason = why;
                    rebuild = true;
                }
            }
            if (reason == null) continue;
            held.release();
            boolean originalGone = !od.exists(original);
            // the catalog's VALID or STALE is no proof that the replica took no writes (a catalog writer can flip a
            // DIRTY one): its in-step mark is. Only a replica where and whose it must be is asked (a refused one
            // never goes into an original anyway); with the original gone its writes went with it, as for DIRTY ones
            PendingWrites.Verdict pending = originalGone
                    || builder.guard().reasonRefused(original, ReplicaNames.keyDirName(e.key()), e.replica()) != null
                    ? PendingWrites.Verdict.NONE : PendingWrites.of(drivers.forUri(e.replica()), e.replica());
            if (pending == PendingWrites.Verdict.HELD) {
                String why = reason;
                if (reclaimDirty(e)) {
                    notes.add("not removed " + e.key().id() + " (" + why + "): " + e.replica() + " differs from its in-step mark, so it holds "
                            + "writes its original lacks; DIRTY again and written back");
                    try {
                        notes.addAll(writeBack.writeBack(original));
                    } catch (IOException | RuntimeException x) {
                        notes.add("write-back of " + original + " failed, its DIRTY replicas are kept: " + x.getMessage());
                    }
                }
                continue;
            }
            // nothing vouches for its bytes: never copied, and kept on disk (its entry goes) rather than deleted
            boolean keepFile = pending == PendingWrites.Verdict.UNVOUCHED;
            boolean requeue = rebuild;
            boolean gone = catalog.transact(t -> {
                var cur = t.entry(e.key());
                if (cur.isEmpty() || !cur.get().replica().equals(e.replica())) return false;
                // judged on a snapshot: a writer may since have claimed it (DIRTY: it then holds acknowledged writes
                // the original lacks) or begun a session; then it is judged again at the next pass, never removed now
                if (!originalGone && (!cur.get().equals(e) || cur.get().state() == ReplicaState.DIRTY || t.file(original).writers() > 0)) {
                    return false;
                }
                t.delete(e.key());
                if (!keepFile) t.journal("scan-" + e.replica().hashCode() + "-" + System.nanoTime(), List.of(e.replica()));
                // re-queued in the same transaction: a crash between removal and re-queue would lose the pattern
                if (requeue && queue instanceof io.pdla.replicator.queue.CatalogPatternQueue) {
                    t.enqueue(io.pdla.catalog.pattern.PatternCodec.encode(e.pattern()), e.key().global());
                }
                return true;
            });
            if (!gone) continue;
            removed++;
            notes.add("removed replica of " + e.key().id() + ": " + reason);
            if (keepFile) {
                String kept = "kept the file " + e.replica() + " of the removed entry " + e.key().id() + ": it has no in-step mark, so it may hold "
                        + "writes nothing vouches for; neither copied nor deleted (inspect it, then delete it by hand)";
                notes.add(kept);
                LOG.warning("replicator: " + kept);
            }
            if (rebuild) {
                if (!(queue instanceof io.pdla.replicator.queue.CatalogPatternQueue)) queue.offer(e.pattern());
                requeued++;
            }
        }
        return new int[]{removed, requeued};
    }
}
