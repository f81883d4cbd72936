package io.pdla.intercept;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;

import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a call through the interceptors and then the driver. With no interceptors it calls the driver
 * directly, so the shim costs nothing extra when tracing and redirection are off.
 */
public final class InterceptorChain {
    private final List<IoInterceptor> interceptors;
    /**
     * The interceptors the open's data calls go through ({@link #execute}, {@link #observed}): all of them until
     * {@link #opened}, then those that do not ignore the open ({@link IoInterceptor#ignores(FileContext)}).
     */
    private volatile List<IoInterceptor> active;
    /**
     * Interceptors there are, and every one only watches ({@link IoInterceptor#observesOnly}); once the chain's open
     * was told to them ({@link #opened}), every one only watches that open ({@link IoInterceptor#observesOnly(FileContext)}).
     */
    private volatile boolean observersOnly;

    public InterceptorChain(List<IoInterceptor> interceptors) {
        this.interceptors = List.copyOf(interceptors);
        this.active = this.interceptors;
        boolean all = !this.interceptors.isEmpty();
        for (IoInterceptor i : this.interceptors) all &= i.observesOnly();
        this.observersOnly = all;
    }

    /**
     * Whether the chain has interceptors and every one only watches (after {@link #opened}: watches the open it was
     * told of): an independent data call of one extent may then run without an {@link IoCall} and be told to them
     * with {@link #observed}. A chain serves one open, so the per-open answer is the chain's.
     */
    public boolean observersOnly() {
        return observersOnly;
    }

    /**
     * Tells every interceptor of an {@link #observersOnly} chain of a data call that ran ({@link IoInterceptor#observed}),
     * outermost first. Best-effort: an interceptor's failure is reported and never fails the call.
     */
    public void observed(FileContext file, IoOp op, Positioning positioning, long offset, long length, long moved,
                         long startNanos, long endNanos) {
        List<IoInterceptor> watchers = active;
        for (int k = 0; k < watchers.size(); k++) {
            IoInterceptor i = watchers.get(k);
            try {
                i.observed(file, op, positioning, offset, length, moved, startNanos, endNanos);
            } catch (RuntimeException e) {
                System.err.println("pdla: interceptor " + i.getClass().getName() + " failed recording a call: " + e);
            }
        }
        if (file.takeAnswersChanged()) askAgain(file);
    }

    public static InterceptorChain empty() {
        return new InterceptorChain(List.of());
    }

    public List<IoInterceptor> interceptors() {
        return interceptors;
    }

    /**
     * Whether some interceptor of this rank's chain wants rank 0's share at the open ({@link
     * IoInterceptor#wantsRankZeroAtOpen}); one that fails to answer counts as yes, which costs a meeting, never a step.
     */
    public boolean wantsRankZeroAtOpen(FileContext file) {
        for (IoInterceptor i : interceptors) {
            try {
                if (i.wantsRankZeroAtOpen(file)) return true;
            } catch (RuntimeException e) {
                return true;
            }
        }
        return false;
    }

    public void opened(FileContext file) throws IOException {
        for (IoInterceptor i : interceptors) i.opened(file);
        if (interceptors.isEmpty()) return;
        file.takeAnswersChanged();   // the answers below are the open's first
        askAgain(file);
    }

    /**
     * Asks every interceptor which data calls of the open it needs ({@link IoInterceptor#observesOnly(FileContext)},
     * {@link IoInterceptor#ignores(FileContext)}): after the open, and again after a call during which one said its
     * answers changed ({@link FileContext#answersChanged}). A call running meanwhile on another thread (a nonblocking
     * request's) keeps the way it took, which the interceptor that changed its answers must allow for.
     */
    private void askAgain(FileContext file) {
        List<IoInterceptor> kept = new ArrayList<>(interceptors.size());
        boolean all = true;
        for (IoInterceptor i : interceptors) {
            all &= observesOnlySafely(i, file);
            if (!ignoresSafely(i, file)) kept.add(i);
        }
        active = List.copyOf(kept);
        observersOnly = all;
    }

