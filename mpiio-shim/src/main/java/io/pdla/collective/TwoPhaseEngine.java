package io.pdla.collective;

import io.pdla.access.Extent;
import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.delegate.partition.FileDomains;
import io.pdla.delegate.partition.PartitionRequest;
import io.pdla.delegate.partition.RequestSplit;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.IoCall;
import io.pdla.intercept.PerRank;
import io.pdla.storage.Capability;
import io.pdla.storage.MemoryMapping;
import io.pdla.storage.RangeLock;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;

/**
 * ROMIO's two-phase collective buffering, the end of the interceptor chain for collective data calls.
 *
 * <p>Every rank shares the bounds of its request; when collective buffering applies (hint, or ROMIO's
 * automatic rule) the aggregate region is cut into file domains, one per aggregator, by the selected
 * partitioning method, and each domain is walked in windows of {@code cb_buffer_size} bytes, one window
 * per round. In a round each rank hands every aggregator the pieces of its request that fall into that
 * aggregator's window; the aggregator does one large read or write of the window (the covered runs of it,
 * for writes with holes) and, for reads, hands the pieces back. Otherwise each rank does its own I/O.
 *
 * <p>Failures never leave a rank behind: a rank whose storage call fails keeps taking part in every
 * remaining round (moving nothing) and rethrows at the end, and the shim's agreement that follows makes
 * every rank fail with the same error class.
 */
public final class TwoPhaseEngine implements InterceptorChain.Terminal {
    private final RankExchange exchange;
    private final long[] hostOfRank;
    private final int hosts;
    private CollectiveSettings settings;
    private int[] aggregators;
    private final InterceptorChain chain;
    /**
     * Each rank's idle pairs of window buffers, kept across calls and files: allocating (and zeroing) up to
     * 2 x cb_buffer_size of direct memory per call costs milliseconds. Per rank ({@link PerRank}: this class is one
     * for all multicore ranks of a JVM), so a rank's memory follows its own calls, as when every rank loaded pdla
     * itself; looked up once per engine, at the open. A two-phase call takes a pair for itself and gives it back when
     * it returns: nonblocking collectives on different files of one rank run at once (each file's on its own thread),
     * and sharing one pair mixed their bytes. Calls following one another reuse one pair; at most
     * {@link #IDLE_WINDOW_PAIRS} are kept per rank, so memory follows the calls in flight.
     */
    private static final PerRank<java.util.ArrayDeque<ByteBuffer[]>> IDLE_WINDOWS = PerRank.of(java.util.ArrayDeque::new);
    private static final int IDLE_WINDOW_PAIRS = 2;
    /** This rank's entry of {@link #IDLE_WINDOWS}. */
    private final java.util.ArrayDeque<ByteBuffer[]> idleWindows = IDLE_WINDOWS.get();
    /** The window pair of the two-phase call running on this engine (a file's collective calls never overlap). */
    private ByteBuffer[] windows;
    private final CollectiveStatistics stats = new CollectiveStatistics();
    /** What this rank, as the aggregator of small dense reads of an uncached file, read ahead of them. */
    private final GatheredReadAhead ahead = new GatheredReadAhead();
    /** Changes this rank made to the file's data through this handle (see {@link #dataChanged}). */
    private final java.util.concurrent.atomic.AtomicLong dataChanges = new java.util.concurrent.atomic.AtomicLong();
    /** The running two-phase read may use and extend {@link #ahead}. */
    private boolean readingAhead;
    /** This rank's next call is a piece of a larger one with more to come (told in the call's first all-gather). */
    private boolean moreFollows;
    /** Some rank said its last call had more pieces to come: every rank makes another call. */
    private boolean anyMore;
    /**
     * The last call's decision was "each rank does its own I/O" (every rank decides alike from the same all-gather, so
     * every rank predicts alike): the next read runs before the call's all-gather, whose row then carries its outcome.
     */
    private boolean expectIndependent;
    /** Set by the shim before each call: whether this call may agree on its outcome inside the engine (see {@link #foldsAgreement}). */
    private boolean mayFoldAgreement;
    /** What the shim makes of a failure: the outcome its agreement would share (error class + 1); null: never fold. */
    private java.util.function.ToLongFunction<Exception> outcomeOf;
    /** Whether this rank may agree on the running two-phase read's outcome in its last all-gather (see {@link #read}). */
    private boolean foldRead;
    /** The last call's gathered rows when its outcome was agreed inside the engine, else null: see {@link #takeAgreedOutcomes}. */
    private long[] agreedOutcomes;
    /** The running read ended at its data exchange (see {@link #read}): its window pair is held back, {@link #pendingWindows}. */
    private boolean endedAtExchange;
    /**
     * The window pair of a read that ended at its data exchange, which other ranks may still be copying from: given back
     * once this handle's next collective call has met, which no rank reaches before its copies are done.
     */
    private ByteBuffer[] pendingWindows;
    /** Which collective reads skip their meetings ({@link SteadyReads}); the same on every rank. */
    private final SteadyReads steadyReads = new SteadyReads();
    /** The last call ran without meeting: its outcome is this rank's own ({@link #takeUnmet}). */
    private boolean lastUnmet;

    /**
     * A call above the shim's piece size runs as several collective calls: before each, a rank says whether more
     * of its pieces follow; the ranks keep calling (with empty pieces once theirs are done) while any says so.
     */
    public void morePiecesFollow(boolean more) {
        this.moreFollows = more;
    }

    /** Whether any rank's last call announced more pieces. */
    public boolean anyRankHasMorePieces() {
        return anyMore;
    }

    /**
     * The engine of one open file over {@code exchange}, whose rank {@code r} runs on host {@code hostOfRank[r]}: the
     * hints validated (IllegalArgumentException naming a bad one), stripe size and server count taken from the store's
     * own layout of the file unless the hints say otherwise, the aggregators chosen host by host.
     */
    public static TwoPhaseEngine of(RankExchange exchange, java.util.Map<String, String> hints, StorageFile storage, InterceptorChain chain,
                                    long[] hostOfRank) throws IOException {
        io.pdla.storage.Layout layout = storage.layout();
        int hosts = distinct(hostOfRank);
        CollectiveSettings settings = CollectiveSettings.from(hints, exchange.size(), hosts, Math.max(1, layout.stripeSize()),
                Math.max(1, layout.serverCount()));
        return new TwoPhaseEngine(exchange, settings, Aggregators.choose(hostOfRank, settings), hostOfRank, chain);
    }

