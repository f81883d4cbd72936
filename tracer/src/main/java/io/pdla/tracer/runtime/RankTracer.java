package io.pdla.tracer.runtime;

import io.pdla.access.ExtentList;
import io.pdla.size.ByteSize;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.IoCall;
import io.pdla.tracer.counters.TracedRecord;
import io.pdla.tracer.counters.DarshanHash;
import io.pdla.tracer.counters.FileCounters;
import io.pdla.tracer.format.CounterFile;
import io.pdla.tracer.format.RankSummary;
import io.pdla.tracer.format.TraceEncoder;
import io.pdla.tracer.format.TraceFormat;
import io.pdla.tracer.format.TraceHeader;
import io.pdla.tracer.format.TraceLayer;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.pdla.intercept.PerRank;

/**
 * Everything one rank traces into one directory: the trace encoder and its background output, the
 * counters of each file, and the summary written whenever the rank has no open file and at JVM shutdown
 * (there is no MPI_Finalize hook). The registry below is per rank ({@link PerRank}): under MPJ multicore the
 * ranks may share this class (the launcher's shared classes) or each load their own copy, and a delegate rank's
 * open must not find an application rank's tracer of the same number; one rank's registry may hold several
 * ranks' tracers in tests that trace several ranks from one thread.
 *
 * <p>Never in the way: the rank's own thread queues its calls without a lock ({@link PendingCalls}) and
 * counts and encodes them in batches; output is written by a daemon thread; when more than the soft limit
 * (8 MiB) waits, the batch being encoded waits up to {@value #WAIT_MILLIS} ms for the writer, and if the
 * writer made no room, later batches do not wait again until it has; beyond the hard limit (64 MiB) whole
 * calls are dropped from the trace at once and counted
 * (counters are never dropped). Any output failure switches tracing off for
 * the run with one warning; the application's call has already completed by then.
 */
final class RankTracer {
    static final long SOFT_BACKLOG = 8L << 20;
    static final long HARD_BACKLOG = 64L << 20;
    static final long WAIT_MILLIS = 20;
    /**
     * Calls queued before they are counted and encoded together. Small on purpose: the ring (3.3 KiB of
     * numbers) stays in the first-level cache, and the batch code is entered often (256 times per 16,384
     * calls), so it is compiled as ordinary methods early (once per JVM when the multicore ranks share the tracer's
     * classes, once per rank otherwise), not only through on-stack replacement of its loops.
     */
    static final int BATCH = 64;

    private static final long FLUSH_MILLIS = 5000;
    private static final PerRank<Map<String, RankTracer>> RANKS = PerRank.of(ConcurrentHashMap::new);

    private final Path dir;
    private final int rank;
    private final int nprocs;
    private final String command;
    private final Map<String, String> hints;
    private final long originEpochNanos;
    private final long originNanoTime;
    private final long clockDomain;
    private final Thread hook;

    private TraceOutput out;
    private TraceEncoder encoder;
    private byte[] header;
    /** The aggregator layer, opened at the rank's first storage request as a collective-buffering aggregator. */
    private LayerTrace aggregatorTrace;
    private final Map<String, FileCounters> aggregatorCounters = new LinkedHashMap<>();
    private boolean tracing;
    private boolean failed;
    private volatile boolean shutDown;
    private final Map<String, TracedFile> files = new LinkedHashMap<>();
    private int openFiles;
    private long dropped;
    private final long softBacklog = ByteSize.parse(System.getProperty(TraceSettings.PROPERTY_SOFT_BACKLOG),
            "property " + TraceSettings.PROPERTY_SOFT_BACKLOG, SOFT_BACKLOG);
    private final long hardBacklog = Math.max(softBacklog, ByteSize.parse(System.getProperty(TraceSettings.PROPERTY_HARD_BACKLOG),
            "property " + TraceSettings.PROPERTY_HARD_BACKLOG, HARD_BACKLOG));
    /** The writer did not make room within one wait: do not wait again until it catches up. */
    private boolean writerStalled;
    /** Calls of {@link #owner} waiting to be counted and encoded (a batch of up to {@value #BATCH} calls). */
    private final PendingCalls pending;
    /** The thread of the rank's first open (the rank's own thread): its calls are queued without a lock. */
    private volatile Thread owner;
    /**
     * At most one summary rewrite per interval at the moments the rank has no open file: a job that opens and
     * closes a file per phase (IOR does, every few milliseconds) otherwise pays a file write and rename per phase,
     * done by the writer thread while the next phase runs (4-6 % of a 4 KiB read phase, bench/RESULTS.md). The
     * summary on disk is then at most one interval behind until shutdown writes the last one.
     */
    private final long summaryIntervalNanos;
    private long lastSummaryNanos;
    private boolean summaryWritten;
    /** Found in the rank's class loader at the first open (the rank's thread), where Jackson and Commons Compress are. */
    private final JobFilesWriter jobFiles = jobFilesWriter();

