package io.pdla.mpiio;

import io.pdla.access.IoOp;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.IoCall;
import io.pdla.mpiio.collective.RankExchange;
import io.pdla.mpiio.collective.TwoPhaseEngine;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.net.URI;
import java.util.Map;

/**
 * What one open file handle is, shared by the pieces that implement it ({@link File}'s bindings, the
 * {@link AccessFunnel}, the {@link CollectiveProtocols}): ROMIO's {@code ADIO_File}. Built only by
 * {@link OpenProtocol}, after every rank agreed that the open succeeded.
 *
 * <p>The view, the individual pointer and the closed flag change over the handle's life; they are plain
 * fields because a handle is used by one thread at a time (MPI_THREAD_SINGLE), nonblocking requests aside,
 * which read the view they were submitted under.
 */
final class OpenFile {
    final Collective coll;
    final String name;
    final URI uri;
    final int amode;
    final StorageDriver driver;
    final StorageFile storage;
    final FileContext context;
    final InterceptorChain chain;
    /** The hints in effect: the user's, plus the values interceptors, sieving and the engine settled on. */
    final Map<String, String> hints;
    /** The hints as the application gave them: effective values reported by getInfo must not read as choices. */
    final Map<String, String> givenHints;
    final SharedFilePointer sharedPointer;
    final RankExchange exchange;
    final TwoPhaseEngine engine;
    final NonblockingExecutor background;
    /** Where data calls end in atomic mode. */
    final AtomicAccess atomicAccess;

    FileView view = FileView.defaultView();
    /** The individual file pointer, in etypes of {@link #view}. */
    long pointer;
    boolean closed;
    /** MPI_File_set_atomicity; read by the nonblocking threads too. */
    volatile boolean atomic;
    /** The split collective begun and not yet ended on this handle (MPI allows one), or null. */
    SplitCollective split;
    /** This handle's error handler (MPI_File_set_errhandler); the default one at open. */
    FileErrhandler errhandler = FileErrhandler.defaultHandler();

    OpenFile(Collective coll, String name, URI uri, int amode, StorageDriver driver, StorageFile storage,
             FileContext context, InterceptorChain chain, Map<String, String> hints, Map<String, String> givenHints,
             SharedFilePointer sharedPointer,
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
        this.givenHints = givenHints;
        this.sharedPointer = sharedPointer;
        this.exchange = exchange;
        this.engine = engine;
        engine.foldAgreements(new Outcomes(name, coll.rank()));
        // independent requests run side by side where the driver takes writes anywhere (not append-only HDFS)
        this.background = new NonblockingExecutor("pdla-io-" + name,
                driver.has(io.pdla.storage.Capability.RANDOM_WRITE) ? 4 : 1);
        this.atomicAccess = new AtomicAccess(storage, opened(MPIIO.MODE_RDONLY));
        this.pointer = pointer;
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
        chain.execute(IoCall.meta(context, op, collective, argument));
    }

    /** Tells the interceptors where a pointer moved (as a byte offset), which they record as a seek. */
    void seeked(long position, boolean collective) throws MPIIOException {
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
