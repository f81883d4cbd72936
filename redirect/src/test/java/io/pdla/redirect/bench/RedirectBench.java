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
        if (args.length > 3 && args[3].equals("overhead-only")) {
            perCallCost(dir);
            overhead(dir, overheadMiB);
            return;
        }
        perCallCost(dir);
        overhead(dir, overheadMiB);
        direct(dir, perRankMiB);
    }

    // ------------------------------------------------------------------ overhead

    /**
     * CPU cost the redirect interceptor adds to one 256 KiB read or write when no replica applies, measured on
     * a storage file that moves no data (so device and page-cache noise of this shared machine cannot hide or
     * inflate it): best of 7 blocks of 200000 calls each way.
     */
    static void perCallCost(Path dir) throws Exception {
        Path db = dir.resolve("catalog-overhead");
        try (Catalog c = Catalog.open(db)) {
            CatalogAccesses.register(db, c);
            RedirectConfig cfg = RedirectConfig.from(Map.of()).withCatalog(db);
            for (IoOp op : new IoOp[]{IoOp.READ, IoOp.WRITE}) {
                double best0 = Double.MAX_VALUE, best1 = Double.MAX_VALUE;
                for (int block = 0; block < 7; block++) {
                    best0 = Math.min(best0, nullCalls(List.of(), op, dir));
                    best1 = Math.min(best1, nullCalls(List.of(new RedirectInterceptor(cfg)), op, dir));
                }
                System.out.printf("per-call cost of redirect (no replica applies), %s: %.0f ns per call (chain alone %.0f ns, with redirect %.0f ns)%n",
                        op, best1 - best0, best0, best1);
            }
            CatalogAccesses.unregister(db);
        }
    }

    /** ns per 256 KiB call through the chain to a file that moves no bytes. */
    static double nullCalls(List<IoInterceptor> icpts, IoOp op, Path dir) throws Exception {
        StorageFile nothing = new StorageFile() {
            public java.net.URI uri() { return dir.resolve("null").toUri(); }
            public int read(long offset, ByteBuffer dst) { int n = dst.remaining(); dst.position(dst.limit()); return n; }
            public void write(long offset, ByteBuffer src) { src.position(src.limit()); }
            public long size() { return Long.MAX_VALUE / 2; }
            public void setSize(long size) { }
            public void sync() { }
            public void close() { }
        };
        Path real = dir.resolve("null.dat");
        if (!Files.exists(real)) Files.write(real, new byte[1]);
        PosixDriver d = new PosixDriver();
        FileContext ctx = new FileContext(real.toString(), real.toUri(), 0, 0, 1, new AppIdentity("bench", 1), Map.of(), d, nothing);
        InterceptorChain chain = new InterceptorChain(icpts);
        chain.opened(ctx);
        ByteBuffer buf = ByteBuffer.allocateDirect(256 << 10);
        int n = 200_000;
        chain.execute(IoCall.data(ctx, op, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(0, 256 << 10), buf.clear()));
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            buf.clear();
            chain.execute(IoCall.data(ctx, op, Positioning.EXPLICIT_OFFSET, false, ExtentList.of((long) i << 18, 256 << 10), buf));
        }
        double ns = (System.nanoTime() - t0) / (double) n;
        chain.closing(ctx);
        return ns;
    }

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
            int reps = 9;
            double[][] r = new double[reps][], w = new double[reps][];
            for (int rep = 0; rep < reps; rep++) {
                r[rep] = interleaved(f, size, transfer, cfg, IoOp.READ);
                w[rep] = interleaved(f, size, transfer, cfg, IoOp.WRITE);
            }
            report("read  256 KiB contiguous, cached", r);
            report("write 256 KiB contiguous, cached", w);
            CatalogAccesses.unregister(db);
        }
    }

    static void report(String what, double[][] runs) {
        double[] plain = new double[runs.length], redir = new double[runs.length], diff = new double[runs.length];
        for (int i = 0; i < runs.length; i++) {
            plain[i] = runs[i][0];
            redir[i] = runs[i][1];
            diff[i] = (runs[i][1] - runs[i][0]) / runs[i][0] * 100;
        }
        System.out.printf("overhead %-34s without redirect %8.1f MiB/s, with redirect %8.1f MiB/s, difference %+.2f%% "
                        + "(medians of %d passes; per-pass differences %s; session start %.2f ms once per file, not in the rates)%n",
                what, median(plain), median(redir), median(diff), runs.length, Arrays.toString(Arrays.stream(diff).map(d -> Math.round(d * 100) / 100.0).toArray()),
                median(Arrays.stream(runs).mapToDouble(x -> x[2]).toArray()));
    }

    /**
     * One pass over the file with two chains open on it, one plain and one with redirect, alternating call by
     * call (and which of the two goes first), so that drift of a shared machine hits both alike. The first call
     * of each side is a warm-up outside the rates: for writes through redirect it registers the write session
     * (one durable catalog transaction per open file), reported separately. Returns {plain MiB/s, redirect
     * MiB/s, first redirect call ms}.
     */
    static double[] interleaved(Path f, long size, int transfer, RedirectConfig cfg, IoOp op) throws Exception {
        PosixDriver d = new PosixDriver();
        try (StorageFile a = d.open(f.toUri(), OpenOptions.readWrite()); StorageFile b = d.open(f.toUri(), OpenOptions.readWrite())) {
            FileContext ca = new FileContext(f.toString(), f.toUri(), 0, 0, 1, new AppIdentity("bench", 1), Map.of(), d, a);
            FileContext cb = new FileContext(f.toString(), f.toUri(), 0, 0, 1, new AppIdentity("bench", 1), Map.of(), d, b);
            InterceptorChain plain = new InterceptorChain(List.of());
            InterceptorChain redir = new InterceptorChain(List.of(new RedirectInterceptor(cfg)));
            plain.opened(ca);
            redir.opened(cb);
            ByteBuffer buf = ByteBuffer.allocateDirect(transfer);
            long tPlain = 0, tRedir = 0, bytes = 0;
            double first = 0;
            for (long off = 0, i = 0; off < size; off += transfer, i++) {
                ExtentList ex = ExtentList.of(off, transfer);
                for (int k = 0; k < 2; k++) {
                    boolean doRedir = (k == 0) == (i % 2 == 0);
                    buf.clear();
                    long t0 = System.nanoTime();
                    if (doRedir) redir.execute(IoCall.data(cb, op, Positioning.EXPLICIT_OFFSET, false, ex, buf));
                    else plain.execute(IoCall.data(ca, op, Positioning.EXPLICIT_OFFSET, false, ex, buf));
                    long t = System.nanoTime() - t0;
                    if (i == 0) {
                        if (doRedir) first = t / 1e6;
                        continue;
                    }
                    if (doRedir) tRedir += t;
                    else tPlain += t;
                }
                if (i > 0) bytes += transfer;
            }
            plain.closing(ca);
            redir.closing(cb);
            return new double[]{bytes / 1048576.0 / (tPlain / 1e9), bytes / 1048576.0 / (tRedir / 1e9), first};
        }
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
