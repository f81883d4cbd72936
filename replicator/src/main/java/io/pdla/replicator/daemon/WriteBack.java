package io.pdla.replicator.daemon;

import io.pdla.catalog.CatalogAccess;
import io.pdla.catalog.FileRecord;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.catalog.WriteSessions;
import io.pdla.catalog.WriterSession;
import io.pdla.catalog.guard.InStepMark;
import io.pdla.catalog.guard.ReplicaGuard;
import io.pdla.catalog.replica.CopyBack;
import io.pdla.catalog.replica.ReplicaNames;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * Brings an original up to date from its DIRTY replicas: copies each one's bytes back to the pattern's offsets,
 * syncs, records the replica's new content as in step ({@link InStepMark}), and only then turns the replica VALID
 * again, in one transaction that checks nobody began writing meanwhile. It runs as a write session of its own,
 * registered only when no other is open, so no shim writer can put bytes into a replica while it is being copied.
 * A crash anywhere leaves the replica DIRTY and the copy is simply done again (it is idempotent).
 *
 * <p>The catalog's DIRTY is not enough to copy: anyone who can write the catalog can set it. A replica is copied
 * only if its content differs from its in-step mark, which only a writer of the replica can set; one that still
 * holds its marked content took no writes and is never copied (VALID again if the original still holds the same
 * bytes, as after a crash between the mark and the catalog; otherwise STALE); one without a mark is refused.
 */
public final class WriteBack {
    private static final int CHUNK = 1 << 20;

    private final CatalogAccess catalog;
    private final StorageDrivers drivers;

    public WriteBack(CatalogAccess catalog, StorageDrivers drivers) {
        this.catalog = catalog;
        this.drivers = drivers;
    }

    /** Writes back every DIRTY replica of {@code original}; returns what it did, one line each. */
    public List<String> writeBack(URI original) throws IOException {
        List<String> notes = new ArrayList<>();
        List<ReplicaEntry> dirty = dirty(original);
        if (dirty.isEmpty()) return notes;
        StorageDriver od = drivers.forUri(original);
        if (!od.exists(original)) {
            notes.add(original + " is gone; its " + dirty.size() + " DIRTY replica(s) went with it");
            return notes;
        }
        String id = "write-back-" + UUID.randomUUID();
        long generation = WriteSessions.beginAlone(catalog, od, original,
                new WriterSession(id, ProcessHandle.current().pid(), WriterSession.thisHost(), System.currentTimeMillis()));
        if (generation < 0) {
            notes.add(original + ": shim writers have it open; its DIRTY replicas are written back after they close");
            return notes;
        }
        try {
            // what each replica becomes once the original holds its bytes (or never needed them)
            Map<ReplicaEntry, ReplicaState> settled = new LinkedHashMap<>();
            Map<ReplicaEntry, InStepMark.Mark> toMark = new LinkedHashMap<>();
            try (StorageFile out = od.open(original, OpenOptions.readWrite())) {
                ReplicaGuard guard = ReplicaGuard.forCatalog(catalog.directory());
                for (ReplicaEntry e : dirty) {
                    // the catalog is data: a replica that is not where and whose it must be never goes into an original
                    String refused = guard.reasonRefused(original, ReplicaNames.keyDirName(e.key()), e.replica());
                    if (refused != null) {
                        refuse(notes, e, original, refused);
                        continue;
                    }
                    try {
                        StorageDriver rd = drivers.forUri(e.replica());
                        Optional<InStepMark.Mark> mark = InStepMark.read(rd, e.replica());
                        if (mark.isEmpty()) {
                            refuse(notes, e, original, "it has no in-step mark (built before marks, on a store that keeps none, or written "
                                    + "without the catalog), so nothing tells its writes from a forged DIRTY entry; `pdla replicas drop "
                                    + "--discard-writes` drops it");
                            continue;
                        }
                        InStepMark.Mark now = InStepMark.digestOf(rd, e.replica(), e.pattern().totalBytes(), mark.get());
                        if (now.equals(mark.get())) {
                            // nobody who may write the replica changed it since it was last in step: a forged DIRTY entry,
                            // a write of the same bytes, or a write-back that ended before the catalog heard of it
                            boolean inStep = sameAsOriginal(e, out, drivers);
                            settled.put(e, inStep ? ReplicaState.VALID : ReplicaState.STALE);
                            notes.add("not copied " + e.key().id() + " from " + e.replica() + ": its content is what it was when last in step with "
                                    + original + (inStep ? ", as the original still is; VALID again" : ", the original has changed since; STALE (rebuilt)"));
                            continue;
                        }
                        InStepMark.Mark copied = CopyBack.copyBack(e, out, drivers, mark.get().regionBytes());
                        if (!copied.equals(now)) {
                            throw new IOException("replica " + e.replica() + " changed while it was copied back");
                        }
                        toMark.put(e, copied);
                        notes.add("wrote back " + e.pattern().totalBytes() + " bytes of " + e.key().id() + " from " + e.replica());
                    } catch (IOException | RuntimeException x) {
                        // the others still go back; this one stays DIRTY (and keeps failing reads) until repaired or dropped
                        notes.add("could not write back " + e.key().id() + " from " + e.replica() + ", it stays DIRTY: " + x.getMessage());
                    }
                }
                out.sync();
            }
            // the original holds the bytes now; a replica whose new content cannot be marked in step is not kept
            // (a later forged DIRTY entry would copy it back over newer bytes)
            List<URI> unmarked = new ArrayList<>();
            for (Map.Entry<ReplicaEntry, InStepMark.Mark> m : toMark.entrySet()) {
                URI replica = m.getKey().replica();
                boolean marked = InStepMark.record(drivers.forUri(replica), replica, m.getValue());
                if (!marked) unmarked.add(replica);
                settled.put(m.getKey(), marked ? ReplicaState.VALID : ReplicaState.STALE);
            }
            boolean clean = catalog.transact(t -> {
                FileRecord f = t.file(original);
                if (f.generation() != generation || f.writers() != 1) return false;
                for (Map.Entry<ReplicaEntry, ReplicaState> s : settled.entrySet()) {
                    ReplicaEntry e = s.getKey();
                    Optional<ReplicaEntry> cur = t.entry(e.key());
                    // VALID at the identity before this session, so that ending it vouches for the new identity
                    if (cur.isPresent() && cur.get().state() == ReplicaState.DIRTY && cur.get().replica().equals(e.replica())) {
                        t.put(cur.get().withState(s.getValue()).withIdentity(f.identityBeforeWriters()));
                    }
                }
                return true;
            });
            if (!clean) {
                notes.add(original + ": the catalog changed during the write-back; the replicas stay DIRTY and are written back again");
            } else {
                // only once STALE: while DIRTY (a writer began meanwhile) the old mark rightly makes the next pass copy again
                for (URI replica : unmarked) unvouch(drivers.forUri(replica), replica, notes);
            }
        } finally {
            WriteSessions.end(catalog, od, original, id);
        }
        return notes;
    }

