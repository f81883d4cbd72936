package io.pdla.redirect;

import io.pdla.access.ExtentList;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.pattern.RandomGeometries;
import io.pdla.replicator.Fixture;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import io.pdla.storage.posix.PosixDriver;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seeded random sequences of reads, writes (inside and outside patterns, multi-extent as views produce them),
 * size changes and syncs, by several ranks over several runs, with replicas built between runs; every read
 * through the redirect chain is compared byte for byte with the same read of a plain file that received the
 * same writes. Ranks that share a file sync after each other's writes (MPI's sync-barrier-sync).
 */
class DifferentialConsistencyTest {
    // Per test method (JUnit makes an instance per method): a static tally would let one method's
    // "writes went into replicas" guard be met by the other method's writes.
    private long daemonNanos;
    private long writtenToReplicas;
    /** Replicas the daemon combined from ranks' patterns (rank after rank, one file): the writes and reads went through them too. */
    private long combined;
    private boolean combining;
    @TempDir
    Path tmp;

    @Test
    void randomSequencesMatchAPlainFile() throws Exception {
        run(Integer.getInteger("pdla.diff.sequences", 12));
    }

    @Tag("heavy")
    @Test
    void thousandsOfRandomSequencesMatchAPlainFile() throws Exception {
        run(Integer.getInteger("pdla.diff.heavySequences", 2000));
    }

    private void run(int sequences) throws Exception {
        long seed = Long.getLong("pdla.diff.seed", System.nanoTime());
        System.out.println("DifferentialConsistencyTest seed=" + seed + " sequences=" + sequences);
        Random master = new Random(seed);
        long served = 0;
        long reads = 0;
        Fixture fx = null;
        try {
            for (int s = 0; s < sequences; s++) {
                // one catalog serves many sequences (each has its own file), renewed so that scans stay short
                if (s % 25 == 0) {
                    if (fx != null) fx.close();
                    fx = new Fixture(Files.createDirectories(tmp.resolve("c" + s)));
                    // the first catalog's daemon combines ranks' same-shaped patterns into one replica, the next keeps
                    // one per rank, and so on: both kinds take the same reads and writes
                    if (s % 50 == 0) fx.replication.daemon.gatherRanksFor(0);
                    combining = s % 50 == 0;
                }
                long seqSeed = master.nextLong();
                Path dir = Files.createDirectories(tmp.resolve("s" + s));
                long[] counts = sequence(fx, dir, seqSeed, "seed " + seed + " sequence " + s + " (sequence seed " + seqSeed + ")");
                served += counts[0];
                reads += counts[1];
            }
        } finally {
            if (fx != null) fx.close();
        }
        System.out.println("DifferentialConsistencyTest: " + reads + " reads compared, " + served + " bytes served by replicas, "
                + writtenToReplicas + " bytes written into replicas, " + combined + " replicas combined from ranks' patterns; daemon passes took " + daemonNanos / 1_000_000 + " ms");
        assertTrue(served > 0, "replicas must actually have served reads, or the test proves nothing");
        assertTrue(writtenToReplicas > 0, "writes must actually have gone into replicas, or the test proves nothing about them");
        assertTrue(combined > 0, "ranks' patterns must have been combined into one replica, or the test proves nothing about those");
    }

