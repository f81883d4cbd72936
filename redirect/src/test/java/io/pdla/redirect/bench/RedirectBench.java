package io.pdla.redirect.bench;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.catalog.Catalog;
import io.pdla.catalog.CatalogAccesses;
import io.pdla.intercept.AppIdentity;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.IoCall;
import io.pdla.intercept.IoInterceptor;
import io.pdla.redirect.RedirectConfig;
import io.pdla.redirect.RedirectInterceptor;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import io.pdla.storage.posix.PosixDriver;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The redirect overhead benchmark of issue 7 (results in bench/RESULTS-replica.md section 1): the per-call cost
 * redirect adds, and contiguous 256 KiB reads and writes of a cached file through a chain without and with the
 * redirect interceptor, a catalog configured but no replica applying. (Run 1 vs run 2 on O_DIRECT is
 * {@code pdla bench direct}, through MPJ ranks and the shim.) Usage: {@code RedirectBench DIR [overheadMiB]}.
 */
public final class RedirectBench {
    public static void main(String[] args) throws Exception {
        Path dir = Files.createDirectories(Path.of(args[0]));
        int overheadMiB = args.length > 1 ? Integer.parseInt(args[1]) : 512;
        perCallCost(dir);
        overhead(dir, overheadMiB);
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