    /**
     * A replica written back whose new content could not be marked: its old mark would make it look changed (so
     * copied back again, over whatever the original gets next, if someone forged DIRTY). Its mark is withdrawn, or
     * failing that the file is deleted; it is STALE either way and rebuilt.
     */
    private void unvouch(StorageDriver rd, URI replica, List<String> notes) {
        if (InStepMark.withdraw(rd, replica)) return;
        try {
            if (ReplicaGuard.forCatalog(catalog.directory()).reasonNotDeletable(replica) == null && rd.exists(replica)) rd.delete(replica);
            notes.add("deleted " + replica + ": written back, but it could be neither marked in step nor unmarked");
        } catch (IOException | RuntimeException e) {
            notes.add("replica " + replica + " could be neither marked in step, unmarked nor deleted: " + e.getMessage());
        }
    }

    private static void refuse(List<String> notes, ReplicaEntry e, URI original, String why) {
        notes.add("refused to write back " + e.key().id() + " from " + e.replica() + " into " + original + ", it stays DIRTY: " + why);
        Logger.getLogger(WriteBack.class.getName()).warning("replicator: refused to write back " + e.replica() + " into " + original + ": " + why);
    }

    /** Whether the original holds exactly the replica's bytes at the pattern's offsets. */
    static boolean sameAsOriginal(ReplicaEntry e, StorageFile original, StorageDrivers drivers) throws IOException {
        StorageDriver rd = drivers.forUri(e.replica());
        boolean[] same = {true};
        try (StorageFile in = rd.open(e.replica(), OpenOptions.readOnly())) {
            ByteBuffer a = ByteBuffer.allocate(CHUNK), b = ByteBuffer.allocate(CHUNK);
            long[] position = {0};
            e.pattern().geometry().forEachExtent((offset, length) -> {
                if (!same[0]) return;
                try {
                    for (long done = 0; done < length && same[0]; ) {
                        int n = (int) Math.min(CHUNK, length - done);
                        if (!readFully(in, position[0], a, n) || !readFully(original, offset + done, b, n) || !a.equals(b)) same[0] = false;
                        position[0] += n;
                        done += n;
                    }
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
            });
        } catch (UncheckedIOException x) {
            throw x.getCause();
        }
        return same[0];
    }

    private static boolean readFully(StorageFile f, long at, ByteBuffer buf, int n) throws IOException {
        buf.clear().limit(n);
        while (buf.hasRemaining()) {
            if (f.read(at + buf.position(), buf) <= 0) return false;
        }
        buf.flip();
        return true;
    }

    private List<ReplicaEntry> dirty(URI original) throws IOException {
        List<ReplicaEntry> out = new ArrayList<>();
        for (ReplicaEntry e : catalog.transact(t -> t.entriesOf(original, p -> { }))) {
            if (e.state() == ReplicaState.DIRTY) out.add(e);
        }
        return out;
    }
}
