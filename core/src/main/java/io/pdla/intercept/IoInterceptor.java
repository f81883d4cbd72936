package io.pdla.intercept;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;

import java.io.IOException;

/**
 * A PMPI-like hook on every file operation of the shim. Interceptors are ordered (the tracer outermost,
 * then redirect, then delegates, then the driver) and each sees the call before and after the ones
 * inside it.
 *
 * <p>Rule of the chain: {@link #intercept} calls {@code next.proceed} <em>at most once</em>. Proceeding
 * passes the call on; returning without proceeding means the interceptor handled it itself (redirect
 * serving a read from a replica). Proceeding twice is an error the chain reports, naming the interceptor.
 *
 * <p>Collective data calls ({@link IoCall#collective()}) end in the shim's collective-buffering engine,
 * which every rank of the file must reach: an interceptor that serves part or all of such a call itself
 * still proceeds, with the extents left over (possibly none).
 */
public interface IoInterceptor {
    /** After the driver opened the file. */
    default void opened(FileContext file) throws IOException {
    }

    /** Returns the number of bytes moved (0 for metadata operations). */
    default long intercept(IoCall call, Chain next) throws IOException {
        return next.proceed(call);
    }

    /**
     * Whether this interceptor only watches data calls (Darshan's kind of module: it times and records them, never
     * changes, reroutes or serves one). When every interceptor of a chain only watches, the shim may run an
     * independent data call of one extent without building its {@link IoCall}, and tell each interceptor with
     * {@link #observed} instead of {@link #intercept}; every other call still goes through {@link #intercept}.
     * The answer must not change while a file is open.
     */
    default boolean observesOnly() {
        return false;
    }

    /**
     * As {@link #observesOnly}, for one open: asked after every interceptor's {@link #opened} hook of the open
     * succeeded. An interceptor whose opened hook found nothing to do in this open (redirect with no replica of the
     * file: every data call proceeds unchanged) may say yes for it alone, so that a chain of watchers and such
     * interceptors still runs everyday calls without an {@link IoCall}. An answer that changes while the file is open
     * (redirect, once a replica published during the open serves it) is announced with {@link FileContext#answersChanged}
     * during a call, and takes effect from the next; by default {@link #observesOnly()}.
     */
    default boolean observesOnly(FileContext file) {
        return observesOnly();
    }

    /**
     * Asked with {@link #observesOnly(FileContext)}, after every interceptor's {@link #opened} hook of the open
     * succeeded: whether this interceptor has nothing to do with any data call of this open (redirect with no replica
     * and no write session: it passes every call on unchanged; online PDLA in an open it does not match). The open's
     * data calls then run without it, neither {@link #intercept} nor {@link #observed}; its other hooks (closing,
     * closed, the close's votes, {@link #aggregated}) are still called. As with {@link #observesOnly(FileContext)}, a
     * changed answer is announced with {@link FileContext#answersChanged}; an ignored interceptor is told no data call,
     * so only an open's first answer "ignores" is final. By default no.
     */
    default boolean ignores(FileContext file) {
        return false;
    }

    /**
     * Asked on each rank once the file is open in its store, before the open's meeting (so before {@link #opened}):
     * whether this interceptor's {@code opened} may want rank 0's {@link FileContext#shareFromRankZero} on this
     * rank. Where the opener carries the answers in that meeting, {@link FileContext#rankZeroWantedAtOpen()} then
     * tells every rank alike whether any rank's chain said yes, so an interceptor that shares only on a yes skips a
     * meeting nobody needs on all ranks together. By default no: an interceptor that always shares need not answer.
     */
    default boolean wantsRankZeroAtOpen(FileContext file) {
        return false;
    }

    /**
     * An independent data call of one extent ({@code length} bytes at file offset {@code offset}) that ran, from
     * {@code startNanos} to {@code endNanos} ({@link System#nanoTime}), moving {@code moved} bytes: what
     * {@link #intercept} would have seen of it around {@code next.proceed}. Only for interceptors that
     * {@link #observesOnly}; a call that failed is not observed (as {@code intercept} sees it fail). An exception
     * here is reported and never fails the application's call.
     */
    default void observed(FileContext file, IoOp op, Positioning positioning, long offset, long length, long moved,
                          long startNanos, long endNanos) {
    }

    /** Before the driver closes the file. */
    default void closing(FileContext file) throws IOException {
    }

    /**
     * Whether this interceptor takes part in the close vote of {@code file} ({@link #needsCollectiveClose},
     * {@link #closeAgreed}). The answer must be the same on every rank of the open (it may depend on the interceptors
     * configured, the access mode and the hints, not on what this rank did): when any interceptor of the chain says
     * yes, the close meeting that agrees on the close's outcome also ORs the ranks' votes.
     */
    default boolean votesAtClose(FileContext file) {
        return false;
    }

    /**
     * This rank's vote, asked at close when the chain {@link #votesAtClose}: whether the open's ranks must do
     * collective close work together ({@link #closeAgreed}). Work that every rank must join only if any rank needs it
     * then costs nothing beyond the close meeting when none does; when some rank does, the ranks meet once more
     * after it, so that no rank leaves close (and reopens the file) before the work is done on every rank.
     */
    default boolean needsCollectiveClose(FileContext file) {
        return false;
    }

    /**
     * This rank's other vote, asked at close when the chain {@link #votesAtClose}: whether its {@link #closed} hook
     * does work that other ranks must find done once they leave close (redirect ending a write session, which the
     * next open's catalog lookup reads). When any rank says yes, the ranks meet once more after the closed hooks. It
     * does not ask for {@link #closeAgreed}'s work: an interceptor that needs that votes {@link #needsCollectiveClose}.
     */
    default boolean meetsAfterClosed(FileContext file) {
        return false;
    }

    /**
     * On every rank of the open, after the close meeting: after every interceptor's {@link #closing} and the driver's
     * close, before {@link #closed}, with the file's store still in place. {@code anyRank} is whether any rank's chain
     * voted {@link #needsCollectiveClose} (one bit for the whole chain, so an interceptor may be told true because of
     * another's vote). Called only when the chain {@link #votesAtClose}, whatever the votes were; interceptors are
     * told innermost first, so what the delegates write back is on storage when the ones outside them are told.
     */
    default void closeAgreed(FileContext file, boolean anyRank) throws IOException {
    }

    /**
     * After the driver closed the file without error: its size and modification time are final now (HDFS,
     * for one, stamps the time only at close), so this is where what vouches for them belongs. In a chain that
     * holds a close vote, after {@link #closeAgreed}, and only when it did not fail: the delegates' write-back of the
     * open's pages is on storage.
     */
    default void closed(FileContext file) throws IOException {
    }

    /**
     * A storage operation a collective-buffering aggregator made on behalf of a collective call: the
     * layer below the application's calls (Darshan's POSIX records under its MPI-IO records). Only
     * aggregators are told; the application's calls themselves went through {@link #intercept}.
     */
    default void aggregated(FileContext file, IoOp op, ExtentList extents, long startNanos, long endNanos) {
    }

    /**
     * Null when this interceptor keeps MPI's atomic mode (every call reaching the chain's end, where the shim
     * locks its span); otherwise why it cannot, and the shim refuses atomic mode for the file.
     */
    default String breaksAtomicMode(FileContext file) {
        return null;
    }

    /** The rest of the chain, as seen from one interceptor. */
    interface Chain {
        long proceed(IoCall call) throws IOException;
    }
}
