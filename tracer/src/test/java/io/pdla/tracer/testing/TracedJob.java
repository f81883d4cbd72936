package io.pdla.tracer.testing;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.AppIdentity;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.IoCall;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import io.pdla.storage.posix.PosixDriver;
import io.pdla.tracer.runtime.TraceSettings;
import io.pdla.tracer.runtime.TracingInterceptor;
import io.pdla.tracer.runtime.Tracing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A simulated MPJ job driving the tracer through core directly: one thread per rank (as under the
 * multicore device), each with its own interceptor chain, issuing calls on real files through the POSIX
 * driver. Every call is also written down as the requests the trace must contain (times left out), and
 * data reads are checked against the deterministic content every write put there.
 */
public final class TracedJob implements AutoCloseable {
    public final Path dataDir;
    public final Path traceDir;
    public final int nprocs;
    private final String command;
    private final Map<Integer, List<Expected>> expected = new ConcurrentHashMap<>();

    /** A request as the trace must hold it, with the file's path instead of its id. */
    public record Expected(int rank, String path, IoOp op, Positioning positioning, boolean collective, long offset, long length, long call) {
    }

    public TracedJob(Path dataDir, Path traceDir, int nprocs, String command) {
        this.dataDir = dataDir;
        this.traceDir = traceDir;
        this.nprocs = nprocs;
        this.command = command;
    }

    public List<Expected> expected(int rank) {
        return expected.getOrDefault(rank, List.of());
    }

    /** The byte every write puts at file offset {@code o}, so reads can be checked. */
    public static byte content(long o) {
        return (byte) (o * 31 + (o >>> 11) + 7);
    }

    public static byte[] contentOf(ExtentList extents) {
        byte[] b = new byte[(int) extents.totalBytes()];
        int k = 0;
        for (int i = 0; i < extents.size(); i++) {
            for (long o = extents.offset(i); o < extents.offset(i) + extents.length(i); o++) b[k++] = content(o);
        }
        return b;
    }

    /** How many descriptors the POSIX driver opened for each open of this job (two with its native library). */
    public volatile int storeOpens = 1;

    public RankFile open(int rank, String name, int commSize) throws IOException {
        return open(rank, name, commSize, Map.of());
    }

    public RankFile open(int rank, String name, int commSize, Map<String, String> fileHints) throws IOException {
        PosixDriver driver = new PosixDriver();
        Path p = dataDir.resolve(name);
        StorageFile f = driver.open(p.toUri(), OpenOptions.createReadWrite());
        storeOpens = f.storeOpens();
        FileContext ctx = new FileContext(name, p.toUri(), 9, rank, commSize, new AppIdentity(command, nprocs), fileHints, driver, f);
        InterceptorChain chain = new InterceptorChain(List.of(new TracingInterceptor(Map.of(TraceSettings.HINT_DIR, traceDir.toString()))));
        chain.opened(ctx);
        RankFile rf = new RankFile(rank, p.toAbsolutePath().normalize().toString(), ctx, chain, commSize > 1);
        rf.expect(IoOp.OPEN, Positioning.NONE, commSize > 1, 0, 0);
        return rf;
    }

    public interface RankBody {
        void run(int rank) throws Exception;
    }

    /** Runs {@code body} for every rank, each in its own thread, and rethrows the first failure. */
    public void runRanks(RankBody body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(nprocs);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int r = 0; r < nprocs; r++) {
                int rank = r;
                fs.add(pool.submit(() -> {
                    body.run(rank);
                    return null;
                }));
            }
            for (Future<?> f : fs) f.get();
        } finally {
            pool.shutdown();
        }
    }

    /** Ends the job: every rank's trace is sealed and its summary written. */
    @Override
    public void close() {
        Tracing.finishAll();
    }

    public final class RankFile {
        public final int rank;
        public final String path;
        public final FileContext ctx;
        private final InterceptorChain chain;
        private final boolean shared;
        private long call;

        RankFile(int rank, String path, FileContext ctx, InterceptorChain chain, boolean shared) {
            this.rank = rank;
            this.path = path;
            this.ctx = ctx;
            this.chain = chain;
            this.shared = shared;
        }

        /** The rank's interceptor chain, for calls that end somewhere else than the driver (a collective engine). */
        public InterceptorChain chain() {
            return chain;
        }

        /** Writes collectively through {@code terminal} instead of the driver, and expects the call's extents in the trace. */
        public long writeThrough(Positioning pos, ExtentList extents, InterceptorChain.Terminal terminal) throws IOException {
            long n = chain.execute(IoCall.data(ctx, IoOp.WRITE, pos, true, extents, ByteBuffer.wrap(contentOf(extents))), terminal);
            call++;
            for (int i = 0; i < extents.size(); i++) expect(IoOp.WRITE, pos, true, extents.offset(i), extents.length(i));
            return n;
        }

        void expect(IoOp op, Positioning pos, boolean coll, long offset, long length) {
            expected.computeIfAbsent(rank, k -> new ArrayList<>()).add(new Expected(rank, path, op, pos, coll, offset, length, call));
        }

        public long write(Positioning pos, boolean coll, ExtentList extents) throws IOException {
            long n = chain.execute(IoCall.data(ctx, IoOp.WRITE, pos, coll, extents, ByteBuffer.wrap(contentOf(extents))));
            call++;
            for (int i = 0; i < extents.size(); i++) expect(IoOp.WRITE, pos, coll, extents.offset(i), extents.length(i));
            return n;
        }

        /** A write that is not added to the expected list: for several threads of one rank. */
        public long writeUnrecorded(Positioning pos, boolean coll, ExtentList extents) throws IOException {
            return chain.execute(IoCall.data(ctx, IoOp.WRITE, pos, coll, extents, ByteBuffer.wrap(contentOf(extents))));
        }

        /** Reads and checks the bytes; returns them. */
        public byte[] read(Positioning pos, boolean coll, ExtentList extents) throws IOException {
            ByteBuffer buf = ByteBuffer.allocate((int) extents.totalBytes());
            long n = chain.execute(IoCall.data(ctx, IoOp.READ, pos, coll, extents, buf));
            call++;
            for (int i = 0; i < extents.size(); i++) expect(IoOp.READ, pos, coll, extents.offset(i), extents.length(i));
            if (n != extents.totalBytes()) throw new AssertionError("rank " + rank + " read " + n + " of " + extents.totalBytes() + " bytes");
            byte[] got = buf.array();
            if (!java.util.Arrays.equals(got, contentOf(extents))) throw new AssertionError("rank " + rank + " read wrong data at " + extents);
            return got;
        }

        public void meta(IoOp op, long argument) throws IOException {
            chain.execute(IoCall.meta(ctx, op, shared, argument));
            call++;
            expect(op, Positioning.NONE, shared, Math.max(0, argument), 0);
        }

        public void close() throws IOException {
            expect(IoOp.CLOSE, Positioning.NONE, shared, 0, 0);
            chain.closing(ctx);
            ctx.file().close();
        }
    }
}
