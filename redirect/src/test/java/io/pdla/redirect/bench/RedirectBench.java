package io.pdla.redirect.bench;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.AppIdentity;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.IoCall;
import io.pdla.intercept.IoInterceptor;
import io.pdla.redirect.RedirectConfig;
import io.pdla.redirect.RedirectInterceptor;
import io.pdla.redirect.RedirectStats;
import io.pdla.replicator.catalog.Catalog;
import io.pdla.replicator.catalog.CatalogAccesses;
import io.pdla.replicator.daemon.DaemonOptions;
import io.pdla.replicator.daemon.Replication;
import io.pdla.replicator.pattern.NestedStridedPattern;
import io.pdla.replicator.pattern.PatternKey;
import io.pdla.replicator.queue.CatalogPatternQueue;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import io.pdla.storage.posix.PosixDriver;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The redirect benchmarks of issue 7 (results in bench/RESULTS-replica.md):
 * <ol>
 * <li>overhead: contiguous 256 KiB reads and writes of a cached file through a chain without and with the
 * redirect interceptor, a catalog configured but no replica applying;</li>
 * <li>O_DIRECT (hint posix_direct_io=true), 4 ranks as threads, 16 KiB strided reads (stride 32 KiB, each rank
 * its own region): run 1 from the original, run 2 through redirect with and without read-ahead, and a
 * sequential 4 MiB O_DIRECT read of the same file as the device's limit.</li>
 * </ol>
 * Usage: {@code RedirectBench DIR [overheadMiB] [perRankMiB]}.
 */
public final class RedirectBench {
    static final int NP = 4, REQ = 16 << 10, STRIDE = 32 << 10, ALIGN = 4096;

    public static void main(String[] args) throws Exception {
        Path dir = Files.createDirectories(Path.of(args[0]));
        int overheadMiB = args.length > 1 ? Integer.parseInt(args[1]) : 512;
        int perRankMiB = args.length > 2 ? Integer.parseInt(args[2]) : 32;
        overhead(dir, overheadMiB);
        direct(dir, perRankMiB);
    }

    // ------------------------------------------------------------------ overhead

    static void overhead(Path dir, int mib) throws Exception {
        Path f = dir.resolve("ior-contig.dat");
        long size = (long) mib << 20;
        fill(f, size);
        Path db = dir.resolve("catalog-overhead");
        try (Catalog c = Catalog.open(db)) {
            CatalogAccesses.register(db, c);
            // the catalog knows a replica of another file: nothing applies to this one
            RedirectConfig cfg = RedirectConfig.from(Map.of()).withCatalog(db);
            int transfer = 256 << 10;
            int reps = 21;
            double[] plainR = new double[reps], redirR = new double[reps], plainW = new double[reps], redirW = new double[reps];
            for (int rep = 0; rep < reps; rep++) {
                // alternate which goes first, so drift in the machine's state does not favour one side
                boolean redirFirst = rep % 2 == 1;
                if (redirFirst) redirR[rep] = pass(f, size, transfer, List.of(new RedirectInterceptor(cfg)), IoOp.READ);
                plainR[rep] = pass(f, size, transfer, List.of(), IoOp.READ);
                if (!redirFirst) redirR[rep] = pass(f, size, transfer, List.of(new RedirectInterceptor(cfg)), IoOp.READ);
                if (redirFirst) redirW[rep] = pass(f, size, transfer, List.of(new RedirectInterceptor(cfg)), IoOp.WRITE);
                plainW[rep] = pass(f, size, transfer, List.of(), IoOp.WRITE);
                if (!redirFirst) redirW[rep] = pass(f, size, transfer, List.of(new RedirectInterceptor(cfg)), IoOp.WRITE);
            }
            report("read  256 KiB contiguous, cached", plainR, redirR);
            report("write 256 KiB contiguous, cached", plainW, redirW);
            CatalogAccesses.unregister(db);
        }
    }

    static void report(String what, double[] plain, double[] redir) {
        double p = median(plain), r = median(redir);
        System.out.printf("overhead %-34s without redirect %8.1f MiB/s, with redirect %8.1f MiB/s, difference %+.2f%% (medians of %d)%n",
                what, p, r, (r - p) / p * 100, plain.length);
    }

    /** One pass over the file in {@code transfer}-byte requests; MiB/s of the data calls (open and close excluded). */
    static double pass(Path f, long size, int transfer, List<IoInterceptor> icpts, IoOp op) throws Exception {
        PosixDriver d = new PosixDriver();
        try (StorageFile file = d.open(f.toUri(), OpenOptions.readWrite())) {
            FileContext ctx = new FileContext(f.toString(), f.toUri(), 0, 0, 1, new AppIdentity("bench", 1), Map.of(), d, file);
            InterceptorChain chain = new InterceptorChain(icpts);
            chain.opened(ctx);
            ByteBuffer buf = ByteBuffer.allocateDirect(transfer);
            long t0 = System.nanoTime();
            for (long off = 0; off < size; off += transfer) {
                buf.clear();
                chain.execute(IoCall.data(ctx, op, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(off, transfer), buf));
            }
            long t = System.nanoTime() - t0;
            chain.closing(ctx);
            return size / 1048576.0 / (t / 1e9);
        }
    }

    // ------------------------------------------------------------------ O_DIRECT run 1 / run 2