    TwoPhaseEngine(RankExchange exchange, CollectiveSettings settings, int[] aggregators, long[] hostOfRank, InterceptorChain chain) {
        this.exchange = exchange;
        this.chain = chain;
        this.hostOfRank = hostOfRank;
        this.hosts = distinct(hostOfRank);
        use(settings, aggregators);
    }

    /** How many different values {@code v} holds: a loop, not a stream (every rank's first collective open counts hosts). */
    private static int distinct(long[] v) {
        long[] sorted = v.clone();
        java.util.Arrays.sort(sorted);
        int n = sorted.length == 0 ? 0 : 1;
        for (int i = 1; i < sorted.length; i++) if (sorted[i] != sorted[i - 1]) n++;
        return n;
    }

    private void use(CollectiveSettings s, int[] aggs) {
        this.settings = s;
        this.aggregators = aggs;
        exchange.configure(s);
    }

    public CollectiveSettings settings() {
        return settings;
    }

    /**
     * New hints (MPI_File_set_info, set_view): validates them all before changing anything and throws
     * IllegalArgumentException naming a bad one. Every rank must call it with the same hints, as MPI requires.
     */
    public void reconfigure(java.util.Map<String, String> hints) {
        CollectiveSettings s = CollectiveSettings.from(hints, exchange.size(), hosts, settings.stripeSize(), settings.servers());
        use(s, Aggregators.choose(hostOfRank, s));
        // the steady reads' schedule stays: ranks may give set_info / set_view different hints (or none), so a reset
        // here could happen on some ranks only; a rank's new pdla_lazy_coll_reads counts from the next call that meets
    }

    /**
     * Whether the last call ran without meeting ({@link SteadyReads}), then forgotten: the shim then does not agree on its
     * outcome either, as the other ranks do not meet for it; a failure is this rank's alone.
     */
    public boolean takeUnmet() {
        boolean u = lastUnmet;
        lastUnmet = false;
        return u;
    }

    /**
     * Lets a call agree on its outcome inside its own first all-gather instead of in a meeting of its own after it, ROMIO's
     * cost for a small collective read where each rank reads its own bytes: when the last call was decided "independent",
     * every rank reads first (a read changes nothing, so one that turns out not to be wanted is simply redone by
     * two-phase) and shares the read's outcome in the all-gather that decides. {@code outcomeOf} maps a failure to the
     * value the shim's agreement would share. Reads only: a write cannot run before the ranks know no one vetoed.
     */
    public void foldAgreements(java.util.function.ToLongFunction<Exception> outcomeOf) {
        this.outcomeOf = outcomeOf;
    }

    /**
     * Set before each call by the shim: whether nothing that can fail comes after the engine on this rank for this call
     * (one piece, no conversion of the bytes read), so an outcome agreed in the engine is the call's outcome.
     */
    public void foldsAgreement(boolean may) {
        this.mayFoldAgreement = may;
    }

    /**
     * The gathered rows of the last call if its outcome was agreed inside the engine ({@link #AGREED_AT} in rows of
     * {@link #ROW} values: 0, or the failing rank's error class + 1), then forgotten; null when the shim must agree itself.
     */
    public long[] takeAgreedOutcomes() {
        long[] a = agreedOutcomes;
        agreedOutcomes = null;
        return a;
    }

    /** Values per rank in a call's first all-gather, and where the outcome of a read made before it sits. */
    public static final int ROW = 8, AGREED_AT = 7;

    /**
     * Called for every change this rank makes to the file through its handle (a write, independent or collective,
     * set_size, preallocate, sync), before it and again once it is done: the next collective call's first all-gather
     * carries the count, and data read ahead before any rank's change is never served after it. Twice, because a
     * nonblocking write runs on another thread while collective calls go on: counted only as it starts, the count
     * could reach a call whose read-ahead then read the bytes the write had not yet written, and later calls, seeing
     * no new change, would serve them after the write completed. Any thread may call this.
     */
    public void dataChanged() {
        dataChanges.incrementAndGet();
    }

    public CollectiveStatistics statistics() {
        return stats;
    }

    /** The ranks that may aggregate (with aggregators chosen by data size, a call uses a prefix of them host by host). */
    public int[] aggregatorRanks() {
        int[] sorted = aggregators.clone();
        java.util.Arrays.sort(sorted);
        return sorted;
    }

    @Override
    public long execute(IoCall call) throws IOException {
        ExtentList mine = call.extents();
        long bytes = mine.totalBytes();
        return run(call.op(), call.file(), bytes == 0 ? -1 : mine.firstOffset(), bytes == 0 ? -1 : mine.endOffset(), bytes,
                mine.isMonotone(), call, null);
    }

    /**
     * A collective call of one run of bytes, {@code length} at file offset {@code at} into or out of {@code array}, from
     * the shim's straight path (a plain byte array through a view that is one run of bytes, no interceptor): the same
     * protocol, step for step and row for row, as {@link #execute} of that call, so some ranks may come this way while
     * others come through {@link #execute}; nothing is described in objects unless the ranks decide on two-phase.
     * Returns the bytes moved. Set {@link #foldsAgreement} before, as for {@link #execute}.
     */
    public long executePlain(FileContext file, IoOp op, Positioning positioning, long at, byte[] array, int offset, int length) throws IOException {
        return run(op, file, length == 0 ? -1 : at, length == 0 ? -1 : at + length, length, true, null,
                new PlainRun(file, op, positioning, at, array, offset, length));
    }

    /** One straight call's request: read or written by one store request, or turned into an {@link IoCall} for two-phase. */
    private record PlainRun(FileContext file, IoOp op, Positioning positioning, long at, byte[] array, int offset, int length) {
        long independent() throws IOException {
            StorageFile f = file.file();
            if (op == IoOp.READ) return f.readArray(at, array, offset, length);
            f.writeArray(at, array, offset, length);
            return length;
        }

        IoCall asCall() {
            return IoCall.data(file, op, positioning, true, ExtentList.of(at, length), ByteBuffer.wrap(array, offset, length).slice());
        }
    }

