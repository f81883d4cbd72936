package io.pdla.replicator.daemon;

import io.pdla.catalog.CatalogAccess;
import io.pdla.catalog.FileIdentity;
import io.pdla.catalog.FileRecord;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.catalog.ReplicaValidity;
import io.pdla.pattern.PatternKey;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;

import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** What {@code pdla replicas list|show|drop} do, on the catalog. */
public final class ReplicaAdmin {
    private final CatalogAccess catalog;

    public ReplicaAdmin(CatalogAccess catalog) {
        this.catalog = catalog;
    }

    public List<ReplicaEntry> list() throws IOException {
        return catalog.transact(t -> {
            List<ReplicaEntry> l = new ArrayList<>();
            t.forEachEntry(l::add, k -> { });
            return l;
        });
    }

    /** One line per replica: state, space, layout, bytes, pattern id. */
    public static String line(ReplicaEntry e) {
        return String.format("%-6s %-18s %-7s %12d  %s", e.state(), e.space(), e.layout().distribution().label(), e.pattern().totalBytes(), e.key().id());
    }

    public Optional<List<String>> show(PatternKey key) throws IOException {
        Optional<ReplicaEntry> e = catalog.transact(t -> t.entry(key));
        if (e.isEmpty()) return Optional.empty();
        ReplicaEntry r = e.get();
        FileRecord f = catalog.transact(t -> t.file(key.file()));
        List<String> out = new ArrayList<>();
        out.add("pattern:    " + key.id());
        out.add("shape:      " + r.pattern().describe());
        out.add("replica:    " + r.replica());
        out.add("space:      " + r.space() + (r.benefitSeconds() > 0 ? String.format(" (benefit %.6g s, %d bytes per SServer)", r.benefitSeconds(), r.bytesPerSServer()) : ""));
        out.add("layout:     " + r.layout() + (r.layoutNote().isEmpty() ? "" : " (not applied: " + r.layoutNote() + ")"));
        out.add("state:      " + r.state());
        out.add("built:      " + Instant.ofEpochMilli(r.builtAtMillis()) + " from " + r.identity() + ", generation " + r.generation());
        out.add("original:   generation " + f.generation() + ", " + f.writers() + " open shim writer(s)");
        String why;
        try {
            StorageDriver d = StorageDrivers.installed().forUri(key.file());
            why = d.exists(key.file()) ? ReplicaValidity.reasonUnusable(r, f, FileIdentity.probe(d, key.file())) : "original is gone";
        } catch (IOException | RuntimeException ex) {
            why = "original cannot be examined: " + ex.getMessage();
        }
        out.add("usable:     " + (why == null ? "yes" : "no, " + why));
        return Optional.of(out);
    }

    /**
     * Removes the entry (one transaction, the file journaled) and then the replica file. A DIRTY replica is
     * written back to its original first; if that cannot happen now, nothing is dropped.
     */
    public boolean drop(PatternKey key) throws IOException {
        return drop(key, false);
    }

    /** As {@link #drop(PatternKey)}; {@code discardWrites} drops a DIRTY replica whose write-back failed, losing its writes. */
    public boolean drop(PatternKey key, boolean discardWrites) throws IOException {
        Optional<ReplicaEntry> before = catalog.transact(t -> t.entry(key));
        List<String> notes = new java.util.ArrayList<>();
        if (before.isPresent() && before.get().state() == ReplicaState.DIRTY) {
            try {
                notes.addAll(new WriteBack(catalog, StorageDrivers.installed()).writeBack(key.file()));
            } catch (IOException e) {
                notes.add(e.getMessage());
            }
        }
        Optional<ReplicaEntry> gone = catalog.transact(t -> {
            Optional<ReplicaEntry> e = t.entry(key);
            if (e.isEmpty()) return e;
            if (e.get().state() == ReplicaState.DIRTY && !discardWrites) {
                throw new IOException("replica " + e.get().replica() + " of " + key.id() + " holds writes its original lacks and "
                        + "could not be written back (" + String.join("; ", notes) + "); nothing dropped: try again once writers closed "
                        + key.file() + ", or --discard-writes to drop it and lose those writes");
            }
            t.delete(key);
            t.journal("drop-" + System.nanoTime(), List.of(e.get().replica()));
            return e;
        });
        if (gone.isEmpty()) return false;
        URI replica = gone.get().replica();
        // the entry's path is data: deleted only where a replica may be (else the journal row is refused too)
        if (io.pdla.catalog.guard.ReplicaGuard.forCatalog(catalog.directory()).reasonNotDeletable(replica) != null) return true;
        StorageDriver d = StorageDrivers.installed().forUri(replica);
        if (d.exists(replica)) d.delete(replica);
        return true;
    }
}