    private RankTracer(Path dir, int rank, int nprocs, String command, Map<String, String> hints) {
        this.dir = dir;
        this.rank = rank;
        this.nprocs = nprocs;
        this.command = command;
        this.hints = Map.copyOf(hints);
        this.summaryIntervalNanos = TraceSettings.summaryIntervalNanos(hints, w -> log().warning("pdla tracer, rank " + rank + ": " + w));
        this.originNanoTime = System.nanoTime();
        this.pending = new PendingCalls(BATCH, originNanoTime);
        java.time.Instant now = java.time.Instant.now();
        this.originEpochNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        this.clockDomain = jvmIdentity();
        this.hook = new Thread(this::shutdown, "pdla-tracer-shutdown-rank-" + rank);
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // a file opened during JVM shutdown: its records still reach the trace at its close
        }
    }

    /**
     * One random number per JVM, shared by all ranks of an MPJ multicore run even when each rank loads this
     * class in its own class loader ({@code PDLA_SHARED_CLASSES=false}): system properties are JVM-wide.
     */
    private static long jvmIdentity() {
        String key = "pdla.tracer.jvmIdentity";
        System.getProperties().putIfAbsent(key, Long.toString(new java.util.Random().nextLong() ^ System.nanoTime()));
        return Long.parseLong(System.getProperty(key));
    }

    private static JobFilesWriter jobFilesWriter() {
        try {
            return java.util.ServiceLoader.load(JobFilesWriter.class, io.pdla.storage.PluginLoaders.forSpi(JobFilesWriter.class)).findFirst().orElse(null);
        } catch (java.util.ServiceConfigurationError | RuntimeException e) {
            log().log(Level.FINE, "pdla tracer: no job files writer (job.json is rebuilt by readers)", e);
            return null;
        }
    }

    /** Looked up only when there is something to say: setting up logging costs milliseconds at first open. */
    private static Logger log() {
        return Logger.getLogger(RankTracer.class.getName());
    }

    static RankTracer forFile(FileContext f, Map<String, String> interceptorHints) {
        Map<String, String> merged = new HashMap<>(interceptorHints);
        merged.putAll(f.hints());
        Path dir = TraceSettings.traceDir(merged);
        return RANKS.get().computeIfAbsent(dir + "#" + f.rank(), k -> new RankTracer(dir, f.rank(), f.app().processes(), f.app().command(), merged));
    }

    /** Ends every rank's trace as the shutdown hook would; for tests and embedders that outlive a job. */
    static void shutdownAll() {
        List<RankTracer> all = new ArrayList<>();
        for (Map<String, RankTracer> rank : RANKS.all()) all.addAll(rank.values());
        for (RankTracer t : all) {
            t.shutdown();
            try {
                Runtime.getRuntime().removeShutdownHook(t.hook);
            } catch (IllegalStateException ignored) {
                // already shutting down: the hook runs anyway and finds the tracer shut down
            }
        }
        for (Map<String, RankTracer> rank : RANKS.all()) rank.values().removeAll(all);
    }

    private long now() {
        return System.nanoTime() - originNanoTime;
    }

    /** How many times the store opened the file for this open; 1 when it cannot say (a tracing failure never fails I/O). */
    private static int storeOpens(FileContext f) {
        try {
            return f.file() == null ? 1 : Math.max(1, f.file().storeOpens());
        } catch (RuntimeException e) {
            return 1;
        }
    }

    synchronized TracedFile opened(FileContext f) {
        if (shutDown) return null;
        if (owner == null) owner = Thread.currentThread();
        drainPending();
        if (out == null && !failed) startOutput();
        String path = cleanPath(f);
        TracedFile t = files.get(path);
        if (t == null) {
            int id = (int) (DarshanHash.of(path) & 0x7FFFFFFF);
            String[] mount = mountOf(f, path);
            t = new TracedFile(this, id, path, new FileCounters(rank, DarshanHash.of(path), path, mount[0], mount[1], Long.parseLong(mount[2])));
            files.put(path, t);
            if (tracing) encoder.file(id, path);
        }
        openFiles++;
        long now = now();
        t.counters().opened(now, f.amode(), f.commSize(), !f.hints().isEmpty(), storeOpens(f));
        if (tracing && roomFor(1)) encoder.add(TraceFormat.kind(IoOp.OPEN, Positioning.NONE, f.commSize() > 1), t.fileId(), 0, 0, now, now);
        checkOutput();
        return t;
    }

    /**
     * A completed call. The thread that opened the rank's first file queues it as numbers without a lock
     * ({@link PendingCalls}); counting and encoding happen in batches under the lock, when the queue is
     * full and before anything else the rank records (open, close, aggregator requests, shutdown), so the
     * order of everything recorded is the order of the calls. Other threads record under the lock at once,
     * after what is queued.
     */
    void record(TracedFile t, IoCall call, long moved, long t1, long t2) {
        if (shutDown) return;
        if (Thread.currentThread() == owner && pending.offer(t, call, moved, t1, t2)) return;
        recordNow(t, call, moved, t1, t2);
    }

    /** {@link #record} of an independent data call of one extent, given by its parts (an observed call, no {@link IoCall}). */
    void recordOne(TracedFile t, IoOp op, Positioning positioning, long offset, long length, long moved, long t1, long t2) {
        if (shutDown) return;
        if (Thread.currentThread() == owner && pending.offerOne(t, op, positioning, offset, length, moved, t1, t2)) return;
        recordOneNow(t, op, positioning, offset, length, moved, t1, t2);
    }

    private synchronized void recordOneNow(TracedFile t, IoOp op, Positioning positioning, long offset, long length, long moved, long t1, long t2) {
        if (shutDown) return;
        drainPending();
        count(t, op, positioning, false, null, offset, length, 0, moved, t1 - originNanoTime, t2 - originNanoTime);
        checkOutput();
    }

    private synchronized void recordNow(TracedFile t, IoCall call, long moved, long t1, long t2) {
        if (shutDown) return;
        drainPending();
        ExtentList extents = call.extents();
        boolean single = call.op().movesData() && extents.size() == 1;
        count(t, call.op(), call.positioning(), call.collective(), single ? null : extents, single ? extents.offset(0) : 0,
                single ? extents.length(0) : 0, call.argument(), moved, t1 - originNanoTime, t2 - originNanoTime);
        checkOutput();
    }

    /** Counts and encodes the queued calls; under the lock. */
    private void drainPending() {
        try {
            pending.drain(counter);
        } catch (Throwable t) {
            // tracing never fails the application's call, or its close (which must reach its meetings): the
            // batch being counted is dropped (PendingCalls keeps the rest), and the trace says nothing of it
            log().warning("tracer: dropped calls that could not be counted: " + t);
        }
        checkOutput();
    }

    private final PendingCalls.Consumer counter = new PendingCalls.Consumer() {
        @Override
        public void call(TracedFile file, IoOp op, Positioning positioning, boolean collective, ExtentList extents,
                         long offset, long length, long argument, long moved, long r1, long r2) {
            count(file, op, positioning, collective, extents, offset, length, argument, moved, r1, r2);
        }

        @Override
        public void run(TracedFile file, IoOp op, Positioning positioning, boolean collective, long first, long stride,
                        long length, int n, long[] starts, long[] ends, int from) {
            countRun(file, op, positioning, collective, first, stride, length, n, starts, ends, from);
        }
    };

    /**
     * Consecutive full calls of one extent continuing one pattern (see {@link PendingCalls.Consumer#run}), timed
     * since the rank's origin: counted in one step and encoded in one loop, with exactly the counters and bytes the
     * calls one by one give.
     */
    private void countRun(TracedFile t, IoOp op, Positioning positioning, boolean collective, long first, long stride,
                          long length, int n, long[] starts, long[] ends, int from) {
        try {
            t.counters().dataRun(op, collective, first, stride, length, n, starts, ends, from);
            if (!tracing || !roomFor(n)) return;
            encoder.addRun(TraceFormat.kind(op, positioning, collective), t.fileId(), first, stride, length, n, starts, ends, from);
        } catch (RuntimeException e) {
            if (tracing) fail(e);
        }
    }

    /**
     * One call into the counters and the trace, timed {@code r1} to {@code r2} since the rank's origin; {@code extents}
     * null for a data call of one extent ({@code offset}, {@code length}). A failure here switches tracing off and
     * never reaches the application.
     */
    private void count(TracedFile t, IoOp op, Positioning positioning, boolean collective, ExtentList extents,
                       long offset, long length, long argument, long moved, long r1, long r2) {
        try {
            if (op.movesData()) {
                if (extents == null) t.counters().data(op, collective, offset, length, moved, r1, r2);
                else t.counters().data(op, collective, extents, moved, r1, r2);
            } else if (op != IoOp.OPEN && op != IoOp.CLOSE) {
                t.counters().meta(op, r1, r2);
            }
            if (!tracing) return;
            int kind = TraceFormat.kind(op, positioning, collective);
            if (op.movesData()) {
                int n = extents == null ? 1 : extents.size();
                if (!roomFor(n)) return;
                if (extents == null) encoder.add(kind, t.fileId(), offset, length, r1, r2);
                else for (int i = 0; i < n; i++) encoder.add(kind, t.fileId(), extents.offset(i), extents.length(i), r1, r2);
            } else if (roomFor(1)) {
                encoder.add(kind, t.fileId(), Math.max(0, argument), 0, r1, r2);
            }
        } catch (RuntimeException e) {
            if (tracing) fail(e);
        }
    }

    /**
     * A storage request a collective-buffering aggregator made for a collective call: the aggregator layer,
     * in its own trace file and counter records, apart from the application's calls.
     */
    synchronized void aggregated(TracedFile t, IoOp op, ExtentList extents, long t1, long t2) {
        if (shutDown || !op.movesData()) return;
        drainPending();
        long r1 = t1 - originNanoTime, r2 = t2 - originNanoTime;
        aggregatorCounters.computeIfAbsent(t.path(), p -> t.counters().aggregatorLayer()).storage(op, extents, r1, r2);
        if (!tracing) return;
        if (aggregatorTrace == null) {
            try {
                aggregatorTrace = new LayerTrace(dir.resolve(TraceLayer.AGGREGATOR.fileName(rank)), header, rank);
            } catch (IOException | RuntimeException e) {
                fail(e);
                return;
            }
        }
        if (aggregatorTrace.out.backlogBytes() > hardBacklog) {
            aggregatorTrace.dropped += extents.size();
            return;
        }
        // Aggregators always name their offsets, and act for a collective call.
        int kind = TraceFormat.kind(op, Positioning.EXPLICIT_OFFSET, true);
        for (int i = 0; i < extents.size(); i++) aggregatorTrace.add(t, kind, extents.offset(i), extents.length(i), r1, r2);
        checkOutput();
    }

    synchronized void closing(TracedFile t, boolean collective) {
        if (shutDown) return;
        drainPending();
        long now = now();
        t.counters().closing(now);
        if (tracing && roomFor(1)) encoder.add(TraceFormat.kind(IoOp.CLOSE, Positioning.NONE, collective), t.fileId(), 0, 0, now, now);
        openFiles--;
        if (openFiles == 0) {
            if (tracing) {
                if (aggregatorTrace != null) aggregatorTrace.checkpoint();
                encoder.checkpoint(dropped);
                if (summaryDue()) {
                    RankSummary s = summary();
                    out.afterWritten(() -> CounterFile.write(dir, s));
                }
                checkOutput();
            } else {
                writeSummary(false);
            }
        }
    }

    /** Whether a summary is to be written now (the first one always); notes the time if so. */
    private boolean summaryDue() {
        long now = System.nanoTime();
        if (summaryWritten && now - lastSummaryNanos < summaryIntervalNanos) return false;
        summaryWritten = true;
        lastSummaryNanos = now;
        return true;
    }

    /** The end of the rank's run: seals the trace, writes the summary and, if all ranks are there, job.json. */
    synchronized void shutdown() {
        if (shutDown) return;
        drainPending();
        shutDown = true;
        if (tracing) {
            if (aggregatorTrace != null) aggregatorTrace.end(FLUSH_MILLIS);
            encoder.end(dropped);
            out.close(FLUSH_MILLIS);
            checkOutput();
        }
        if (out != null || failed) writeSummary(true);
    }

    /** Backpressure: wait briefly for the writer, then drop the call from the trace (counted). */
    private boolean roomFor(int requests) {
        long backlog = out.backlogBytes();
        if (backlog <= softBacklog) {
            writerStalled = false;
            return true;
        }
        if (backlog <= hardBacklog) {
            if (!writerStalled) {
                try {
                    writerStalled = !out.awaitBacklog(softBacklog, WAIT_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return true;
        }
        if (dropped == 0) log().warning("pdla tracer, rank " + rank + ": trace writer cannot keep up; dropping records (counted in the trace and job log)");
        dropped += requests;
        return false;
    }

    private void startOutput() {
        try {
            Files.createDirectories(dir);
            TraceHeader h = new TraceHeader(TraceFormat.VERSION, rank, nprocs, ProcessHandle.current().pid(), originEpochNanos, originNanoTime, clockDomain);
            header = h.encode();
            out = new TraceOutput(dir.resolve(TraceFormat.fileName(rank)), header, rank);
            encoder = new TraceEncoder(out);
            tracing = true;
        } catch (IOException | RuntimeException e) {
            fail(e);
        }
    }

    private void checkOutput() {
        if (out != null && out.failure() != null && tracing) fail(out.failure());
        if (aggregatorTrace != null && aggregatorTrace.out.failure() != null && tracing) fail(aggregatorTrace.out.failure());
    }

    private void fail(Exception e) {
        tracing = false;
        if (!failed) {
            failed = true;
            log().log(Level.WARNING, "pdla tracer, rank " + rank + ": output to " + dir + " failed (" + e
                    + "); tracing is off for the rest of this run, the application's I/O is not affected");
        }
        if (out != null) out.close(0);
        if (aggregatorTrace != null) aggregatorTrace.out.close(0);
    }

    /**
     * Writes the summary; at shutdown also the job files. Not at every close: merging all ranks' summaries
     * (and loading the JSON library) would cost the application time in its close call.
     */
    private void writeSummary(boolean atShutdown) {
        if (failed) return;
        try {
            CounterFile.write(dir, summary());
        } catch (IOException | RuntimeException e) {
            fail(e);
            return;
        }
        if (atShutdown) writeJobIfComplete();
    }

    /** The rank's summary as it stands: counter snapshots (copies), file table, job identity. */
    private RankSummary summary() {
        List<TracedRecord> records = new ArrayList<>();
        Map<Integer, String> ids = new HashMap<>();
        for (TracedFile t : files.values()) {
            records.add(t.counters().posix());
            records.add(t.counters().mpiio());
            ids.put(t.fileId(), t.path());
        }
        for (FileCounters agg : aggregatorCounters.values()) records.add(agg.posix());
        long endEpoch = originEpochNanos + now();
        return new RankSummary(rank, nprocs, originEpochNanos, originNanoTime, clockDomain, originEpochNanos, endEpoch,
                encoder == null ? 0 : encoder.requests(), dropped, failed, command, hints, ids, records);
    }

    /**
     * The rank that finds all summaries present after writing its own also writes job.json and the reduced
     * counter log (darshan-parser text), through the rank's {@link JobFilesWriter}; readers can always rebuild both.
     */
    private void writeJobIfComplete() {
        int present = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "rank-*.pdlc")) {
            for (Path ignored : ds) present++;
            if (present != nprocs) return;
            if (jobFiles != null) jobFiles.write(dir, "rank-" + rank, hints);
        } catch (IOException | RuntimeException e) {
            log().log(Level.FINE, "pdla tracer, rank " + rank + ": job.json not written yet", e);
        }
    }

    /** The open file as a local path, where its store keeps it as one (the driver says: {@code StorageDriver.localPath}). */
    private static java.util.Optional<Path> localPath(FileContext f) {
        return f.driver() == null ? java.util.Optional.empty() : f.driver().localPath(f.uri());
    }

    private static String cleanPath(FileContext f) {
        if (f.uri() != null) {
            java.util.Optional<Path> local = localPath(f);
            return local.isPresent() ? local.get().toAbsolutePath().normalize().toString() : f.uri().toString();
        }
        return Path.of(f.name()).toAbsolutePath().normalize().toString();
    }

    /** Mount point, file-system type and block size (Darshan's FILE_ALIGNMENT) of a local file. */
    private static String[] mountOf(FileContext f, String path) {
        if (f.uri() != null && localPath(f).isEmpty()) return new String[]{"UNKNOWN", f.uri().getScheme(), "4096"};
        try {
            FileStore store = Files.getFileStore(Path.of(path));
            String s = store.toString();
            int paren = s.lastIndexOf(" (");
            String mount = paren > 0 ? s.substring(0, paren) : "UNKNOWN";
            long block = 4096;
            try {
                block = store.getBlockSize();
            } catch (UnsupportedOperationException | IOException ignored) {
                // Darshan's fallback when statfs gives nothing
            }
            return new String[]{mount, store.type(), Long.toString(block)};
        } catch (IOException | RuntimeException e) {
            return new String[]{"UNKNOWN", "UNKNOWN", "4096"};
        }
    }
}
