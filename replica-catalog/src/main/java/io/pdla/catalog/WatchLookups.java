package io.pdla.catalog;

import io.pdla.storage.StorageDriver;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The look-ups of opens that watch, while they read, for a replica published since their open (redirect's switch
 * within an open), shared by the ranks of one JVM. An open's look-up is made once per job, by rank 0, and handed to the
 * others in the open's meeting; a read cannot meet, so each rank would look for itself: under the multicore device
 * each rank opens the JE environment with classes of its own (tenths of a second of CPU for a rank's first, and the
 * environment is opened exclusively, so the ranks and the daemon wait for each other), in the middle of a pass.
 *
 * <p>So the JVM keeps the last look-up of each (catalog, original) with the catalog's change stamp read before it:
 * a rank whose fresh read of the stamp finds the same stamp, and whose probe of the original is vouched for by the
 * look-up's identity, uses it (the rule of {@link StampedLookups}: a transaction that writes changes the stamp before it
 * commits, so rows read after the stamp are never older than it says). Only one rank of a JVM looks in the catalog at
 * a time, and none but rank 0 while rank 0 of the file watches in this JVM ({@link #rankZeroWatches}): its environment
 * is warm (redirect's {@code CatalogWarmup}). A rank with nothing to use and no turn gets null: it looks again later.
 *
 * <p>Under the multicore device every rank loads this class with its own class loader, so what the ranks share lives
 * under a system property, as JDK objects only (the shim's {@code JvmShared} does the same).
 */
public final class WatchLookups {
    private static final String ROOT = "io.pdla.catalog.watch-lookups";
    private static final int ANSWER = 0, LOOKING = 1, RANK_ZERO = 2;

    private WatchLookups() {
    }

    /** Rank 0 of a file's open begins ({@code +1}) or ends ({@code -1}) watching it in this JVM. */
    public static void rankZeroWatches(Path catalogDir, URI original, int change) {
        ((AtomicInteger) slot(catalogDir, original)[RANK_ZERO]).addAndGet(change);
    }

    /**
     * The file's look-up: the JVM's last one when nothing changed since, else a new one when it is this rank's turn;
     * null when it is not (another rank of this JVM is looking, or rank 0 watches here and this is not rank 0).
     */
    public static FileLookup read(CatalogAccess catalog, StorageDriver driver, URI original, boolean rankZero,
                                  Consumer<String> corrupt) throws IOException {
        Path dir = catalog.directory().toAbsolutePath().normalize();
        Object[] slot = slot(dir, original);
        @SuppressWarnings("unchecked") AtomicReference<Object[]> answer = (AtomicReference<Object[]>) slot[ANSWER];
        Optional<String> now = Catalog.readStamp(dir);
        Object[] last = answer.get();
        if (now.isPresent() && last != null && now.get().equals(last[0])) {
            FileLookup l = FileLookup.fromBytes((byte[]) last[1]);
            if (l.identity().vouches(FileIdentity.probe(driver, original))) return l;
        }
        if (!rankZero && ((AtomicInteger) slot[RANK_ZERO]).get() > 0) return null;
        AtomicBoolean looking = (AtomicBoolean) slot[LOOKING];
        if (!looking.compareAndSet(false, true)) return null;
        try {
            Optional<String> before = Catalog.readStamp(dir);
            boolean[] damaged = {false};
            FileLookup l = FileLookup.read(catalog, driver, original, p -> {
                damaged[0] = true;
                corrupt.accept(p);
            });
            if (before.isPresent() && !damaged[0] && l.identity().vouches(l.identity())) answer.set(new Object[]{before.get(), l.toBytes()});
            else answer.set(null);
            return l;
        } finally {
            looking.set(false);
        }
    }

    /** [the last look-up (an AtomicReference of {stamp, bytes}), a rank is looking (AtomicBoolean), rank 0 watches (AtomicInteger)]. */
    private static Object[] slot(Path catalogDir, URI original) {
        Map<String, Object[]> slots = root();
        String key = catalogDir.toAbsolutePath().normalize() + "\n" + original;
        Object[] s = slots.get(key);
        if (s != null) return s;
        Object[] made = {new AtomicReference<Object[]>(), new AtomicBoolean(), new AtomicInteger()};
        s = slots.putIfAbsent(key, made);
        return s != null ? s : made;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object[]> root() {
        Object r = System.getProperties().get(ROOT);
        if (r == null) {
            synchronized (System.getProperties()) {
                r = System.getProperties().get(ROOT);
                if (r == null) {
                    r = new ConcurrentHashMap<String, Object[]>();
                    System.getProperties().put(ROOT, r);
                }
            }
        }
        return (Map<String, Object[]>) r;
    }

    /** Forgets every shared look-up of this JVM (tests). */
    public static void clear() {
        root().clear();
    }
}