    /** {@link #execute} and {@link #executePlain}: exactly one of {@code call} and {@code plain} is given. */
    private long run(IoOp op, FileContext file, long first, long end, long bytes, boolean monotone, IoCall call, PlainRun plain) throws IOException {
        boolean read = op == IoOp.READ;
        reportFetched(file, ahead.ended()); // a background read that ended is told before anything this call reads
        agreedOutcomes = null;
        lastUnmet = false;
        if (read && steadyReads.skipsNext()) return unmetRead(call, plain);
        boolean mayFold = mayFoldAgreement && !moreFollows && outcomeOf != null;
        boolean early = read && expectIndependent && mayFold;
        mayFoldAgreement = false;
        int at = call == null ? 0 : call.buffer().position();
        long got = 0;
        Exception failed = null;
        if (early) {
            try {
                got = call != null ? independent(call) : plain.independent();
            } catch (IOException | RuntimeException e) {
                failed = e; // shared in the all-gather below, thrown after it: the other ranks are on their way there
            }
        }
        long[] all = exchange.allgather(new long[]{
                first, end, bytes,
                (monotone ? MONOTONE : 0) | (file.file().bypassesCache() ? UNCACHED : 0) | (mayFold ? MAY_FOLD : 0)
                        | (settings.lazyReads() ? LAZY : 0) | (dataChanges.get() << CHANGES_SHIFT), 0,
                moreFollows ? 1 : 0, early ? 1 : 0, failed == null ? 0 : Math.max(1, outcomeOf.applyAsLong(failed))});
        moreFollows = false;
        releasePendingWindows();
        Aggregate agg = Aggregate.of(all, exchange.size());
        reportFetched(file, ahead.changes(agg.changes));
        anyMore = agg.anyMore && !agg.vetoed; // a vetoed call ends the pieces everywhere: the failing rank has left
        if (agg.vetoed) {
            steadyReads.met(false);
            stats.vetoed++;
            rethrow(failed);
            return 0; // another rank's call failed before it reached storage: nobody writes, the agreement reports it
        }
        if (agg.bytes == 0) {
            steadyReads.met(false);
            rethrow(failed);
            return got;
        }
        boolean twoPhase = useCollectiveBuffering(read, agg);
        expectIndependent = !twoPhase;
        steadyReads.met(read && !twoPhase && !agg.anyMore && agg.allLazy);
        if (!twoPhase) {
            stats.independent++;
            if (!early) return call != null ? independent(call) : plain.independent();
            if (agg.allReadEarly && !agg.anyMore) { // every rank's outcome is in the rows: no meeting after
                agreedOutcomes = all;
                stats.agreedInCall++;
            }
            rethrow(failed);
            return got;
        }
        if (call == null) call = plain.asCall(); // two-phase reads the same bytes again; a failure of the early read is moot
        else if (early) call.buffer().position(at);
        stats.twoPhase++;
        int[] aggs = activeAggregators(agg.bytes);
        FileDomains domains = FileDomains.partition(settings.method(), new PartitionRequest(
                agg.start, agg.end, settings.stripeSize(), settings.servers(), aggs.length, settings.minDomainSize()));
        RequestSplit split = RequestSplit.of(call.extents(), domains);
        int rounds = 0;
        long cb = settings.cbBufferSize();
        for (int k = 0; k < aggs.length; k++) {
            rounds = (int) Math.max(rounds, (domains.domain(k).totalBytes() + cb - 1) / cb);
        }
        stats.rounds += rounds;
        stats.lastAggregators = aggs.length;
        int me = indexOf(aggs, exchange.rank());
        ByteBuffer[] pair = takeWindows();
        windows = pair;
        endedAtExchange = false;
        foldRead = mayFold && !agg.anyMore;
        // one window per call on one aggregator: what it holds is never refilled while another rank still copies from it
        readingAhead = read && agg.smallDenseAndUncached() && !agg.interleaved && aggs.length == 1 && rounds == 1;
        // one aggregator, one round, ranks in one JVM, every rank's outcome agreed in the engine: the exchange can be the
        // read's last meeting (see read)
        boolean exchangeEnds = read && agg.allMayFold && !agg.anyMore && aggs.length == 1 && rounds == 1 && exchange.sharesMemory();
        long moved = read ? read(call, domains, split, rounds, aggs, me, all, exchangeEnds) : write(call, domains, split, rounds, aggs, me);
        // every rank has copied its last pieces out of the windows: reads end in an all-gather after the copies, and a
        // write never hands its windows to other ranks; so the pair is free again (after a failure it is dropped: an
        // exchange that failed halfway may leave another rank still reading it)
        windows = null;
        if (endedAtExchange) pendingWindows = pair;
        else giveBack(pair);
        return moved;
    }

    private static void rethrow(Exception failed) throws IOException {
        if (failed instanceof IOException io) throw io;
        if (failed instanceof RuntimeException re) throw re;
    }

    private void releasePendingWindows() {
        if (pendingWindows == null) return;
        giveBack(pendingWindows);
        pendingWindows = null;
    }

    private ByteBuffer[] takeWindows() {
        synchronized (idleWindows) {
            ByteBuffer[] pair = idleWindows.pollFirst();
            return pair != null ? pair : new ByteBuffer[2];
        }
    }

    private void giveBack(ByteBuffer[] pair) {
        synchronized (idleWindows) {
            if (idleWindows.size() < IDLE_WINDOW_PAIRS) idleWindows.addFirst(pair);
        }
    }

    /**
     * The aggregators of one call. With {@code cb_nodes} or {@code cb_config_list} given, the hinted set; without,
     * OMPIO's rule: one aggregator per {@code pdla_bytes_per_aggregator} bytes of the call (every rank knows the
     * total from the first all-gather, so all choose alike), and at least one per server the file is striped
     * over (ROMIO's Lustre default), taken host by host from the candidates.
     */
    private int[] activeAggregators(long bytes) {
        if (!settings.aggregatorsByData()) return aggregators;
        long wanted = Math.max(settings.servers(), (bytes + settings.bytesPerAggregator() - 1) / settings.bytesPerAggregator());
        int n = (int) Math.max(1, Math.min(aggregators.length, wanted));
        if (n == aggregators.length) return aggregators;
        int[] prefix = java.util.Arrays.copyOf(aggregators, n);
        java.util.Arrays.sort(prefix);
        return prefix;
    }

    private static int indexOf(int[] ranks, int rank) {
        for (int k = 0; k < ranks.length; k++) if (ranks[k] == rank) return k;
        return -1;
    }

    /**
     * Joins a collective call this rank cannot make (its arguments failed validation): the other ranks see
     * the veto in the call's first all-gather and move nothing.
     */
    @Override
    public void abstain(IoCall call) throws IOException {
        abstain(call.op());
    }

    /** {@link #abstain(IoCall)} for a call of {@code op}: a read that the ranks skip the meetings of is this rank's failure alone. */
    public void abstain(IoOp op) throws IOException {
        moreFollows = false;
        anyMore = false;
        agreedOutcomes = null;
        mayFoldAgreement = false;
        lastUnmet = false;
        if (op == IoOp.READ && steadyReads.skipsNext()) {
            steadyReads.skipped(true);
            lastUnmet = true;
            return;
        }
        exchange.allgather(new long[]{-1, -1, 0, 1 | (dataChanges.get() << CHANGES_SHIFT), 1, 0, 0, 0});
        steadyReads.met(false);
        releasePendingWindows();
        stats.vetoed++;
    }

