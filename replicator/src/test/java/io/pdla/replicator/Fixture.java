package io.pdla.replicator;

import io.pdla.catalog.Catalog;
import io.pdla.catalog.CatalogAccesses;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.daemon.DaemonOptions;
import io.pdla.replicator.daemon.Replication;
import io.pdla.replicator.queue.CatalogPatternQueue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A catalog held open in a temporary directory (registered so that redirect layers in this JVM use it), a
 * wired {@link Replication}, and helpers for real files. Shared with redirect's tests through the test-jar.
 */
public final class Fixture implements AutoCloseable {
    public final Path dir;
    public final Path db;
    public final Catalog catalog;
    public final Replication replication;
    public final ByteArrayOutputStream progress = new ByteArrayOutputStream();

    public Fixture(Path dir) {
        this(dir, null);
    }

    public Fixture(Path dir, DaemonOptions options) {
        this.dir = dir;
        this.db = dir.resolve("catalog");
        this.catalog = Catalog.open(db);
        CatalogAccesses.register(db, catalog);
        DaemonOptions o = options != null ? options : DaemonOptions.defaults(db).withRate(64 << 10, 0);
        this.replication = new Replication(o, catalog, new CatalogPatternQueue(catalog), new PrintStream(progress, true));
    }

    /** Writes {@code size} seeded random bytes to a new file and returns them. */
    public static byte[] writeRandomFile(Path file, int size, long seed) throws IOException {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        Files.write(file, data);
        return data;
    }

    /**
     * A file of seeded random bytes and the patterns of ranks of one job reading it: what the tests of a job's ranks
     * reading one file set up before the daemon sees them.
     */
    public record RanksOfOneFile(Path file, byte[] data, List<KeyedPattern> patterns) {
        /** Every rank's pattern handed to {@code fx}'s queue, one item each, rank 0 first. */
        public void offerTo(Fixture fx) throws IOException {
            for (KeyedPattern p : patterns) fx.replication.queue.offer(p);
        }
    }

    /**
     * {@code fileBytes} seeded random bytes written to {@code file}, and {@link #stridedRanks}'s patterns of {@code ranks}
     * ranks over it, keyed for a job of {@code jobSize}.
     */
    public static RanksOfOneFile ranksOfOneFile(Path file, int fileBytes, long seed, int jobSize, int ranks, int block, int segments)
            throws IOException {
        byte[] data = writeRandomFile(file, fileBytes, seed);
        return new RanksOfOneFile(file, data, stridedRanks(file, jobSize, ranks, block, segments));
    }

    /**
     * IOR's strided shape of {@code ranks} ranks over {@code file} (rank r reads block {@code s * ranks + r} of every
     * segment s), keyed as ranks 0 to ranks - 1 of a job of {@code jobSize} processes: the key's job size is all that
     * {@code jobSize} changes, so a test can hand in some ranks of a larger job's key.
     */
    public static List<KeyedPattern> stridedRanks(Path file, int jobSize, int ranks, int block, int segments) {
        List<KeyedPattern> ps = new ArrayList<>(ranks);
        for (int r = 0; r < ranks; r++) {
            ps.add(KeyedPattern.of(new PatternKey(new AppIdentity("app", jobSize), r, file.toUri()),
                    Geometry.strided((long) r * block, block, (long) ranks * block, segments)));
        }
        return ps;
    }

    /** The bytes a pattern touches, in pattern order, taken from {@code original}. */
    public static byte[] patternBytes(KeyedPattern p, byte[] original) {
        ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(p.totalBytes()));
        p.geometry().forEachExtent((o, l) -> out.put(original, (int) o, (int) l));
        return out.array();
    }

    public static void overwrite(Path file, long offset, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes), offset);
        }
    }

    public static void setLength(Path file, long len) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(len);
        }
    }

    /** The daemon's {@code runUntilStopped(pollMillis)} on a thread of its own, started; the caller stops and joins it. */
    public Thread runDaemonInBackground(long pollMillis) {
        Thread loop = new Thread(() -> {
            try {
                replication.daemon.runUntilStopped(pollMillis);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "daemon-loop");
        loop.start();
        return loop;
    }

    @Override
    public void close() {
        CatalogAccesses.unregister(db);
        catalog.close();
    }
}