    /** Returns {bytes served by replicas, reads compared}. */
    private long[] sequence(Fixture fx, Path dir, long seed, String where) throws Exception {
        Random rnd = new Random(seed);
        Path file = dir.resolve("f.dat");
        Path plain = dir.resolve("plain.dat");
        int size = 4096 + rnd.nextInt(60_000);
        byte[] init = Fixture.writeRandomFile(file, size, seed);
        Files.write(plain, init);
        int np = 2 + rnd.nextInt(3);
        long served = 0, reads = 0;
        try (StorageFile ref = new PosixDriver().open(plain.toUri(), OpenOptions.readWrite())) {
            List<KeyedPattern> patterns = new ArrayList<>();
            for (int run = 0; run < 3; run++) {
                if (run > 0) {
                    // a combining daemon gets, half the time, only some ranks' same-shaped patterns (other patterns of the
                    // file beside them would keep them apart)
                    List<KeyedPattern> offered = new ArrayList<>();
                    if (combining && rnd.nextBoolean()) {
                        offered.addAll(rankFamily(rnd, file, np, ref.size()));
                    } else {
                        int n = 1 + rnd.nextInt(4);
                        for (int i = 0; i < n; i++) {
                            KeyedPattern p = randomPattern(rnd, file, np, ref.size());
                            if (p != null) offered.add(p);
                        }
                    }
                    for (KeyedPattern p : offered) {
                        fx.replication.queue.offer(p);
                        patterns.add(p);
                    }
                    long t0 = System.nanoTime();
                    combined += fx.replication.daemon.runOnce().lines().stream().filter(l -> l.startsWith("COMBINED")).count();
                    daemonNanos += System.nanoTime() - t0;
                }
                long readAhead = rnd.nextBoolean() ? 0 : 4096L << rnd.nextInt(4);
                RedirectConfig cfg = RedirectConfig.from(Map.of()).withCatalog(fx.db).withReadAhead(readAhead);
                int ranks = 1 + rnd.nextInt(Math.min(3, np));
                List<ChainFile> open = new ArrayList<>();
                List<RedirectInterceptor> icpts = new ArrayList<>();
                for (int r = 0; r < ranks; r++) {
                    RedirectInterceptor ri = new RedirectInterceptor(cfg);
                    icpts.add(ri);
                    open.add(new ChainFile(file.toUri(), "app", np, r, Map.of(), List.of(ri)));
                }
                try {
                    int ops = 10 + rnd.nextInt(40);
                    for (int op = 0; op < ops; op++) {
                        int who = rnd.nextInt(ranks);
                        ChainFile f = open.get(who);
                        long fsize = ref.size();
                        int kind = rnd.nextInt(100);
                        String at = where + " run " + run + " op " + op + " rank " + who;
                        if (kind < 60) {
                            ExtentList ex = patterns.isEmpty() || rnd.nextInt(10) < 4
                                    ? randomExtents(rnd, fsize + 200, 3) : patternExtents(rnd, patterns.get(rnd.nextInt(patterns.size())));
                            ByteBuffer want = ByteBuffer.allocate((int) ex.totalBytes());
                            long wn = ref.readv(ex, want);
                            byte[] got = f.read(ex);
                            assertEquals(wn, got.length, at + " read length of " + ex);
                            assertArrayEquals(Arrays.copyOf(want.array(), (int) wn), got, at + " read of " + ex);
                            reads++;
                        } else if (kind < 90) {
                            ExtentList ex = randomExtents(rnd, fsize + 2000, 2);
                            byte[] data = new byte[(int) ex.totalBytes()];
                            rnd.nextBytes(data);
                            ref.writev(ex, ByteBuffer.wrap(data));
                            f.write(ex, ByteBuffer.wrap(data));
                            for (ChainFile other : open) if (other != f) other.sync();
                        } else if (kind < 95) {
                            long ns = Math.max(0, fsize + rnd.nextInt(4000) - 3000);
                            ref.setSize(ns);
                            f.setSize(ns);
                            for (ChainFile other : open) if (other != f) other.sync();
                        } else {
                            f.sync();
                        }
                    }
                } finally {
                    for (ChainFile f : open) f.close();
                }
                for (RedirectInterceptor ri : icpts) {
                    served += ri.stats().bytesFromReplica.get();
                    writtenToReplicas += ri.stats().bytesWrittenToReplica.get();
                }
                byte[] want = Files.readAllBytes(plain);
                // a later run sees every write, wherever it went (DIRTY replicas hold some until written back)
                RedirectInterceptor later = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db).withReadAhead(0));
                try (ChainFile f = new ChainFile(file.toUri(), "app", np, 0, Map.of(), List.of(later))) {
                    assertArrayEquals(want, f.read(0, want.length + 100), where + " run " + run + ": a new reader sees every write");
                }
                new io.pdla.replicator.daemon.WriteBack(fx.catalog, io.pdla.storage.StorageDrivers.installed()).writeBack(file.toUri());
                assertArrayEquals(want, Files.readAllBytes(file), where + " run " + run + ": after the write-back the original holds every write");
            }
        }
        return new long[]{served, reads};
    }

    /**
     * Any closed form the analyzer can find (several segments per cycle, negative strides, nested levels, a partial
     * last block): core's random geometries, scaled up to request-sized pieces and moved into the file.
     */
    private static KeyedPattern randomPattern(Random rnd, Path file, int np, long fileSize) {
        for (int attempt = 0; attempt < 20; attempt++) {
            int rank = rnd.nextInt(4) == 0 ? -1 : rnd.nextInt(np);
            PatternKey key = new PatternKey(new AppIdentity("app", np), rank, file.toUri());
            Geometry.Spec s = RandomGeometries.randomSpec(rnd);
            long k = 1 + rnd.nextInt(400);
            Geometry unplaced = Geometry.of(scale(s, k, 0));
            long low = unplaced.nextCoveredOffset(0);
            long shift = rnd.nextInt((int) Math.max(1, fileSize / 2)) - low;
            Geometry g = Geometry.of(scale(s, k, shift));
            KeyedPattern p = KeyedPattern.of(key, g);
            // mostly patterns inside the file; sometimes one that reaches past its end (the daemon rejects it)
            long end = g.lowOffset() + g.span();
            if (end <= fileSize || rnd.nextInt(10) == 0) return p;
        }
        return null;
    }

    /**
     * IOR's strided shape for some of the job's ranks (the first k of them): rank r's blocks at r * b + i * np * b,
     * inside the file; what a combining daemon makes one replica of.
     */
    private static List<KeyedPattern> rankFamily(Random rnd, Path file, int np, long fileSize) {
        int k = 2 + rnd.nextInt(np - 1);
        long b = 64 + rnd.nextInt(2000);
        long count = Math.max(1, Math.min(1 + rnd.nextInt(20), fileSize / (np * b)));
        List<KeyedPattern> out = new ArrayList<>();
        for (int r = 0; r < k; r++) {
            out.add(KeyedPattern.of(new PatternKey(new AppIdentity("app", np), r, file.toUri()), Geometry.strided(r * b, b, np * b, count)));
        }
        return out;
    }

    private static Geometry.Spec scale(Geometry.Spec s, long k, long shift) {
        long[] off = s.segOffsets().clone(), len = s.segLengths().clone(), st = s.strides().clone();
        for (int i = 0; i < off.length; i++) {
            off[i] *= k;
            len[i] *= k;
        }
        for (int i = 0; i < st.length; i++) st[i] *= k;
        return new Geometry.Spec(s.start() * k + shift, off, len, st, s.counts(), s.totalBytes() * k);
    }

    /** A run of the pattern as the application would issue it: a few consecutive pieces in pattern order. */
    private static ExtentList patternExtents(Random rnd, KeyedPattern kp) {
        Geometry p = kp.geometry();
        long pos = rnd.nextInt((int) p.totalBytes());
        ExtentList.Builder b = ExtentList.builder();
        int pieces = 1 + rnd.nextInt(3);
        for (int i = 0; i < pieces && pos < p.totalBytes(); i++) {
            long off = p.offsetAt(pos);
            long len = Math.min(p.runLengthAt(off), 1 + rnd.nextInt(4000));
            b.add(off, len);
            pos += len;
        }
        return b.build();
    }

    private static ExtentList randomExtents(Random rnd, long limit, int maxExtents) {
        int n = 1 + rnd.nextInt(maxExtents);
        ExtentList.Builder b = ExtentList.builder();
        long o = rnd.nextInt((int) Math.max(1, limit));
        for (int i = 0; i < n; i++) {
            long len = 1 + rnd.nextInt(rnd.nextBoolean() ? 64 : 6000);
            b.add(o, len);
            o = o + len + rnd.nextInt(3000);
        }
        return b.build();
    }
}