    /**
     * {@code automatic}: ROMIO's rule, aggregate when the ranks' requests interleave; and also when no cache stands
     * between the ranks and the device (every rank's file {@link StorageFile#bypassesCache}), the requests are small
     * and together cover most of their span: there nothing else merges them, and one large request per aggregator
     * costs less than one small one per rank (O_DIRECT 16 KiB writes of 4 ranks: 200 MiB/s alone, 600 gathered).
     */
    private boolean useCollectiveBuffering(boolean read, Aggregate agg) {
        if (!agg.allMonotone) return false; // file views always are; arbitrary extent lists take the direct path
        CollectiveSettings.Mode mode = read ? settings.read() : settings.write();
        return switch (mode) {
            case ENABLE -> true;
            case DISABLE -> false;
            case AUTOMATIC -> agg.interleaved || agg.smallDenseAndUncached();
        };
    }

    /** Bits of a rank's fourth value in a call's first all-gather; its change count sits above them. */
    private static final long MONOTONE = 1, UNCACHED = 2, MAY_FOLD = 4, LAZY = 8;
    private static final int CHANGES_SHIFT = 8;

    /** Below this mean request per rank, uncached requests are gathered (a device's large-request size). */
    static final long UNCACHED_GATHER_BELOW = 1L << 20;

    /**
     * A read that skips its meetings ({@link SteadyReads}): this rank reads its own bytes and the call is done. Its pieces
     * are its own business: with no all-gather, "more pieces follow" is this rank's alone.
     */
    private long unmetRead(IoCall call, PlainRun plain) throws IOException {
        lastUnmet = true;
        mayFoldAgreement = false;
        anyMore = moreFollows;
        steadyReads.skipped(!moreFollows);
        moreFollows = false;
        stats.independent++;
        stats.unmet++;
        return call != null ? independent(call) : plain.independent();
    }

    private static long independent(IoCall call) throws IOException {
        StorageFile f = call.file().file();
        return call.op() == IoOp.READ ? f.readv(call.extents(), call.buffer()) : f.writev(call.extents(), call.buffer());
    }

    // ------------------------------------------------------------------ writes

    private long write(IoCall call, FileDomains domains, RequestSplit split, int rounds, int[] aggregators, int myAggregatorIndex) throws IOException {
        int np = exchange.size();
        ByteBuffer buf = call.buffer();
        int base = buf.position();
        PieceCursor[] mine = cursors(split);
        IOException failure = null;
        for (int r = 0; r < rounds; r++) {
            long[][] headers = new long[np][];
            ByteBuffer[][] payloads = new ByteBuffer[np][];
            for (int k = 0; k < aggregators.length; k++) {
                Window w = window(domains, k, r);
                if (w == null) continue;
                Clipped c = mine[k].take(w.fileEnd);
                if (c.count == 0) continue;
                headers[aggregators[k]] = c.pairs();
                ByteBuffer[] slices = new ByteBuffer[c.count];
                for (int i = 0; i < c.count; i++) {
                    slices[i] = buf.duplicate().limit(base + (int) (c.bufferOffsets[i] + c.lengths[i])).position(base + (int) c.bufferOffsets[i]);
                }
                payloads[aggregators[k]] = slices;
            }
            RankExchange.Received got = exchange.exchange(headers, payloads);
            if (myAggregatorIndex >= 0 && failure == null) {
                try {
                    writeWindow(call.file(), window(domains, myAggregatorIndex, r), got, r);
                } catch (IOException | RuntimeException e) {
                    failure = e instanceof IOException io ? io : new IOException(e.toString(), e);
                }
            }
        }
        if (failure != null) throw failure;
        buf.position(base + (int) call.extents().totalBytes());
        return call.extents().totalBytes();
    }

    private void writeWindow(FileContext file, Window w, RankExchange.Received got, int round) throws IOException {
        if (w == null) return;
        if (writeWindowMapped(file, w, got)) return;
        ByteBuffer cb = windowBuffer(round, w.bytes);
        BitSet covered = new BitSet();
        gather(w, got, cb, 0, covered);
        if (covered.isEmpty()) return;
        int first = covered.nextSetBit(0), end = covered.length();
        int holes = end - first - covered.cardinality();
        // ROMIO's read-modify-write: a window with small holes becomes one read and one write of its span,
        // under a byte-range lock so that bytes in the holes written meanwhile by others are not lost
        if (holes > 0 && holes <= covered.cardinality() && file.driver().has(Capability.BYTE_RANGE_LOCK)) {
            readModifyWrite(file, w, cb, covered, first, end, round);
            return;
        }
        // Otherwise one write per covered run; a window without holes is one write (several stripes for cyclic domains).
        for (int from = covered.nextSetBit(0); from >= 0; ) {
            int to = covered.nextClearBit(from);
            ExtentList target = w.extents.slice(from, to - from);
            ByteBuffer src = cb.duplicate().limit(to).position(from);
            storageCall(file, IoOp.WRITE, target, src);
            from = covered.nextSetBit(to);
        }
    }

    /** Copies every rank's pieces for window {@code w} into {@code dst}, window position p at dst index p - {@code from}, marking them in {@code covered}. */
    private void gather(Window w, RankExchange.Received got, ByteBuffer dst, int from, BitSet covered) {
        for (int s = 0; s < exchange.size(); s++) {
            long[] h = got.header(s);
            if (h.length == 0) continue;
            ByteSequence data = new ByteSequence(got.payload(s));
            for (int i = 0; i < h.length; i += 2) {
                int pos = w.positionOf(h[i]);
                int len = (int) h[i + 1];
                data.copyTo(dst, pos - from, len);
                covered.set(pos, pos + len);
            }
        }
    }

