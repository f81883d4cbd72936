package io.pdla.replicator.daemon;

import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * A fresh daemon's first build ran at half the speed of its second (167 against 318 MiB/s, bench/RESULTS-online.md,
 * session 29): the JIT compiled the copy's sieving, its SHA-256 (whose intrinsic only C2 uses) and the catalog's
 * bookkeeping while the copy ran, on the cores the job needs too. Online PDLA's replica must land within one pass of
 * the job, so a long-running daemon first replicates a small scratch file of its own, through the whole production
 * path (queue, ranks gathered into one replica, cost model, shared copy, in-step mark, publication, catalog), on the
 * file system it will build on, in a scratch catalog and directory it deletes afterwards.
 *
 * <p>It runs before the daemon's first pass (about 3 s on 2 cores), not beside it: a build beside the warm-up would
 * share the cores with it and gain nothing (measured: 9 s for the warm-up beside a job, against 3 s alone). A hand-off
 * that arrives meanwhile (a daemon started with the job) cuts it short at the next round, and is built at once. It
 * can only cost time: every failure is reported in one line and the daemon goes on, since the real builds report the
 * same problem where it matters.
 */
public final class BuildWarmup {
    /** Ranks of the scratch job, and the scratch pattern's block: small blocks give the per-piece code its calls. */
    static final int RANKS = 4;
    static final int BLOCK = 4096;
    /** The scratch original: small beside any replica worth building, large enough for the compilers' thresholds. */
    static final int FILE_BYTES = 16 << 20;
    /** Each round builds the scratch file again under another job's key (distinct keys, fresh builds). */
    static final int ROUNDS = 3;
    /** Under a rate limit the scratch shrinks so that its copies take about this long: the limit is the operator's promise. */
    static final long RATE_LIMITED_SECONDS = 2;

    private BuildWarmup() {
    }

    /**
     * What a warm-up did: the replicas it published, its time, whether it gave way to work that arrived, and the
     * failure that ended it, if any.
     */
    public record Outcome(int published, long millis, boolean gaveWay, Exception failure) {
        public String describe() {
            if (failure != null) {
                return "build path not warmed up (" + failure.getClass().getSimpleName() + ": " + failure.getMessage() + "); the first build compiles it";
            }
            return gaveWay ? "build path warm-up cut short after " + published + " of " + ROUNDS + " scratch replicas in " + millis + " ms: work arrived"
                    : "build path warmed up in " + millis + " ms (" + published + " scratch replicas)";
        }
    }

    /**
     * Where the scratch goes: the replica root when it is a local directory, else beside the catalog (a local file
     * system the daemon writes anyway).
     */
    public static Path scratchParent(DaemonOptions o) {
        URI root = o.replicaRoot();
        if (root != null && "file".equals(root.getScheme())) return Path.of(root);
        Path db = o.db().toAbsolutePath();
        return db.getParent() == null ? db : db.getParent();
    }

    /** Runs one warm-up with the daemon's own options; never throws. */
    public static Outcome run(DaemonOptions o) {
        return run(o, () -> false);
    }

    /**
     * As {@link #run(DaemonOptions)}, giving way before each round when {@code workWaiting} says input waits (a job's
     * hand-off): a daemon started with the job then builds its replica at once, with what the rounds so far compiled.
     */
    public static Outcome run(DaemonOptions o, BooleanSupplier workWaiting) {
        long t0 = System.nanoTime();
        Path scratch = null;
        int[] published = {0};
        try {
            if (workWaiting.getAsBoolean()) return new Outcome(0, 0, true, null);
            Path parent = scratchParent(o);
            Files.createDirectories(parent);
            scratch = Files.createTempDirectory(parent, ".pdla-daemon-warmup-");
            boolean gaveWay = !replicateScratch(o, scratch, workWaiting, published);
            return new Outcome(published[0], (System.nanoTime() - t0) / 1_000_000, gaveWay, null);
        } catch (IOException | RuntimeException | LinkageError e) {
            return new Outcome(published[0], (System.nanoTime() - t0) / 1_000_000, false, e instanceof Exception x ? x : new IllegalStateException(e));
        } finally {
            if (scratch != null) deleteTree(scratch);
        }
    }

    /** The scratch original's size: {@link #FILE_BYTES}, or less under a rate limit; whole blocks of every rank. */
    static long scratchBytes(DaemonOptions o) {
        long stripe = (long) RANKS * BLOCK;
        long bytes = o.maxBytesPerSecond() == 0 ? FILE_BYTES : Math.min(FILE_BYTES, o.maxBytesPerSecond() * RATE_LIMITED_SECONDS / ROUNDS);
        return Math.max(4 * stripe, bytes / stripe * stripe);
    }

    /** True when every round ran, false when it gave way to waiting work; {@code published[0]} counts the replicas. */
    private static boolean replicateScratch(DaemonOptions o, Path scratch, BooleanSupplier workWaiting, int[] published) throws IOException {
        URI file = scratch.resolve("scratch.bin").toUri();
        StorageDriver driver = StorageDrivers.installed().forUri(file);
        long bytes = scratchBytes(o);
        writeOriginal(driver, file, bytes);
        DaemonOptions scratchOptions = o.withCatalog(scratch.resolve("catalog")).withReplicaRoot(scratch.resolve("replicas").toUri());
        Replication r = Replication.open(scratchOptions, new PrintStream(OutputStream.nullOutputStream()));
        r.daemon.gatherRanksFor(0);
        for (int round = 0; round < ROUNDS; round++) {
            if (workWaiting.getAsBoolean()) return false;
            AppIdentity job = new AppIdentity("pdla-daemon-warmup-" + round, RANKS);
            for (int rank = 0; rank < RANKS; rank++) {
                r.queue.offer(KeyedPattern.of(new PatternKey(job, rank, file),
                        Geometry.strided((long) rank * BLOCK, BLOCK, (long) RANKS * BLOCK, (int) (bytes / BLOCK / RANKS))));
            }
            DaemonReport rep = r.daemon.runOnce();
            if (rep.published() != 1) throw new IOException("scratch round " + round + " published " + rep.published() + " replicas: " + rep.lines());
            published[0]++;
        }
        return true;
    }

    /** Written around the page cache where the store can: the daemon then reads it as it reads an O_DIRECT job's file. */
    private static void writeOriginal(StorageDriver driver, URI file, long bytes) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect((int) Math.min(1 << 20, bytes));
        SplittableRandom random = new SplittableRandom(bytes);
        try (StorageFile f = driver.open(file, OpenOptions.createReadWrite().bypassingCache())) {
            for (long off = 0; off < bytes; off += buf.capacity()) {
                buf.clear().limit((int) Math.min(buf.capacity(), bytes - off));
                while (buf.remaining() >= Long.BYTES) buf.putLong(random.nextLong());
                buf.flip();
                f.write(off, buf);
            }
            f.sync();
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // a scratch directory left behind is named for what it is; the next warm-up makes its own
        }
    }
}