    static void direct(Path dir, int perRankMiB) throws Exception {
        Path f = dir.resolve("ior-strided.dat");
        long region = (long) perRankMiB << 21; // each rank reads half of its region (16 KiB of every 32 KiB)
        long size = region * NP;
        fill(f, size);
        Path db = dir.resolve("catalog-direct");
        Map<String, String> hints = Map.of(PosixDriver.HINT_DIRECT_IO, "true");
        int perRank = (int) (region / STRIDE);
        try (Catalog c = Catalog.open(db)) {
            CatalogAccesses.register(db, c);
            Replication r = new Replication(DaemonOptions.defaults(db), c, new CatalogPatternQueue(c), null);
            for (int rank = 0; rank < NP; rank++) {
                r.queue.offer(NestedStridedPattern.strided(new PatternKey("bench", NP, rank, f.toUri()), rank * region, REQ, STRIDE, perRank));
            }
            long t0 = System.nanoTime();
            var rep = r.daemon.runOnce();
            System.out.printf("direct: daemon built %d replicas (%d MiB) in %.2f s%n", rep.published(), rep.bytesCopied() >> 20, (System.nanoTime() - t0) / 1e9);
            long data = (long) NP * perRank * REQ;
            for (int round = 0; round < 5; round++) {
                double seq = sequential(f, size);
                double run1 = strided(f, region, perRank, hints, null);
                double run2 = strided(f, region, perRank, hints, RedirectConfig.from(Map.of()).withCatalog(db).withReadAhead(0));
                double run2ra = strided(f, region, perRank, hints, RedirectConfig.from(Map.of()).withCatalog(db).withReadAhead(4 << 20));
                System.out.printf("direct round %d: %d MiB read by 4 ranks in 16 KiB requests: run 1 %.1f MiB/s, run 2 %.1f MiB/s (%.2fx), "
                                + "run 2 + read-ahead %.1f MiB/s (%.2fx); sequential 4 MiB O_DIRECT read of the file %.1f MiB/s (run 2 + RA = %.0f%% of it)%n",
                        round, data >> 20, run1, run2, run2 / run1, run2ra, run2ra / run1, seq, run2ra / seq * 100);
            }
            CatalogAccesses.unregister(db);
        }
    }

    static double strided(Path f, long region, int perRank, Map<String, String> hints, RedirectConfig redirect) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(NP);
        List<RedirectInterceptor> icpts = new ArrayList<>();
        try {
            List<Future<Long>> done = new ArrayList<>();
            List<FileContext> ctxs = new ArrayList<>();
            List<InterceptorChain> chains = new ArrayList<>();
            PosixDriver d = new PosixDriver();
            for (int rank = 0; rank < NP; rank++) {
                StorageFile file = d.open(f.toUri(), OpenOptions.readOnly().withHints(hints));
                FileContext ctx = new FileContext(f.toString(), f.toUri(), 0, rank, NP, new AppIdentity("bench", NP), hints, d, file);
                List<IoInterceptor> l = new ArrayList<>();
                if (redirect != null) {
                    RedirectInterceptor ri = new RedirectInterceptor(redirect);
                    icpts.add(ri);
                    l.add(ri);
                }
                InterceptorChain chain = new InterceptorChain(l);
                chain.opened(ctx);
                ctxs.add(ctx);
                chains.add(chain);
            }
            long t0 = System.nanoTime();
            for (int rank = 0; rank < NP; rank++) {
                int rk = rank;
                done.add(pool.submit(() -> {
                    ByteBuffer buf = ByteBuffer.allocateDirect(REQ + ALIGN).alignedSlice(ALIGN);
                    long bytes = 0;
                    for (int i = 0; i < perRank; i++) {
                        buf.clear().limit(REQ);
                        bytes += chains.get(rk).execute(IoCall.data(ctxs.get(rk), IoOp.READ, Positioning.EXPLICIT_OFFSET, false,
                                ExtentList.of(rk * region + (long) i * STRIDE, REQ), buf));
                    }
                    return bytes;
                }));
            }
            long bytes = 0;
            for (Future<Long> x : done) bytes += x.get();
            long t = System.nanoTime() - t0;
            for (int rank = 0; rank < NP; rank++) {
                chains.get(rank).closing(ctxs.get(rank));
                ctxs.get(rank).file().close();
            }
            if (redirect != null) {
                long fromReplica = icpts.stream().mapToLong(i -> i.stats().bytesFromReplica.get()).sum();
                if (fromReplica != bytes) throw new IllegalStateException("run 2 read " + fromReplica + " of " + bytes + " bytes from replicas");
            }
            return bytes / 1048576.0 / (t / 1e9);
        } finally {
            pool.shutdown();
        }
    }

    static double sequential(Path f, long size) throws Exception {
        PosixDriver d = new PosixDriver();
        try (StorageFile file = d.open(f.toUri(), OpenOptions.readOnly().withHints(Map.of(PosixDriver.HINT_DIRECT_IO, "true")))) {
            int chunk = 4 << 20;
            ByteBuffer buf = ByteBuffer.allocateDirect(chunk + ALIGN).alignedSlice(ALIGN);
            long t0 = System.nanoTime();
            for (long off = 0; off < size; off += chunk) {
                buf.clear();
                file.read(off, buf);
            }
            return size / 1048576.0 / ((System.nanoTime() - t0) / 1e9);
        }
    }

    static void fill(Path f, long size) throws Exception {
        if (Files.exists(f) && Files.size(f) == size) return;
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer b = ByteBuffer.allocate(1 << 20);
            java.util.Random rnd = new java.util.Random(1);
            for (long off = 0; off < size; off += b.capacity()) {
                rnd.nextBytes(b.array());
                b.clear();
                ch.write(b, off);
            }
            ch.force(true);
        }
    }

    static double median(double[] x) {
        double[] s = x.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