    /**
     * Copies the ranks' pieces straight into a mapping of the window's covered span when the store offers one
     * (a contiguous window of a page-cache file): one copy per byte where the window buffer makes two, and holes
     * keep the file's bytes without a read-modify-write or its lock. False, with nothing consumed, when not.
     */
    private boolean writeWindowMapped(FileContext file, Window w, RankExchange.Received got) throws IOException {
        if (w.extents.size() != 1 || settings.stripeSizeIo()) return false;
        int first = Integer.MAX_VALUE, end = 0;
        for (int s = 0; s < exchange.size(); s++) {
            long[] h = got.header(s);
            for (int i = 0; i < h.length; i += 2) {
                int pos = w.positionOf(h[i]);
                first = Math.min(first, pos);
                end = Math.max(end, pos + (int) h[i + 1]);
            }
        }
        if (first >= end) return false;
        int from = first;
        BitSet covered = new BitSet();
        long t0 = System.nanoTime();
        Optional<MemoryMapping> mapping = file.file().memoryMapping();
        boolean mapped = mapping.isPresent() && mapping.get().writeMapped(w.extents.offset(0) + from, end - from, m -> gather(w, got, m, from, covered));
        if (!mapped) return false;
        long t1 = System.nanoTime();
        ExtentList.Builder written = ExtentList.builder();
        for (int run = covered.nextSetBit(0); run >= 0; ) {
            int to = covered.nextClearBit(run);
            written.add(w.extents.offset(0) + run, to - run);
            run = covered.nextSetBit(to);
        }
        stats.storageCalls++;
        stats.storageBytes += covered.cardinality();
        stats.mappedWriteWindows++;
        chain.aggregated(file, IoOp.WRITE, written.build(), t0, t1);
        return true;
    }

    private void readModifyWrite(FileContext file, Window w, ByteBuffer cb, BitSet covered, int first, int end, int round) throws IOException {
        ExtentList span = w.extents.slice(first, end - first);
        long lockFrom = span.firstOffset(), lockLength = span.endOffset() - lockFrom;
        // the other window buffer is free: a write call never hands its window buffers to other ranks
        ByteBuffer merged = windowBuffer(round + 1, end);
        // the driver's own file: a decorator that locks its writes would wait for this very lock
        StorageFile store = file.file().unwrapped();
        try (RangeLock ignored = store.lock(lockFrom, lockLength)) {
            ByteBuffer in = merged.duplicate().limit(end).position(first);
            storageCall(file, store, IoOp.READ, span, in); // short at end-of-file: the rest stays as it was, holes past it become zeros
            for (int i = in.position(); i < end; i++) merged.put(i, (byte) 0);
            for (int from = covered.nextSetBit(first); from >= 0; ) {
                int to = covered.nextClearBit(from);
                merged.put(from, cb, from, to - from);
                from = covered.nextSetBit(to);
            }
            storageCall(file, store, IoOp.WRITE, span, merged.duplicate().limit(end).position(first));
            stats.readModifyWrites++;
        }
    }

    // ------------------------------------------------------------------ reads

    private long read(IoCall call, FileDomains domains, RequestSplit split, int rounds, int[] aggregators, int myAggregatorIndex,
                      long[] bounds, boolean exchangeEnds) throws IOException {
        int np = exchange.size();
        ByteBuffer buf = call.buffer();
        int base = buf.position();
        // Aggregators learn every rank's pieces once, as ROMIO's Calc_others_req; a lone aggregator of requests that are
        // each one run of bytes already has them from the first all-gather, and nobody meets for them (every rank
        // sees the same rows, so all skip alike)
        boolean fromBounds = aggregators.length == 1 && eachOneRun(bounds, np);
        RankExchange.Received others = null;
        if (!fromBounds) {
            long[][] requests = new long[np][];
            for (int k = 0; k < aggregators.length; k++) {
                if (split.pieces(k) > 0) requests[aggregators[k]] = pairs(split, k);
            }
            others = exchange.exchange(requests, null);
        }
        PieceCursor[] theirs = null;
        if (myAggregatorIndex >= 0) {
            theirs = new PieceCursor[np];
            for (int s = 0; s < np; s++) theirs[s] = PieceCursor.ofPairs(fromBounds ? run(bounds, s) : others.header(s));
        }
        PieceCursor[] mine = cursors(split);
        long eof = Long.MAX_VALUE;
        IOException failure = null;
        long[] told = new long[0];   // with exchangeEnds: what the aggregator told this rank in the last exchange
        for (int r = 0; r < rounds; r++) {
            long[][] headers = null;
            ByteBuffer[][] payloads = new ByteBuffer[np][];
            long windowEof = Long.MAX_VALUE;
            if (myAggregatorIndex >= 0) {
                Window w = window(domains, myAggregatorIndex, r);
                if (w != null) {
                    Clipped[] wanted = new Clipped[np];
                    BitSet needed = new BitSet();
                    for (int s = 0; s < np; s++) {
                        wanted[s] = theirs[s].take(w.fileEnd);
                        for (int i = 0; i < wanted[s].count; i++) {
                            int pos = w.positionOf(wanted[s].fileOffsets[i]);
                            needed.set(pos, pos + (int) wanted[s].lengths[i]);
                        }
                    }
                    ByteBuffer view = failure == null && !needed.isEmpty() ? mappedWindow(call.file(), w) : null;
                    ByteBuffer held = null;
                    if (view == null && readingAhead && failure == null && !needed.isEmpty() && w.extents.size() == 1) {
                        try {
                            held = readAheadWindow(call.file(), w);
                        } catch (IOException | RuntimeException e) {
                            reportFetched(call.file(), ahead.drop());
                            failure = e instanceof IOException io ? io : new IOException(e.toString(), e);
                        }
                    }
                    ByteBuffer cb = view != null ? view : held != null ? held : windowBuffer(r, w.bytes);
                    if (view != null) {
                        stats.storageCalls++;
                        stats.storageBytes += w.bytes;
                        stats.mappedWindows++;
                        chain.aggregated(call.file(), IoOp.READ, w.extents, System.nanoTime(), System.nanoTime());
                    } else if (held == null && failure == null && !needed.isEmpty()) {
                        try {
                            windowEof = readWindow(call.file(), w, cb, needed);
                            eof = Math.min(eof, windowEof);
                        } catch (IOException | RuntimeException e) {
                            failure = e instanceof IOException io ? io : new IOException(e.toString(), e);
                        }
                    }
                    headers = new long[np][];
                    // with exchangeEnds every rank is told, data or not, where the file ends and the aggregator's outcome
                    long[] tell = exchangeEnds ? new long[]{windowEof, outcome(failure)} : null;
                    for (int s = 0; s < np; s++) {
                        Clipped c = wanted[s];
                        if (tell != null) headers[s] = tell;
                        if (c.count == 0) continue;
                        if (tell == null) headers[s] = new long[]{windowEof}; // bytes past it are not the file's: nobody copies them
                        ByteBuffer[] slices = new ByteBuffer[c.count];
                        for (int i = 0; i < c.count; i++) {
                            int pos = w.positionOf(c.fileOffsets[i]);
                            slices[i] = cb.duplicate().limit(pos + (int) c.lengths[i]).position(pos);
                        }
                        payloads[s] = slices;
                    }
                }
            }
            RankExchange.Received got = exchange.exchange(headers, payloads);
            if (exchangeEnds) told = got.header(aggregators[0]);
            for (int k = 0; k < aggregators.length; k++) {
                Window w = window(domains, k, r);
                if (w == null) continue;
                Clipped c = mine[k].take(w.fileEnd);
                if (c.count == 0) continue;
                ByteSequence data = new ByteSequence(got.payload(aggregators[k]));
                long[] h = got.header(aggregators[k]);
                long validEnd = h.length > 0 ? h[0] : Long.MAX_VALUE;
                for (int i = 0; i < c.count; i++) {
                    int len = (int) c.lengths[i];
                    int valid = (int) Math.max(0, Math.min(len, validEnd - c.fileOffsets[i]));
                    data.copyTo(buf, base + (int) c.bufferOffsets[i], valid);
                    data.skip(len - valid);
                }
            }
        }
        if (exchangeEnds && told.length == 2) {
            // The exchange is the last meeting: the window (the store's mapping, the aggregator's read-ahead, or its
            // window pair, held back until this handle's next call: see pendingWindows) is not refilled before this
            // handle's next collective call, which no rank reaches before its copies are done; nothing after the
            // exchange can fail, and its header told every rank where the file ends and the aggregator's outcome, so
            // all agree here as they would in the all-gather below.
            agreedOutcomes = new long[ROW * np];
            agreedOutcomes[ROW * aggregators[0] + AGREED_AT] = told[1];
            stats.agreedInCall++;
            stats.lastMeetingsSaved++;
            endedAtExchange = true;
            if (failure != null) throw failure;
            long moved = bytesBefore(call.extents(), told[0]);
            buf.position(base + (int) moved);
            return moved;
        }
        // the last meeting of a two-phase read: it also carries each rank's outcome, so that when every rank may fold
        // (as the independent read's first all-gather does) the shim needs no meeting of its own after the call
        long[] row = new long[ROW];
        row[0] = eof;
        row[1] = foldRead ? 1 : 0;
        row[AGREED_AT] = outcome(failure);
        long[] rows = exchange.allgather(row);
        boolean everyRankFolds = true;
        for (int r = 0; r < np; r++) {
            eof = Math.min(eof, rows[ROW * r]);
            everyRankFolds &= rows[ROW * r + 1] == 1;
        }
        if (everyRankFolds) {
            agreedOutcomes = rows;
            stats.agreedInCall++;
        }
        if (failure != null) throw failure;
        long moved = bytesBefore(call.extents(), eof);
        buf.position(base + (int) moved);
        return moved;
    }

