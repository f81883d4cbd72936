package io.pdla.catalog;

import io.pdla.storage.StorageDriver;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A read-only open's {@link FileLookup}, reused while neither the catalog nor the original can have changed: an
 * iterative job opens the same file every pass, and a look-up opens the JE environment (exclusively, as the daemon
 * writes it), about 0.05 s of rank 0's CPU while the other ranks wait at the open.
 *
 * <p>A look-up is remembered with the catalog's change stamp read inside its own transaction, before its rows
 * ({@link CatalogTxn#changeStamp}: empty, and nothing remembered, unless the catalog's version promises that every
 * writer changes the stamp). It is reused only when, now, (1) a fresh open and read of the stamp file
 * ({@link Catalog#STAMP_FILE}; a fresh open, not a stat, because NFS's close-to-open consistency covers the content
 * of a file opened anew while attribute caches may be old) finds the same stamp, so no transaction that wrote has
 * reached its commit since ({@link Catalog#transact} changes the stamp after its writes, before its commit), and (2)
 * the original's identity probed now is the one the look-up holds and {@linkplain FileIdentity#vouches vouches} for
 * itself (a change stamp and a modification time), which is what catches a change outside pdla, exactly as a full
 * look-up's probe does. Otherwise, and on any failure of this path, the full look-up runs as before.
 *
 * <p>Only an open's look-up uses this (redirect, read-only opens): write sessions, claims, write-back and the
 * janitor read the catalog in their own transactions, as they must. The memory is per class loader, i.e. per MPJ rank
 * under the multicore device (this class names JE through {@link CatalogTxn}, so it is never one of the classes the
 * ranks share); only the rank that is rank 0 of a file's communicator looks files up, so in practice it is rank 0's.
 * At most {@value #MAX_FILES} files, least recently used out first.
 */
public final class StampedLookups {
    static final int MAX_FILES = 64;
    private static final Map<Key, Taken> LAST = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Taken> eldest) {
            return size() > MAX_FILES;
        }
    };
    private static final AtomicLong CATALOG_READS = new AtomicLong();
    private static final AtomicLong REUSES = new AtomicLong();

    private StampedLookups() {
    }

    private record Key(Path catalogDir, URI original) {
    }

    private record Taken(String stamp, FileLookup lookup) {
    }

    /** A look-up and whether it was reused rather than read from the catalog. */
    public record Answer(FileLookup lookup, boolean reused) {
    }

    /** {@link FileLookup#read}, or the same file's last look-up from this catalog when nothing can have changed since. */
    public static Answer read(CatalogAccess catalog, StorageDriver driver, URI original, Consumer<String> corrupt) throws IOException {
        Key key;
        try {
            key = new Key(catalog.directory().toAbsolutePath().normalize(), original);
        } catch (RuntimeException e) {
            return new Answer(FileLookup.read(catalog, driver, original, corrupt), false);
        }
        FileLookup reused = reusable(key, driver);
        if (reused != null) {
            REUSES.incrementAndGet();
            return new Answer(reused, true);
        }
        record Rows(Optional<String> stamp, List<ReplicaEntry> entries, FileRecord file) {
        }
        boolean[] damaged = {false};
        Consumer<String> noting = p -> {
            damaged[0] = true;
            corrupt.accept(p);
        };
        CATALOG_READS.incrementAndGet();
        // the stamp first: rows read after it are never older than it says
        Rows rows = catalog.transact(t -> {
            Optional<String> stamp = t.changeStamp();
            return new Rows(stamp, t.entriesOf(original, noting), t.file(original));
        });
        FileLookup l = new FileLookup(rows.entries(), rows.file(), FileIdentity.probe(driver, original));
        // a look-up with damaged rows is not kept: its warning is repeated at every open, as without this class
        if (rows.stamp().isPresent() && !damaged[0] && l.identity().vouches(l.identity())) {
            synchronized (LAST) {
                LAST.put(key, new Taken(rows.stamp().get(), l));
            }
        } else {
            forget(key);
        }
        return new Answer(l, false);
    }

    private static FileLookup reusable(Key key, StorageDriver driver) {
        Taken t;
        synchronized (LAST) {
            t = LAST.get(key);
        }
        if (t == null) return null;
        try {
            Optional<String> now = Catalog.readStamp(key.catalogDir());
            if (now.isPresent() && now.get().equals(t.stamp())) {
                FileIdentity identity = FileIdentity.probe(driver, key.original());
                if (t.lookup().identity().vouches(identity)) return t.lookup();
            }
        } catch (IOException | RuntimeException e) {
            // the full look-up decides, as without this class
        }
        forget(key);
        return null;
    }

    private static void forget(Key key) {
        synchronized (LAST) {
            LAST.remove(key);
        }
    }

    /** Forgets every look-up (tests; a process that wants the next opens to read the catalog). */
    public static void clear() {
        synchronized (LAST) {
            LAST.clear();
        }
    }

    /** Look-ups this process read from the catalog through this class (each one a catalog transaction). */
    public static long catalogReads() {
        return CATALOG_READS.get();
    }

    /** Look-ups this process answered from memory after checking the stamp and the original's identity. */
    public static long reuses() {
        return REUSES.get();
    }
}
