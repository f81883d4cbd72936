package io.pdla.mpiio;

import io.pdla.access.IoOp;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.IoCall;
import io.pdla.collective.RankExchange;
import io.pdla.collective.TwoPhaseEngine;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageFile;
import io.pdla.straight.StraightPath;

import java.io.IOException;
import java.net.URI;

/**
 * What one open file handle is, shared by the pieces that implement it ({@link File}'s bindings, the
 * {@link AccessFunnel}, the {@link CollectiveProtocols}): ROMIO's {@code ADIO_File}. Built only by
 * {@link OpenProtocol}, after every rank agreed that the open succeeded.
 *
 * <p>It owns the state that changes over the handle's life (the view with the individual pointer in its etypes,
 * atomicity, the error handler, the closed flag; the hints in {@link HandleHints}, the split collective in
 * {@link ActiveSplit}): the other pieces change it only through the operations here. These are plain fields because
 * a handle is used by one thread at a time (MPI_THREAD_SINGLE), nonblocking requests aside, which read the view
 * they were submitted under.
 */
final class OpenFile {
    private final Collective coll;
    private final String name;
    private final URI uri;
    private final int amode;
    private final StorageDriver driver;
    private final StorageFile storage;
    private final FileContext context;
    private final InterceptorChain chain;
    private final HandleHints hints;
    private final SharedFilePointer sharedPointer;
    private final RankExchange exchange;
    private final TwoPhaseEngine engine;
    private final NonblockingExecutor background;
    /** Where data calls end in atomic mode. */
    private final AtomicAccess atomicAccess;
    private final ActiveSplit split = new ActiveSplit();
    /** The everyday calls' path, shared by the ranks' copies of pdla: told here of every change it depends on. */
    private final StraightPath straight;

    private FileView view = FileView.defaultView();
    /** The individual file pointer, in etypes of {@link #view}. */
    private long pointer;
    private boolean closed;
    /** MPI_File_set_atomicity; read by the nonblocking threads too. */
    private volatile boolean atomic;
    /** This handle's error handler (MPI_File_set_errhandler); the default one at open. */
    private FileErrhandler errhandler = FileErrhandler.defaultHandler();

    OpenFile(Collective coll, String name, URI uri, int amode, StorageDriver driver, StorageFile storage, AtomicAccess atomicAccess,
             FileContext context, InterceptorChain chain, HandleHints hints, SharedFilePointer sharedPointer,
             RankExchange exchange, TwoPhaseEngine engine, long pointer) {
        this.coll = coll;
        this.name = name;
        this.uri = uri;
        this.amode = amode;
        this.driver = driver;
        this.storage = storage;
        this.context = context;
        this.chain = chain;
        this.hints = hints;
        this.sharedPointer = sharedPointer;
        this.exchange = exchange;
        this.engine = engine;
        engine.foldAgreements(new Outcomes(name, coll.rank()));
        // independent requests run side by side where the driver takes writes anywhere (not append-only HDFS)
        this.background = new NonblockingExecutor("pdla-io-" + name,
                driver.has(io.pdla.storage.Capability.RANDOM_WRITE) ? 4 : 1);
        this.atomicAccess = atomicAccess;
        this.pointer = pointer;
        boolean on = AccessFunnel.straightCalls(context.hints());
        boolean positioned = (amode & MPIIO.MODE_SEQUENTIAL) == 0; // sequential files allow only the shared pointer
        this.straight = new StraightPath(context, chain, engine, AccessFunnel.pieceBytes(),
                on && positioned && (amode & MPIIO.MODE_WRONLY) == 0, on && positioned && (amode & MPIIO.MODE_RDONLY) == 0);
        tellStraight(view);
    }

    Collective coll() {
        return coll;
    }

    String name() {
        return name;
    }

    URI uri() {
        return uri;
    }

    int amode() {
        return amode;
    }

    StorageDriver driver() {
        return driver;
    }

    /** The store as data calls reach it: with data sieving around the driver's file where the hints ask for it. */
    StorageFile storage() {
        return storage;
    }

    FileContext context() {
        return context;
    }

    InterceptorChain chain() {
        return chain;
    }

    HandleHints hints() {
        return hints;
    }

    SharedFilePointer sharedPointer() {
        return sharedPointer;
    }

    RankExchange exchange() {
        return exchange;
    }