    /** A failure as the shim's agreement shares it: 0 for none, else the error class + 1. */
    private long outcome(Exception failure) {
        return failure == null ? 0 : Math.max(1, outcomeOf == null ? 1 : outcomeOf.applyAsLong(failure));
    }

    /** Whether every rank's request, as the first all-gather gave it, is one run of bytes (or nothing). */
    private static boolean eachOneRun(long[] bounds, int np) {
        for (int r = 0; r < np; r++) {
            int at = ROW * r;
            if (bounds[at + 2] > 0 && bounds[at + 1] - bounds[at] != bounds[at + 2]) return false; // monotone: no overlaps
        }
        return true;
    }

    /** Rank {@code r}'s one run as a (file offset, length) pair, or none. */
    private static long[] run(long[] bounds, int r) {
        int at = ROW * r;
        return bounds[at + 2] > 0 ? new long[]{bounds[at], bounds[at + 2]} : new long[0];
    }

    /**
     * The window as a view of the store's memory mapping, when ranks share memory and the window is one
     * contiguous range the mapping covers: ranks then copy their pieces straight from the page cache, one
     * copy per byte, where reading the window first makes two. Null otherwise (the window is read).
     */
    private ByteBuffer mappedWindow(FileContext file, Window w) throws IOException {
        if (!exchange.sharesMemory() || settings.stripeSizeIo() || w.extents.size() != 1) return null;
        Optional<MemoryMapping> mapping = file.file().memoryMapping();
        return mapping.isPresent() ? mapping.get().mappedView(w.extents.offset(0), w.bytes) : null;
    }

    /**
     * The window from what was read ahead, reading ahead first when it is not held ({@link GatheredReadAhead}); null when
     * the file ends inside the window (it is then read as usual, which finds where). Each time it moves to a new
     * stretch of a stream, the stretch after it is read in the background.
     */
    private ByteBuffer readAheadWindow(FileContext file, Window w) throws IOException {
        StorageFile f = file.file();
        long from = w.extents.offset(0);
        long max = Math.min(settings.cbBufferSize(), 1L << 30);
        ByteBuffer held = ahead.window(f, from, w.bytes);
        if (held != null) {
            stats.readAheadWindows++;
            return held;
        }
        GatheredReadAhead.Fetched fetched = ahead.takeFetched();
        reportFetched(file, fetched);
        if (fetched != null && (held = ahead.window(f, from, w.bytes)) != null) {
            stats.readAheadWindows++;
            stats.backgroundWindows++;
            fetchNext(max);
            return held;
        }
        long size = ahead.sizeFor(from, w.bytes, max);
        long first = from & ~4095L; // whole pages, as an O_DIRECT store takes them
        int length = (int) (((from + size + 4095) & ~4095L) - first);
        long got = storageCall(file, IoOp.READ, ExtentList.of(first, length), ahead.bufferFor(length));
        ahead.filled(f, first, got, length);
        held = ahead.window(f, from, w.bytes);
        if (held != null) fetchNext(max);
        return held;
    }

    /** The next stretch in the background, unless every request must stay within a stripe ({@code pdla_fd_stripe_io}). */
    private void fetchNext(long max) {
        if (!settings.stripeSizeIo()) ahead.fetchNext(max);
    }

    /**
     * Tells the statistics and the interceptors, on this rank's thread, of a read the aggregator made in the background
     * (taken or dropped: the store saw it either way). A failed one read nothing; the window is read again as usual.
     */
    private void reportFetched(FileContext file, GatheredReadAhead.Fetched done) {
        if (done == null || done.failure() != null || !done.firstTelling()) return;
        stats.storageCalls++;
        stats.storageBytes += done.got();
        stats.backgroundReads++;
        ExtentList asked = ExtentList.of(done.at(), done.length());
        chain.aggregated(file, IoOp.READ, done.got() < done.length() ? asked.slice(0, done.got()) : asked,
                done.startNanos(), done.endNanos());
    }

