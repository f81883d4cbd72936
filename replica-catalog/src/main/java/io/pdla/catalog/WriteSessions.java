package io.pdla.catalog;

import io.pdla.pattern.PatternKey;
import io.pdla.storage.StorageDriver;

import java.io.IOException;
import java.net.URI;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The catalog side of writes through the shim (see {@code redirect/README.md}, "Consistency"):
 * a write session is registered durably before its first write proceeds; a write that touches a replica's
 * region marks that replica stale durably before it proceeds; when the session ends the still-valid
 * replicas are vouched for at the original's new identity. Each step bumps the file's generation, which
 * is how a replica build that overlapped a write session notices and gives up.
 */
public final class WriteSessions {
    private WriteSessions() {
    }

    /** Registers the session; returns every replica entry of the original, read in the same transaction. */
    public static List<ReplicaEntry> begin(CatalogAccess catalog, StorageDriver driver, URI original, WriterSession session) throws IOException {
        return beginAndRead(catalog, driver, original, session, problem -> { }).entries();
    }

    /** What a session saw when it began: the original's entries and its file record, session included. */
    public record Begun(List<ReplicaEntry> entries, FileRecord file) {
    }

    /**
     * Registers the session and reads the original's entries and file record in the same transaction: a writer's
     * open does both at once (one catalog transaction, which costs an environment open, instead of two).
     */
    public static Begun beginAndRead(CatalogAccess catalog, StorageDriver driver, URI original, WriterSession session,
                                     java.util.function.Consumer<String> corrupt) throws IOException {
        FileIdentity before = FileIdentity.probe(driver, original);
        return catalog.transact(t -> {
            FileRecord f = t.file(original);
            FileIdentity ref = f.writers() == 0 ? before : f.identityBeforeWriters();
            FileRecord now = new FileRecord(f.generation() + 1, f.writers() + 1, ref);
            t.putFile(original, now);
            t.addWriter(original, session);
            return new Begun(t.entriesOf(original, corrupt), now);
        });
    }

    /** What a write may do with the replicas whose regions it touches, as one transaction decided it. */
    public record Claim(Set<PatternKey> writeInto, Set<PatternKey> stale) {
    }

    /**
     * Decides, durably and before the write proceeds, where the bytes of a write that touches {@code touched}
     * go. A DIRTY replica already holds the newest bytes of its region, so the write goes into it; a VALID one
     * that still vouches for the original as the writers found it and that {@code mayTakeWrites} accepts becomes
     * DIRTY and takes the write; any other VALID one becomes STALE
     * (the write goes to the original). The decision is made inside the transaction, so concurrent writers
     * agree whatever their snapshots said. Bumps the generation.
     */
    public static Claim claim(CatalogAccess catalog, URI original, Collection<PatternKey> touched, Predicate<ReplicaEntry> mayTakeWrites)
            throws IOException {
        return catalog.transact(t -> {
            Set<PatternKey> into = new HashSet<>(), stale = new HashSet<>();
            FileRecord f = t.file(original);
            for (PatternKey k : touched) {
                Optional<ReplicaEntry> cur = t.entry(k);
                if (cur.isEmpty()) continue;
                ReplicaEntry e = cur.get();
                switch (e.state()) {
                    case DIRTY -> into.add(k);
                    case VALID -> {
                        // a DIRTY replica is authoritative for its whole region, so only one that holds the original's
                        // bytes as the writers found them may become one: a VALID entry whose identity does not vouch
                        // for the original (changed outside the shim, or by a writer that registered no session) holds
                        // older bytes, which a write-back would copy over the newer ones
                        if (vouchesForWritersStart(e, f) && mayTakeWrites.test(e)) {
                            t.put(e.withState(ReplicaState.DIRTY));
                            into.add(k);
                        } else {
                            t.put(e.withState(ReplicaState.STALE));
                            stale.add(k);
                        }
                    }
                    case STALE -> stale.add(k);
                }
            }
            t.putFile(original, new FileRecord(f.generation() + 1, f.writers(), f.identityBeforeWriters()));
            return new Claim(into, stale);
        });
    }

    /** Whether {@code e} matched the original when the open sessions' first began (the rule reads use, ReplicaValidity). */
    private static boolean vouchesForWritersStart(ReplicaEntry e, FileRecord f) {
        return f.identityBeforeWriters() != null && e.identity().vouches(f.identityBeforeWriters());
    }

    /** Marks replicas stale (durably, in one transaction) whatever they were, and bumps the generation. */
    public static void invalidate(CatalogAccess catalog, URI original, Collection<PatternKey> keys) throws IOException {
        catalog.transact(t -> {
            for (PatternKey k : keys) t.entry(k).ifPresent(e -> t.put(e.withState(ReplicaState.STALE)));
            FileRecord f = t.file(original);
            t.putFile(original, new FileRecord(f.generation() + 1, f.writers(), f.identityBeforeWriters()));
            return null;
        });
    }

    /**
     * Registers {@code session} only if no other session is open: the write-back's guard (nobody may write into a
     * DIRTY replica while it is copied back). Returns the generation after registering, or -1 if others write.
     */
    public static long beginAlone(CatalogAccess catalog, StorageDriver driver, URI original, WriterSession session) throws IOException {
        FileIdentity before = FileIdentity.probe(driver, original);
        return catalog.transact(t -> {
            FileRecord f = t.file(original);
            if (f.writers() > 0) return -1L;
            t.putFile(original, new FileRecord(f.generation() + 1, 1, before));
            t.addWriter(original, session);
            return f.generation() + 1;
        });
    }

    /**
     * Ends the session; the caller has synced the original so that its identity is final. When no other
     * session remains, valid replicas that matched the original before the writers began are vouched for at
     * its identity now.
     */
    public static void end(CatalogAccess catalog, StorageDriver driver, URI original, String sessionId) throws IOException {
        FileIdentity now = driver.exists(original) ? FileIdentity.probe(driver, original) : null;
        catalog.transact(t -> {
            if (!t.removeWriter(original, sessionId)) return null;
            FileRecord f = t.file(original);
            int writers = Math.max(0, f.writers() - 1);
            if (writers == 0 && now != null && f.identityBeforeWriters() != null) {
                for (ReplicaEntry e : t.entriesOf(original, problem -> { })) {
                    if (e.state() == ReplicaState.VALID && e.identity().equals(f.identityBeforeWriters())) {
                        t.put(e.withIdentity(now));
                    }
                }
            }
            t.putFile(original, new FileRecord(f.generation() + 1, writers, writers == 0 ? null : f.identityBeforeWriters()));
            return null;
        });
    }
}