    TwoPhaseEngine engine() {
        return engine;
    }

    NonblockingExecutor background() {
        return background;
    }

    AtomicAccess atomicAccess() {
        return atomicAccess;
    }

    ActiveSplit split() {
        return split;
    }

    StraightPath straight() {
        return straight;
    }

    // ---------------------------------------------------------------- the view and the individual pointer

    FileView view() {
        return view;
    }

    /** The individual file pointer, in etypes of {@link #view()}. */
    long pointer() {
        return pointer;
    }

    /** Moves the individual pointer (seek, a call that used it, a failed collective that puts it back). */
    void movePointer(long position) {
        pointer = position;
    }

    /** MPI_File_set_view on this rank: the new view, and the individual pointer at its start. */
    void installView(FileView newView) {
        view = newView;
        pointer = 0;
        tellStraight(newView);
    }

    private void tellStraight(FileView v) {
        straight.view(v.isPlainRun() ? v : null, v.etypeBytes(), v.isContiguous(), v.contiguousStart());
    }

    // ---------------------------------------------------------------- atomicity, error handler, life

    boolean atomic() {
        return atomic;
    }

    /** After every rank agreed that the driver and the interceptors allow it (MPI_File_set_atomicity). */
    void setAtomic(boolean flag) {
        atomic = flag;
        straight.atomic(flag);
    }

    FileErrhandler errhandler() {
        return errhandler;
    }

    void setErrhandler(FileErrhandler handler) throws MPIIOException {
        if (handler == null) throw new MPIIOException(ErrorClass.ERR_ARG, name + ": setErrhandler: handler is null");
        errhandler = handler;
    }

    boolean isClosed() {
        return closed;
    }

    void markClosed() {
        closed = true;
        straight.closed();
    }

    /** What the agreement after a collective call would share for a failure of it: its MPI error class + 1. */
    private record Outcomes(String name, int rank) implements java.util.function.ToLongFunction<Exception> {
        @Override
        public long applyAsLong(Exception e) {
            return Collective.outcome(ErrorMapping.translate(e, "collective read", name, rank));
        }
    }

    boolean opened(int mode) {
        return (amode & mode) != 0;
    }

    void ensureOpen(String what) throws MPIIOException {
        if (closed) throw new MPIIOException(ErrorClass.ERR_FILE, name + ": " + what + " on a closed file handle");
    }

    MPIIOException translate(Exception e, String what) {
        return ErrorMapping.translate(e, what, name, coll.rank());
    }

    /** Bytes in the file now. */
    long size(String what) throws MPIIOException {
        try {
            return storage.size();
        } catch (IOException e) {
            throw translate(e, what);
        }
    }

    /** A call without data (seek, set_size, sync, set_view) through the chain, so interceptors see it. */
    void meta(IoOp op, boolean collective, long argument) throws IOException {
        boolean changes = op == IoOp.SET_SIZE || op == IoOp.SYNC;
        if (changes) engine.dataChanged();
        try {
            chain.execute(IoCall.meta(context, op, collective, argument));
        } finally {
            if (changes) engine.dataChanged(); // and once done (TwoPhaseEngine.dataChanged)
        }
    }

    /** Tells the interceptors where a pointer moved (as a byte offset), which they record as a seek. */
    void seeked(long position, boolean collective) throws MPIIOException {
        if (chain.interceptors().isEmpty()) return; // the store has nothing to do with a pointer; IOR -V seeks before every call
        try {
            meta(IoOp.SEEK, collective, view.byteOffset(position));
        } catch (IOException | RuntimeException e) {
            throw translate(e, "seek");
        }
    }

    /** MPI's seek arithmetic, shared by the individual and the shared pointer: a position in etypes. */
    long seekTarget(long offset, int whence, long current, String what) throws MPIIOException {
        long base = switch (whence) {
            case MPIIO.SEEK_SET -> 0;
            case MPIIO.SEEK_CUR -> current;
            case MPIIO.SEEK_END -> view.positionAtFileSize(size(what));
            default -> throw new MPIIOException(ErrorClass.ERR_ARG, name + ": " + what + ": unknown whence " + whence + " (SEEK_SET, SEEK_CUR or SEEK_END)");
        };
        long target = base + offset;
        if (target < 0) throw new MPIIOException(ErrorClass.ERR_ARG, name + ": " + what + " to negative position " + target);
        return target;
    }
}