    /**
     * The handle is closing: a read this rank started in the background ends before the store is closed, and is reported
     * before the interceptors close.
     */
    public void closing(FileContext file) {
        reportFetched(file, ahead.release());
    }

    /** Reads the needed part of a window in one request (ROMIO reads across holes); returns the file offset where data ended, or MAX_VALUE. */
    private long readWindow(FileContext file, Window w, ByteBuffer cb, BitSet needed) throws IOException {
        // whole pages of the window, so that a store reading with O_DIRECT can take the request as it is
        int from = needed.nextSetBit(0) & ~4095;
        int to = Math.min(w.bytes, (needed.length() + 4095) & ~4095);
        ExtentList source = w.extents.slice(from, to - from);
        ByteBuffer dst = cb.duplicate().limit(to).position(from);
        long got = storageCall(file, IoOp.READ, source, dst);
        if (got >= to - from) return Long.MAX_VALUE;
        return w.fileOffsetAt(from + (int) got);
    }

    /** Bytes of the request, in buffer order, that lie before {@code eof}; stops at the first extent cut short, as a plain read does. */
    private static long bytesBefore(ExtentList extents, long eof) {
        if (eof == Long.MAX_VALUE) return extents.totalBytes();
        long moved = 0;
        for (int i = 0; i < extents.size(); i++) {
            long o = extents.offset(i), len = extents.length(i);
            if (o + len <= eof) {
                moved += len;
            } else {
                moved += Math.max(0, eof - o);
                break;
            }
        }
        return moved;
    }

    // ------------------------------------------------------------------ shared parts

    private long storageCall(FileContext file, IoOp op, ExtentList extents, ByteBuffer data) throws IOException {
        return storageCall(file, file.file(), op, extents, data);
    }

    private long storageCall(FileContext file, StorageFile f, IoOp op, ExtentList extents, ByteBuffer data) throws IOException {
        reportFetched(file, ahead.ended()); // told in about the order the store saw the calls
        long t0 = System.nanoTime();
        long n;
        if (settings.stripeSizeIo()) {
            n = 0;
            for (Extent e : FileDomains.splitAtStripes(extents, settings.stripeSize())) {
                ExtentList one = ExtentList.of(e.offset(), e.length());
                long got = op == IoOp.READ ? f.readv(one, data) : f.writev(one, data);
                n += got;
                if (got < e.length()) break;
            }
        } else {
            n = op == IoOp.READ ? f.readv(extents, data) : f.writev(extents, data);
        }
        stats.storageCalls++;
        stats.storageBytes += n;
        // what reached storage: a read window past end-of-file moved only its first n bytes
        chain.aggregated(file, op, n < extents.totalBytes() ? extents.slice(0, n) : extents, t0, System.nanoTime());
        return n;
    }

    /**
     * The running call's two window buffers used in turn: a window's slices stay readable until every rank has
     * passed the next round.
     */
    private ByteBuffer windowBuffer(int round, int bytes) {
        int i = round & 1;
        if (windows[i] == null || windows[i].capacity() < bytes) {
            int cap = (int) Math.min(settings.cbBufferSize(), Math.max(bytes, Math.min(settings.cbBufferSize(), 1L << 20)));
            int rounded = (cap + 4095) & ~4095; // page-aligned, so O_DIRECT stores can take it as it is
            windows[i] = ByteBuffer.allocateDirect(rounded + 4096).alignedSlice(4096);
        }
        return windows[i].clear();
    }

    private Window window(FileDomains domains, int k, int round) {
        ExtentList d = domains.domain(k);
        long from = (long) round * settings.cbBufferSize();
        if (from >= d.totalBytes()) return null;
        long n = Math.min(settings.cbBufferSize(), d.totalBytes() - from);
        return new Window(d.slice(from, n));
    }

    private static PieceCursor[] cursors(RequestSplit split) {
        PieceCursor[] c = new PieceCursor[split.aggregators()];
        for (int k = 0; k < c.length; k++) c[k] = PieceCursor.ofSplit(split, k);
        return c;
    }

    private static long[] pairs(RequestSplit split, int k) {
        int n = split.pieces(k);
        long[] p = new long[2 * n];
        for (int i = 0; i < n; i++) {
            p[2 * i] = split.fileOffset(k, i);
            p[2 * i + 1] = split.length(k, i);
        }
        return p;
    }

    /** The ranks' bounds, as the first all-gather of every collective call delivers them. */
    /** Ranges by start; made at class initialisation (the rank's warm-up), not linked in the rank's first collective call. */
    private static final java.util.Comparator<long[]> BY_START = (a, b) -> Long.compare(a[0], b[0]);

    private record Aggregate(long start, long end, long bytes, boolean allMonotone, boolean interleaved, boolean vetoed, boolean anyMore,
                             boolean allReadEarly, boolean allUncached, boolean allMayFold, boolean allLazy, int ranks, long changes) {
        static final int FIELDS = ROW;

        /** Several ranks' small requests, covering at least half their span, on files no cache stands before. */
        boolean smallDenseAndUncached() {
            return allUncached && ranks > 1 && bytes / ranks < UNCACHED_GATHER_BELOW && 2 * bytes >= end - start;
        }

        static Aggregate of(long[] all, int np) {
            long start = Long.MAX_VALUE, end = 0, bytes = 0;
            boolean mono = true, uncached = true, vetoed = false, more = false, early = true, fold = true, lazy = true;
            long changes = 0;
            for (int r = 0; r < np; r++) {
                changes += all[FIELDS * r + 3] >>> CHANGES_SHIFT;
                fold &= (all[FIELDS * r + 3] & MAY_FOLD) != 0;
                lazy &= (all[FIELDS * r + 3] & LAZY) != 0;
                vetoed |= all[FIELDS * r + 4] != 0;
                more |= all[FIELDS * r + 5] != 0;
                early &= all[FIELDS * r + 6] != 0;
            }
            int n = 0;
            for (int r = 0; r < np; r++) {
                int at = FIELDS * r;
                long b = all[at + 2];
                if (b == 0) continue;
                start = Math.min(start, all[at]);
                end = Math.max(end, all[at + 1]);
                bytes += b;
                mono &= (all[at + 3] & MONOTONE) != 0;
                uncached &= (all[at + 3] & UNCACHED) != 0;
                n++;
            }
            boolean interleaved = n <= PAIRWISE_UP_TO ? anyTwoOverlap(all, np) : overlapAfterSorting(all, np, n);
            return new Aggregate(bytes == 0 ? 0 : start, end, bytes, mono, interleaved, vetoed, more, early, uncached, fold, lazy, n, changes);
        }
    }

