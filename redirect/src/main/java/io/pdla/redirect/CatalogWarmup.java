package io.pdla.redirect;

import io.pdla.catalog.FileLookup;
import io.pdla.catalog.TransientCatalogAccess;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * One catalog look-up, through the code an open's look-up runs ({@link FileLookup#read}), against a new scratch catalog
 * in a temporary directory, on a background thread: so that the rank that looks files up loads and first runs the
 * catalog's store (Berkeley DB JE's classes, an environment's creation and close, its databases, a read transaction, a
 * local file's identity probe) before a replica exists rather than in the open that first finds one. Opening an
 * existing catalog (recovery of its log) and other stores' probes still run for the first time in that open.
 *
 * <p>Why: in an online PDLA job, opens before the first replica is published never touch the catalog (the index of
 * replicated originals says no), so the first open that finds a replica paid all of that on rank 0 while every other
 * rank waited for its look-up at the open: about 0.5 s of rank 0's CPU, against 0.05 s for each later open
 * (bench/RESULTS-online.md, 2026-11-30). A scratch catalog rather than the job's own: the warm-up never waits for
 * the daemon's hold on the real one, never makes the daemon wait, and cannot touch its data. Best-effort: a failure
 * here is logged and the first real look-up simply pays again. It costs that CPU where it starts, in the job's first
 * pass: on two cores, an O_DIRECT job's pass 1 took about 0.35 s longer and its first served pass about 0.6 s less
 * (A/B in one window, 2026-11-30). {@code PDLA_WARMUP=false} turns it off with the rank's other warm-ups.
 */
final class CatalogWarmup {
    private static final Logger LOG = Logger.getLogger(CatalogWarmup.class.getName());
    /** Once per class loader, i.e. per rank under MPJ's multicore device (each rank has its own copy of JE). */
    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private CatalogWarmup() {
    }

    /**
     * Starts the warm-up unless this rank's copy ran it already, {@code PDLA_WARMUP=false}, or the job's catalog does not
     * exist yet; returns its thread, or null.
     */
    static Thread startOnce(Path catalog) {
        if (STARTED.get() || !enabled(io.pdla.intercept.Environment.get("PDLA_WARMUP")) || !worthWarmingFor(catalog)) return null;
        if (!STARTED.compareAndSet(false, true)) return null;
        Thread t = new Thread(CatalogWarmup::runQuietly, "pdla-warmup-catalog");
        t.setDaemon(true);   // never keeps a finished job alive
        t.start();
        return t;
    }

    /**
     * Only for a catalog that exists: a daemon makes its catalog when it starts, so a job whose catalog is not there has
     * no daemon building for it (yet), and the warm-up's CPU would only slow its passes (a 4 KiB page-cache job's ten
     * passes took 0.1-0.3 s longer, bench/RESULTS-online.md, session 29). A later open, once the catalog exists, warms up.
     */
    static boolean worthWarmingFor(Path catalog) {
        return catalog != null && Files.isDirectory(catalog);
    }

    /** Off only with the setting every rank warm-up honours ({@code PDLA_WARMUP=false}, mpiio-shim's {@code RankWarmup}). */
    static boolean enabled(String setting) {
        return setting == null || !setting.trim().equalsIgnoreCase("false");
    }

    private static void runQuietly() {
        runQuietly(Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** {@link #run} with every failure logged, never thrown: the job's I/O goes on as if nothing had been tried. */
    static void runQuietly(Path parent) {
        try {
            run(parent);
        } catch (IOException | RuntimeException | LinkageError e) {
            LOG.fine(() -> "catalog warm-up skipped: " + e);
        }
    }

    /** The look-up against a scratch catalog made in {@code parent} and deleted afterwards; returns how many entries it found (none). */
    static int run(Path parent) throws IOException {
        Path dir = Files.createTempDirectory(parent, "pdla-catalog-warmup");
        // a job that ends before the warm-up does (a short job, an error exit) kills this daemon thread before its
        // finally: the hook deletes the scratch catalog then, so that jobs do not pile them up in the temporary directory
        Thread cleanUp = new Thread(() -> deleteQuietly(dir), "pdla-warmup-catalog-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanUp);
        try {
            Path original = Files.createFile(dir.resolve("original"));
            URI uri = original.toUri();
            StorageDriver driver = StorageDrivers.installed().forUri(uri);
            return FileLookup.read(new TransientCatalogAccess(dir.resolve("catalog"), 0), driver, uri, problem -> { }).entries().size();
        } finally {
            deleteQuietly(dir);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanUp);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway; the directory is gone already
            }
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    LOG.fine(() -> "catalog warm-up: " + p + " left behind: " + e.getMessage());
                }
            });
        } catch (IOException e) {
            LOG.fine(() -> "catalog warm-up: " + dir + " left behind: " + e.getMessage());
        }
    }
}
