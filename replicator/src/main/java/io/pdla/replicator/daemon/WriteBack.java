package io.pdla.replicator.daemon;

import io.pdla.replicator.catalog.CatalogAccess;
import io.pdla.replicator.catalog.FileRecord;
import io.pdla.replicator.catalog.ReplicaEntry;
import io.pdla.replicator.catalog.ReplicaState;
import io.pdla.replicator.catalog.WriteSessions;
import io.pdla.replicator.catalog.WriterSession;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Brings an original up to date from its DIRTY replicas: copies each one's bytes back to the pattern's offsets,
 * syncs, and only then turns the replica VALID again, in one transaction that checks nobody began writing
 * meanwhile. It runs as a write session of its own, registered only when no other is open, so no shim writer
 * can put bytes into a replica while it is being copied. A crash anywhere leaves the replica DIRTY and the copy
 * is simply done again (it is idempotent).
 */
public final class WriteBack {
    private static final int CHUNK = 1 << 20;
    /** Bytes copied back by this JVM, for {@link FaultInjection}. */
    private static final java.util.concurrent.atomic.AtomicLong COPIED = new java.util.concurrent.atomic.AtomicLong();

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
            List<ReplicaEntry> copied = new ArrayList<>();
            try (StorageFile out = od.open(original, OpenOptions.readWrite())) {
                io.pdla.replicator.guard.ReplicaGuard guard = io.pdla.replicator.guard.ReplicaGuard.forCatalog(catalog.directory());
                for (ReplicaEntry e : dirty) {
                    // the catalog is data: a replica that is not where and whose it must be never goes into an original
                    String refused = guard.reasonRefused(original, io.pdla.replicator.build.ReplicaBuilder.keyDirName(e.key()), e.replica());
                    if (refused != null) {
                        notes.add("refused to write back " + e.key().id() + " from " + e.replica() + " into " + original + ", it stays DIRTY: " + refused);
                        java.util.logging.Logger.getLogger(WriteBack.class.getName()).warning("replicator: refused to write back " + e.replica()
                                + " into " + original + ": " + refused);
                        continue;
                    }
                    try {
                        copyBack(e, out, drivers);
                        copied.add(e);
                        notes.add("wrote back " + e.pattern().totalBytes() + " bytes of " + e.key().id() + " from " + e.replica());
                    } catch (IOException | RuntimeException x) {
                        // the others still go back; this one stays DIRTY (and keeps failing reads) until repaired or dropped
                        notes.add("could not write back " + e.key().id() + " from " + e.replica() + ", it stays DIRTY: " + x.getMessage());
                    }
                }
                out.sync();
            }
            boolean clean = catalog.transact(t -> {
                FileRecord f = t.file(original);
                if (f.generation() != generation || f.writers() != 1) return false;
                for (ReplicaEntry e : copied) {
                    Optional<ReplicaEntry> cur = t.entry(e.key());
                    // VALID at the identity before this session, so that ending it vouches for the new identity
                    if (cur.isPresent() && cur.get().state() == ReplicaState.DIRTY && cur.get().replica().equals(e.replica())) {
                        t.put(cur.get().withState(ReplicaState.VALID).withIdentity(f.identityBeforeWriters()));
                    }
                }
                return true;
            });
            if (!clean) notes.add(original + ": the catalog changed during the write-back; the replicas stay DIRTY and are written back again");
        } finally {
            WriteSessions.end(catalog, od, original, id);
        }
        return notes;
    }

    private List<ReplicaEntry> dirty(URI original) throws IOException {
        List<ReplicaEntry> out = new ArrayList<>();
        for (ReplicaEntry e : catalog.transact(t -> t.entriesOf(original, p -> { }))) {
            if (e.state() == ReplicaState.DIRTY) out.add(e);
        }
        return out;
    }

    /** Copies a replica's bytes to its pattern's offsets in {@code out} (the original, open for writing). */
    public static void copyBack(ReplicaEntry e, StorageFile out, StorageDrivers drivers) throws IOException {
        StorageDriver rd = drivers.forUri(e.replica());
        try (StorageFile in = rd.open(e.replica(), OpenOptions.readOnly())) {
            if (in.size() != e.pattern().totalBytes()) {
                throw new IOException("DIRTY replica " + e.replica() + " of " + e.key().id() + " has " + in.size() + " bytes, expected "
                        + e.pattern().totalBytes() + "; it holds writes the original lacks, so nothing is dropped: repair or restore it");
            }
            ByteBuffer buf = ByteBuffer.allocate(CHUNK);
            long[] position = {0};
            try {
                e.pattern().geometry().forEachExtent((offset, length) -> {
                    try {
                        for (long done = 0; done < length; ) {
                            int n = (int) Math.min(CHUNK, length - done);
                            buf.clear().limit(n);
                            while (buf.hasRemaining()) {
                                int r = in.read(position[0] + buf.position(), buf);
                                if (r <= 0) throw new IOException("replica " + e.replica() + " ended at " + (position[0] + buf.position()));
                            }
                            buf.flip();
                            out.write(offset + done, buf);
                            position[0] += n;
                            FaultInjection.writeBackCopied(COPIED.addAndGet(n));
                            done += n;
                        }
                    } catch (IOException x) {
                        throw new UncheckedIOException(x);
                    }
                });
            } catch (UncheckedIOException x) {
                throw x.getCause();
            }
        }
    }
}