    /**
     * Up to this many ranks with data, every pair is compared: a call's first all-gather decides this on every
     * collective call, and a job's first calls run interpreted, where comparing a few pairs in place costs a
     * fraction of sorting freshly allocated ranges with a comparator.
     */
    private static final int PAIRWISE_UP_TO = 8;

    /** Whether two ranks' non-empty [first, end) bounds in a call's first all-gather ({@link #ROW} values per rank) overlap: ROMIO's "requests interleave". */
    static boolean anyTwoOverlap(long[] all, int np) {
        for (int i = 0; i < np; i++) {
            int a = ROW * i;
            if (all[a + 2] == 0) continue;
            for (int j = i + 1; j < np; j++) {
                int b = ROW * j;
                if (all[b + 2] != 0 && all[a] < all[b + 1] && all[b] < all[a + 1]) return true;
            }
        }
        return false;
    }

    /** The same as {@link #anyTwoOverlap} for many ranks: sorted by start, some range starts before an earlier one ends. */
    static boolean overlapAfterSorting(long[] all, int np, int n) {
        long[][] ranges = new long[n][];
        int k = 0;
        for (int r = 0; r < np; r++) {
            int at = ROW * r;
            if (all[at + 2] != 0) ranges[k++] = new long[]{all[at], all[at + 1]};
        }
        java.util.Arrays.sort(ranges, BY_START);
        long reach = -1;
        for (long[] range : ranges) {
            if (range[0] < reach) return true;
            reach = Math.max(reach, range[1]);
        }
        return false;
    }

    /** One aggregator's window of one round: consecutive bytes of its file domain, ascending in the file. */
    private static final class Window {
        final ExtentList extents;
        final long fileEnd;
        final int bytes;
        private final long[] before; // window bytes before extent i

        Window(ExtentList extents) {
            this.extents = extents;
            this.fileEnd = extents.endOffset();
            this.bytes = (int) extents.totalBytes();
            this.before = new long[extents.size()];
            long sum = 0;
            for (int i = 0; i < extents.size(); i++) {
                before[i] = sum;
                sum += extents.length(i);
            }
        }

        /** Position in the window of a file offset inside it. */
        int positionOf(long offset) {
            int lo = 0, hi = extents.size() - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (extents.offset(mid) <= offset) lo = mid;
                else hi = mid - 1;
            }
            long rel = offset - extents.offset(lo);
            if (rel < 0 || rel >= extents.length(lo)) throw new IllegalStateException("offset " + offset + " is outside the window " + extents);
            return (int) (before[lo] + rel);
        }

        long fileOffsetAt(int position) {
            if (position >= bytes) return fileEnd;
            int lo = 0, hi = extents.size() - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (before[mid] <= position) lo = mid;
                else hi = mid - 1;
            }
            return extents.offset(lo) + (position - before[lo]);
        }
    }

    /** A rank's pieces for one aggregator in file order, handed out window by window. */
    private static final class PieceCursor {
        private final long[] offsets;
        private final long[] lengths;
        private final long[] bufferOffsets;
        private int next;
        private long used; // bytes of piece {@code next} already handed out

        private PieceCursor(long[] offsets, long[] lengths, long[] bufferOffsets) {
            this.offsets = offsets;
            this.lengths = lengths;
            this.bufferOffsets = bufferOffsets;
        }

        static PieceCursor ofSplit(RequestSplit split, int k) {
            int n = split.pieces(k);
            long[] o = new long[n], l = new long[n], b = new long[n];
            for (int i = 0; i < n; i++) {
                o[i] = split.fileOffset(k, i);
                l[i] = split.length(k, i);
                b[i] = split.bufferOffset(k, i);
            }
            return new PieceCursor(o, l, b);
        }

        static PieceCursor ofPairs(long[] pairs) {
            int n = pairs.length / 2;
            long[] o = new long[n], l = new long[n];
            for (int i = 0; i < n; i++) {
                o[i] = pairs[2 * i];
                l[i] = pairs[2 * i + 1];
            }
            return new PieceCursor(o, l, new long[n]);
        }

        /** The pieces, or parts of pieces, before {@code fileEnd} that were not handed out yet. */
        Clipped take(long fileEnd) {
            Clipped c = new Clipped();
            while (next < offsets.length) {
                long start = offsets[next] + used;
                if (start >= fileEnd) break;
                long n = Math.min(lengths[next] - used, fileEnd - start);
                c.add(start, n, bufferOffsets[next] + used);
                used += n;
                if (used == lengths[next]) {
                    next++;
                    used = 0;
                }
            }
            return c;
        }
    }

    private static final class Clipped {
        long[] fileOffsets = new long[4];
        long[] lengths = new long[4];
        long[] bufferOffsets = new long[4];
        int count;

        void add(long offset, long length, long bufferOffset) {
            if (count == fileOffsets.length) {
                fileOffsets = java.util.Arrays.copyOf(fileOffsets, count * 2);
                lengths = java.util.Arrays.copyOf(lengths, count * 2);
                bufferOffsets = java.util.Arrays.copyOf(bufferOffsets, count * 2);
            }
            fileOffsets[count] = offset;
            lengths[count] = length;
            bufferOffsets[count] = bufferOffset;
            count++;
        }

        long[] pairs() {
            long[] p = new long[2 * count];
            for (int i = 0; i < count; i++) {
                p[2 * i] = fileOffsets[i];
                p[2 * i + 1] = lengths[i];
            }
            return p;
        }
    }

    /** A payload read front to back across its slices, whichever way the transport delivered it. */
    private static final class ByteSequence {
        private final ByteBuffer[] slices;
        private int i;

        ByteSequence(ByteBuffer[] slices) {
            this.slices = slices;
        }

        void skip(int length) {
            int done = 0;
            while (done < length) {
                while (i < slices.length && !slices[i].hasRemaining()) i++;
                if (i == slices.length) throw new IllegalStateException("collective exchange delivered " + done + " of " + length + " bytes");
                int n = Math.min(length - done, slices[i].remaining());
                slices[i].position(slices[i].position() + n);
                done += n;
            }
        }

        void copyTo(ByteBuffer dst, int at, int length) {
            int done = 0;
            while (done < length) {
                while (i < slices.length && !slices[i].hasRemaining()) i++;
                if (i == slices.length) throw new IllegalStateException("collective exchange delivered " + done + " of " + length + " bytes");
                ByteBuffer s = slices[i];
                int n = Math.min(length - done, s.remaining());
                ByteBuffer part = s.duplicate();
                part.limit(part.position() + n);
                dst.put(at + done, part, part.position(), n);
                s.position(s.position() + n);
                done += n;
            }
        }
    }
}
