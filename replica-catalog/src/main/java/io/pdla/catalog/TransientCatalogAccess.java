package io.pdla.catalog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Opens the catalog for one transaction and closes it again, waiting (pdla-bdb's back-off) while another process
 * holds it (JE allows a single writing process per environment). Within one JVM and class loader, JE shares an open
 * environment between handles, so this is cheaper when a {@link Catalog} is already open here; cheaper still inside a
 * {@link #holdOpen hold}, whose catalog every transaction of any access of the directory in this class loader
 * runs in (no open at all).
 */
public final class TransientCatalogAccess implements CatalogAccess {
    /**
     * The catalogs held open in this class loader, by directory. Guarded by itself. Static: the daemon's parts and the
     * cli's hooks each make their own access of the same directory, and a hold taken by one must serve them all.
     */
    private static final Map<Path, Shared> HELD = new HashMap<>();

    private final Path dir;
    private final long waitMillis;

    public TransientCatalogAccess(Path dir, long waitMillis) {
        this.dir = dir.toAbsolutePath().normalize();
        this.waitMillis = waitMillis;
    }

    /**
     * A hold of a directory: the catalog its first transaction opened (null before), and how many holds and running
     * transactions use it; closed by whichever of them ends last.
     */
    private static final class Shared {
        volatile Catalog catalog;
        int users;

        /** The held catalog, opened by the first transaction that needs it (others of the hold wait for that open). */
        synchronized Catalog opened(Path dir, long waitMillis) {
            if (catalog == null) catalog = Catalog.openWaiting(dir, waitMillis);
            return catalog;
        }
    }

    @Override
    public <T> T transact(Work<T> work) throws IOException {
        Shared held = join(dir, false);
        if (held != null) {
            // a user of its own: a hold closed meanwhile (another thread's) must not close the catalog under this transaction
            try {
                return held.opened(dir, waitMillis).transact(work);
            } finally {
                leave(dir, held);
            }
        }
        try (Catalog c = Catalog.openWaiting(dir, waitMillis)) {
            return c.transact(work);
        }
    }

    /**
     * Keeps the catalog open from the first transaction of the hold (of any access of this directory in this class
     * loader) until the hold is closed. Opened by that transaction, not now: work before it (the cli's look at the
     * pattern database) leaves the catalog to other processes, a hold without transactions costs nothing, and a
     * catalog locked by another process is waited for, or reported, by the transaction as without a hold.
     */
    @Override
    public Hold holdOpen() {
        Shared mine = join(dir, true);
        AtomicBoolean closed = new AtomicBoolean();
        return () -> {
            if (closed.compareAndSet(false, true)) leave(dir, mine);
        };
    }

    /** Whether a hold of {@code dir} is in force in this class loader (for tests and diagnostics). */
    public static boolean held(Path dir) {
        synchronized (HELD) {
            return HELD.containsKey(dir.toAbsolutePath().normalize());
        }
    }

    /** The hold of {@code dir} with one more user, begun if {@code begin}; null when there is none to join. */
    private static Shared join(Path dir, boolean begin) {
        synchronized (HELD) {
            Shared s = HELD.get(dir);
            if (s == null) {
                if (!begin) return null;
                s = new Shared();
                HELD.put(dir, s);
            }
            s.users++;
            return s;
        }
    }

    private static void leave(Path dir, Shared s) {
        synchronized (HELD) {
            if (--s.users > 0) return;
            HELD.remove(dir, s);
        }
        // outside the lock: the last close of an environment takes milliseconds, and other directories' users need not wait
        Catalog c = s.catalog;
        if (c != null) c.close();
    }

    @Override
    public String location() {
        return dir.toString();
    }

    @Override
    public Path directory() {
        return dir;
    }
}
