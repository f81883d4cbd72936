package io.pdla.delegate.cache;

import java.io.IOException;

/**
 * How far a delegate reads beyond the pages a request missed, within its own domain. The pages a delegate owns
 * on one server are every {@link OwnedStride stride}-th page of the file; numbered along that server, they fall
 * into aligned blocks of {@code window} pages, and a missed page brings its whole block in the same storage
 * request (clipped at the end of the file). So the pages a strided request skips between its misses, and those
 * just after, are read with them as one contiguous run on the server, as a two-phase aggregator reads its domain,
 * and the ranks that ask for them next hit the cache.
 *
 * <p>The window is fixed (the hint, or {@link #DEFAULT_WINDOW} bounded by a quarter of the cache): a delegate
 * serves many ranks whose requests interleave, so consecutive misses at a delegate are arrival order, not a
 * stream to detect; and a window that first had to grow would cost the short collective reads the delegates
 * are for the very requests it saves. A random small read pays at most one window.
 */
public final class ReadAhead {
    /** Default window: ROMIO's data-sieving read buffer ({@code ind_rd_buffer_size}), 4 MiB. */
    public static final long DEFAULT_WINDOW = 4L << 20;

    /** No read-ahead: a miss loads its own page only. */
    public static final ReadAhead NONE = new ReadAhead(0, () -> 0);

    /** The step, in pages, between one page this delegate owns and the next it owns on the same server; 0 when unknown. */
    @FunctionalInterface
    public interface OwnedStride {
        long pages() throws IOException;
    }

    private final long windowBytes;
    private final OwnedStride source;
    private long stride = -1;

    /** {@code windowBytes}: the hint (0: off), or negative for the default. */
    public ReadAhead(long windowBytes, OwnedStride stride) {
        this.windowBytes = windowBytes;
        this.source = stride;
    }

    /**
     * The owned stride, asked once (it may open storage to read the layout). Zero means no page but the missed
     * one is known to be this delegate's, so nothing is read ahead. A failure to tell costs the read its
     * read-ahead, not its bytes: the load that follows reports what is wrong with storage, and the stride is
     * asked again next time.
     */
    long stride() {
        if (stride < 0) {
            try {
                stride = Math.max(0, source.pages());
            } catch (IOException | RuntimeException e) {
                return 0;
            }
        }
        return stride;
    }

    /** The window in pages, at least 1: the hint, or the default bounded by a quarter of a cache of {@code capacity} bytes. */
    long windowPages(long pageSize, long capacity) {
        long bytes = windowBytes >= 0 ? windowBytes : Math.min(DEFAULT_WINDOW, capacity / 4);
        return Math.max(1, bytes / pageSize);
    }

    /** The window's bytes as set ({@code -1}: default), for messages and tests. */
    public long windowBytes() {
        return windowBytes;
    }
}