    /** An interceptor that cannot answer gets every call through {@link IoInterceptor#intercept}, as one that does not only watch. */
    private static boolean observesOnlySafely(IoInterceptor i, FileContext file) {
        try {
            return i.observesOnly(file);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** An interceptor that cannot answer is kept: it costs its calls, never a missed one. */
    private static boolean ignoresSafely(IoInterceptor i, FileContext file) {
        try {
            return i.ignores(file);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Interceptors are told in reverse order, so the outermost hears of the close last (wrapping order). */
    public void closing(FileContext file) throws IOException {
        closing(file, true);
    }

    /**
     * As {@link #closing(FileContext)}; with {@code releaseStore} false the values interceptors keep in the file's
     * store stay until {@link #releaseStore}: a chain that holds a close vote needs them in {@link #closeAgreed}.
     */
    public void closing(FileContext file, boolean releaseStore) throws IOException {
        IOException first = interceptors.isEmpty() ? null : inReverse(i -> i.closing(file));
        if (releaseStore) {
            try {
                releaseStore(file);
            } catch (IOException | RuntimeException e) {
                first = worse(first, e instanceof IOException io ? io : new IOException(e));
            }
        }
        if (first != null) throw first;
    }

    /** Closes what the interceptors keep in the file's store (once the close's last use of it is over). */
    public void releaseStore(FileContext file) throws IOException {
        try {
            file.closeStore();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    /** Whether the close of {@code file} holds a vote: any interceptor takes part ({@link IoInterceptor#votesAtClose}); the same on every rank. */
    public boolean votesAtClose(FileContext file) {
        return !interceptors.isEmpty() && any(i -> i.votesAtClose(file));
    }

    /** This rank's vote for collective close work: whether any interceptor needs it ({@link IoInterceptor#needsCollectiveClose}). */
    public boolean needsCollectiveClose(FileContext file) {
        return !interceptors.isEmpty() && any(i -> i.needsCollectiveClose(file));
    }

    /** Whether this rank's closed hooks must be done on every rank before any leaves close ({@link IoInterceptor#meetsAfterClosed}). */
    public boolean meetsAfterClosed(FileContext file) {
        return !interceptors.isEmpty() && any(i -> i.meetsAfterClosed(file));
    }

    /** Callers skip this for an empty chain (the default), so no hook object is made, nor its call site linked per rank. */
    private boolean any(java.util.function.Predicate<IoInterceptor> asks) {
        for (IoInterceptor i : interceptors) {
            if (asks.test(i)) return true;
        }
        return false;
    }

    /**
     * After the close meeting that carried the vote (so after {@link #closing} and the driver's close), before
     * {@link #closed}, on every rank; in reverse order, as {@link #closing}, each even after one failed.
     */
    public void closeAgreed(FileContext file, boolean anyRank) throws IOException {
        IOException first = interceptors.isEmpty() ? null : inReverse(i -> i.closeAgreed(file, anyRank));
        if (first != null) throw first;
    }

    /** After the store closed cleanly; in reverse order, as {@link #closing}. */
    public void closed(FileContext file) throws IOException {
        IOException first = interceptors.isEmpty() ? null : inReverse(i -> i.closed(file));
        if (first != null) throw first;
    }

    private interface Hook {
        void tell(IoInterceptor interceptor) throws IOException;
    }

    /**
     * Tells every interceptor, innermost first, even after one failed; returns the first failure, or the first
     * failure on the application's data path ({@link DataPathException}) when there is one: that is the one the
     * opener must report, whatever failed before it.
     */
    private IOException inReverse(Hook hook) {
        IOException first = null;
        for (int i = interceptors.size() - 1; i >= 0; i--) {
            try {
                hook.tell(interceptors.get(i));
            } catch (IOException e) {
                first = worse(first, e);
            } catch (RuntimeException e) {
                // the interceptors after this one are still told
                first = worse(first, new IOException(interceptors.get(i).getClass().getSimpleName() + ": " + e, e));
            }
        }
        return first;
    }

    /** The failure to report of two: a data-path failure before any other, else the first. */
    private static IOException worse(IOException first, IOException next) {
        if (first == null) return next;
        if (next instanceof DataPathException && !(first instanceof DataPathException)) {
            next.addSuppressed(first);
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    public long execute(IoCall call) throws IOException {
        return execute(call, DRIVER);
    }

    /** Made once at class initialisation (which a rank's warm-up does) rather than linked at a rank's first call. */
    private static final Terminal DRIVER = Driver::execute;

    /**
     * Runs a call through the interceptors and then {@code terminal} instead of the driver. The shim's
     * collective-buffering engine is such a terminal: it is itself collective, so every interceptor must
     * proceed with a collective data call on every rank (with fewer extents, or none, when it served part).
     */
    public long execute(IoCall call, Terminal terminal) throws IOException {
        List<IoInterceptor> through = active;
        if (through.isEmpty()) return terminal.execute(call);
        try {
            return execute(call, terminal, through);
        } finally {
            FileContext file = call.file();
            if (file != null && file.takeAnswersChanged()) askAgain(file);
        }
    }

    private long execute(IoCall call, Terminal terminal, List<IoInterceptor> through) throws IOException {
        if (!call.collective() || !call.op().movesData()) return new Link(through, 0, terminal).proceed(call);
        // An interceptor that served the whole call (redirect from replicas) did not proceed; the other
        // ranks are waiting in the engine for this one, so it joins them with nothing to move.
        boolean[] reached = {false};
        Terminal once = c -> {
            reached[0] = true;
            return terminal.execute(c);
        };
        long moved;
        try {
            moved = new Link(through, 0, once).proceed(call);
        } catch (IOException | RuntimeException e) {
            if (!reached[0]) {
                try {
                    terminal.abstain(call);
                } catch (IOException | RuntimeException second) {
                    e.addSuppressed(second);
                }
            }
            throw e;
        }
        if (!reached[0]) terminal.execute(call.rerouted(ExtentList.EMPTY, java.nio.ByteBuffer.allocate(0)));
        return moved;
    }

    /** Where a chain ends: the driver, or a collective engine that reaches the driver itself. */
    @FunctionalInterface
    public interface Terminal {
        long execute(IoCall call) throws IOException;

        /**
         * Joins a collective call that failed on this rank before reaching the terminal, so the other ranks
         * are not left waiting; a collective terminal makes them all move nothing.
         */
        default void abstain(IoCall call) throws IOException {
            execute(call.rerouted(ExtentList.EMPTY, java.nio.ByteBuffer.allocate(0)));
        }
    }

    /**
     * Tells every interceptor of a storage operation that a collective-buffering aggregator made on behalf
     * of a collective call (the layer below the application's calls, Darshan's POSIX view). Best-effort:
     * an interceptor's failure here never fails the I/O.
     */
    public void aggregated(FileContext file, IoOp op, ExtentList extents, long startNanos, long endNanos) {
        for (IoInterceptor i : interceptors) {
            try {
                i.aggregated(file, op, extents, startNanos, endNanos);
            } catch (RuntimeException e) {
                System.err.println("pdla: interceptor " + i.getClass().getName() + " failed recording an aggregator's I/O: " + e);
            }
        }
    }

    /** The chain from interceptor {@code index} inward; remembers whether it was already used. */
    private static final class Link implements IoInterceptor.Chain {
        private final List<IoInterceptor> interceptors;
        private final int index;
        private final Terminal terminal;
        private boolean used;

        Link(List<IoInterceptor> interceptors, int index, Terminal terminal) {
            this.interceptors = interceptors;
            this.index = index;
            this.terminal = terminal;
        }

        @Override
        public long proceed(IoCall call) throws IOException {
            if (used) {
                throw new IllegalStateException("interceptor " + interceptors.get(index - 1).getClass().getName()
                        + " proceeded twice with " + call + "; the chain allows at most once");
            }
            used = true;
            if (index == interceptors.size()) return terminal.execute(call);
            return interceptors.get(index).intercept(call, new Link(interceptors, index + 1, terminal));
        }
    }

    /** The end of every chain: the driver's positional operations. */
    static final class Driver {
        private Driver() {
        }

        static long execute(IoCall call) throws IOException {
            StorageFile f = call.file().file();
            switch (call.op()) {
                case READ:
                    return f.readv(call.extents(), call.buffer());
                case WRITE:
                    return f.writev(call.extents(), call.buffer());
                case SYNC:
                    f.sync();
                    return 0;
                case SET_SIZE:
                    f.setSize(call.argument());
                    return 0;
                default:
                    return 0;
            }
        }
    }
}
