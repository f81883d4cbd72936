package io.pdla.straight;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.collective.TwoPhaseEngine;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.IoCall;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One open handle's straight path: the everyday data call (a byte array, a memory type its handle already found to be
 * plain bytes, a view through which the call is one run of file bytes, no atomic mode) checked and moved as one request
 * of the store, without the dozen objects of the general path. A call that is not such a call is not taken
 * ({@link #NOT_TAKEN}), before anything happened, and the handle's general path runs it and says what is wrong.
 *
 * <p>Why a package of its own, outside {@code io.pdla.mpiio}: it names nothing of MPJ, so every multicore rank of a JVM
 * shares this class ({@code SharedClassesJar}). The shim's own classes are per rank (they name MPJ's), so each of four
 * ranks ran its own copy of this path interpreted until the JIT had compiled that copy, 10-30 ms into a job's first
 * iteration, and the compiler compiled it four times. Here the ranks' calls add up to one copy's counts, which is
 * compiled once and early.
 *
 * <p>The handle tells this what changes ({@link #view}, {@link #atomic}, {@link #closed}, {@link #plainType}). The view,
 * atomicity and close are plain fields: a handle is used by one thread at a time (MPI_THREAD_SINGLE), they change on
 * that thread after the handle's background work is drained, and nonblocking requests never come here. The plain type
 * is the exception (see {@link #plain}).
 */
public final class StraightPath {
    /** What a call returns when it is not taken: bytes moved are never negative. */
    public static final long NOT_TAKEN = -1;

    /** A view's arithmetic for a call through a filetype that is not contiguous: the shim's view implements it. */
    public interface RunView {
        /**
         * The file offset of {@code bytes} of view data at view position {@code position} (etypes) when they are one
         * run of file bytes; -1 when they are not, or where the general path would refuse them.
         */
        long plainRunStart(long position, long bytes);
    }

    private final FileContext context;
    private final InterceptorChain chain;
    private final TwoPhaseEngine engine;
    /** No interceptor: calls go to the store itself. */
    private final boolean bareChain;
    /** The most bytes one call takes here (the general path cuts larger calls into pieces). */
    private final long pieceBytes;
    /** What the handle's amode, its kind and its hints allow at all. */
    private final boolean readsAllowed;
    private final boolean writesAllowed;

    private boolean reads;
    private boolean writes;
    private boolean atomic;
    private boolean closed;
    /**
     * The memory type last found plain (identity; MPJ's types have no equals) with its bytes per item, as one reference:
     * a split ordered call validates its arguments on the handle's collective thread, which may record a new type while
     * the application's thread makes a call here, and a reader must never pair one type with another's size.
     */
    private volatile PlainType plain;

    private record PlainType(Object type, long bytes) {
    }
    /** The view: null when calls through it are never one plain run. */
    private RunView view;
    private long etypeBytes = 1;
    /** Where a contiguous view's data starts; -1 when the view is not contiguous (then {@link #view} says). */
    private long contiguousStart = -1;

    /**
     * @param engine      the open's collective engine; null only for a handle that neither writes nor makes collective
     *                    calls ({@link StraightPathWarmup}'s)
     * @param allowReads  the amode allows independent positioned reads (not write-only, not sequential) and the
     *                    straight path is on for the handle
     * @param allowWrites the same for writes
     */
    public StraightPath(FileContext context, InterceptorChain chain, TwoPhaseEngine engine, long pieceBytes,
                        boolean allowReads, boolean allowWrites) {
        this.context = context;
        this.chain = chain;
        this.engine = engine;
        this.bareChain = chain.interceptors().isEmpty();
        this.pieceBytes = pieceBytes;
        this.readsAllowed = allowReads;
        this.writesAllowed = allowWrites && engine != null;
        gate();
    }

    /** A new view (MPI_File_set_view): {@code runs} null when calls through it are never one run of plain bytes. */
    public void view(RunView runs, long etypeBytes, boolean contiguous, long contiguousStart) {
        this.view = runs;
        this.etypeBytes = etypeBytes;
        this.contiguousStart = runs != null && contiguous ? contiguousStart : -1;
    }

    public void atomic(boolean flag) {
        atomic = flag;
        gate();
    }

    public void closed() {
        closed = true;
        gate();
    }

    /** A memory type the handle found to be plain bytes: {@code bytes} per item, one run each, back to back. */
    public void plainType(Object type, long bytes) {
        plain = new PlainType(type, bytes);
    }

    /** Whether {@code type} is the plain type last found. */
    public boolean isPlainType(Object type) {
        PlainType p = plain;
        return type != null && p != null && type == p.type();
    }

    private void gate() {
        reads = readsAllowed && !atomic && !closed;
        writes = writesAllowed && !atomic && !closed;
    }

    /**
     * An independent blocking call of {@code count} items of {@code type} in {@code buf} from {@code bufOffset}, at view
     * position {@code position}: the bytes moved, or {@link #NOT_TAKEN}. A failure of the store is thrown as the store
     * threw it, for the handle to translate.
     */
    public long independent(IoOp op, Positioning positioning, long position, Object buf, int bufOffset, int count, Object type) throws IOException {
        PlainType p = plain;
        if (p == null || type != p.type() || type == null || !(buf instanceof byte[] array) || count <= 0) return NOT_TAKEN;
        return independentBytes(op, positioning, position, array, bufOffset, count * p.bytes());
    }

    /** {@link #independent} of {@code bytes} bytes of {@code array} from {@code from} (a heap buffer's call). */
    public long independentBytes(IoOp op, Positioning positioning, long position, byte[] array, int from, long bytes) throws IOException {
        long at = runAt(op, positioning, position, array, from, bytes);
        if (at < 0) return NOT_TAKEN;
        int length = (int) bytes;
        if (op != IoOp.WRITE) return independentRun(op, positioning, at, array, from, length);
        engine.dataChanged();
        try {
            return independentRun(op, positioning, at, array, from, length);
        } finally {
            engine.dataChanged(); // and once done: a nonblocking write runs while collective calls go on (TwoPhaseEngine.dataChanged)
        }
    }

    private long independentRun(IoOp op, Positioning positioning, long at, byte[] array, int from, int length) throws IOException {
        long bytes = length;
        if (bareChain) return storeCall(op, at, array, from, length);
        if (chain.observersOnly()) { // asked per call: the open's hooks, which run after this was made, may make it so
            // Darshan's way: the watchers are told of the call after it ran, nothing is built for them
            long t1 = System.nanoTime();
            long moved = storeCall(op, at, array, from, length);
            long t2 = System.nanoTime();
            chain.observed(context, op, positioning, at, bytes, moved, t1, t2);
            return moved;
        }
        ByteBuffer stream = ByteBuffer.wrap(array, from, length).slice();
        return chain.execute(IoCall.data(context, op, positioning, false, ExtentList.of(at, bytes), stream));
    }

    /**
     * A collective blocking call on a handle with no interceptor: the engine's protocol without an {@link IoCall} unless
     * the ranks decide on two-phase ({@link TwoPhaseEngine#executePlain}). {@link #NOT_TAKEN} before anything happened;
     * otherwise the bytes moved, or the failure the engine threw, which the handle's agreement then shares.
     */
    public long collective(IoOp op, Positioning positioning, long position, Object buf, int bufOffset, int count, Object type) throws IOException {
        PlainType p = plain;
        if (!bareChain || engine == null || p == null || type != p.type() || type == null || !(buf instanceof byte[] array) || count <= 0) return NOT_TAKEN;
        long bytes = count * p.bytes();
        long at = runAt(op, positioning, position, array, bufOffset, bytes);
        if (at < 0) return NOT_TAKEN;
        engine.morePiecesFollow(false);
        engine.foldsAgreement(true); // one piece, bytes unconverted (a plain run's representation is the identity)
        if (op != IoOp.WRITE) return engine.executePlain(context, op, positioning, at, array, bufOffset, (int) bytes);
        engine.dataChanged();
        try {
            return engine.executePlain(context, op, positioning, at, array, bufOffset, (int) bytes);
        } finally {
            engine.dataChanged(); // and once done (TwoPhaseEngine.dataChanged)
        }
    }

    /** The file offset where the call's bytes lie as one run, or -1 when the call is not one this path takes. */
    private long runAt(IoOp op, Positioning positioning, long position, byte[] array, int from, long bytes) {
        if (!(op == IoOp.READ ? reads : writes) || positioning == Positioning.SHARED_POINTER) return -1;
        if (bytes <= 0 || from < 0 || bytes > array.length - (long) from || bytes > pieceBytes) return -1;
        RunView v = view;
        long e = etypeBytes;
        if (v == null || bytes % e != 0 || position < 0) return -1;
        long start = contiguousStart;
        if (start < 0) return v.plainRunStart(position, bytes);
        if (position > (Long.MAX_VALUE - start - bytes) / e) return -1;
        return start + position * e;
    }

    private long storeCall(IoOp op, long at, byte[] array, int offset, int length) throws IOException {
        StorageFile store = context.file();
        if (op == IoOp.READ) return store.readArray(at, array, offset, length);
        store.writeArray(at, array, offset, length);
        return length;
    }
}
