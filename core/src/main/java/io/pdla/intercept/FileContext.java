package io.pdla.intercept;

import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What interceptors know about one open file of one rank, and where they keep their per-file state
 * (typed keys, so two interceptors cannot collide; {@link AutoCloseable} values are closed with the file).
 */
public final class FileContext {
    private final String name;
    private final URI uri;
    private final int amode;
    private final int rank;
    private final int commSize;
    private final AppIdentity app;
    private final Map<String, String> hints;
    private final StorageDriver driver;
    private final StorageFile file;
    private final Map<Key<?>, Object> store = new IdentityHashMap<>();
    private final RankZeroShare share;
    private final long openToken;
    /** Whether any rank's chain wanted rank 0's share at the open; null when the opener did not gather the answers. */
    private volatile Boolean rankZeroWanted;
    /** Set by an interceptor whose per-open answers changed ({@link #answersChanged}); taken by the open's chain. */
    private volatile boolean answersChanged;

    /**
     * How the ranks of one open share what one of them computed: the shim implements it over the open's
     * communicator. Collective: every rank of the open calls it, as often and in the same order.
     */
    @FunctionalInterface
    public interface RankZeroShare {
        /**
         * Rank 0 of the file's communicator runs {@code compute}; every rank returns its bytes. If it throws on
         * rank 0, every rank throws an IOException with its message (so all ranks take the same decision).
         */
        byte[] share(Supplier<byte[]> compute) throws IOException;
    }

    /** A context whose {@link #shareFromRankZero} computes on every rank (a single-process open, tools, tests). */
    public FileContext(String name, URI uri, int amode, int rank, int commSize, AppIdentity app,
                       Map<String, String> hints, StorageDriver driver, StorageFile file) {
        this(name, uri, amode, rank, commSize, app, hints, driver, file, FileContext::computeHere);
    }

    public FileContext(String name, URI uri, int amode, int rank, int commSize, AppIdentity app,
                       Map<String, String> hints, StorageDriver driver, StorageFile file, RankZeroShare share) {
        this(name, uri, amode, rank, commSize, app, hints, driver, file, share, 0);
    }

    /**
     * {@code openToken}: a number the ranks of this collective open already agreed on (the shim broadcasts one
     * at every open), the same on each of them and different from every other open of the job; 0 when unknown.
     */
    public FileContext(String name, URI uri, int amode, int rank, int commSize, AppIdentity app,
                       Map<String, String> hints, StorageDriver driver, StorageFile file, RankZeroShare share, long openToken) {
        this.share = share;
        this.openToken = openToken;
        this.name = name;
        this.uri = uri;
        this.amode = amode;
        this.rank = rank;
        this.commSize = commSize;
        this.app = app;
        this.hints = Map.copyOf(hints);
        this.driver = driver;
        this.file = file;
    }

    /** The name the application opened, as it wrote it. */
    public String name() {
        return name;
    }

    public URI uri() {
        return uri;
    }

    public int amode() {
        return amode;
    }

    /** MPI_MODE_RDONLY's bit in {@link #amode()}, as the shim's {@code MPIIO.MODE_RDONLY} has it. */
    public static final int MODE_RDONLY = 2;

    /** Whether the file may be written through this open (anything but read-only). */
    public boolean writable() {
        return (amode & MODE_RDONLY) == 0;
    }

    /** The process's rank in COMM_WORLD (not in the file's communicator). */
    public int rank() {
        return rank;
    }

    /** The size of the communicator the file was opened on. */
    public int commSize() {
        return commSize;
    }

    public AppIdentity app() {
        return app;
    }

    public Map<String, String> hints() {
        return hints;
    }

    public StorageDriver driver() {
        return driver;
    }

    /** The driver's open file: the end of the chain. */
    public StorageFile file() {
        return file;
    }

    /**
     * Collective over the ranks of this open (call it from {@code opened}, which every rank runs with the same
     * interceptors in the same order): {@code compute} runs once, on rank 0 of the file's communicator, and every
     * rank gets its bytes, so a lookup costs one rank's work and all ranks decide alike.
     *
     * @throws IOException on every rank when {@code compute} failed on rank 0 or the exchange failed
     */
    public byte[] shareFromRankZero(Supplier<byte[]> compute) throws IOException {
        return share.share(compute);
    }

    /**
     * Whether any rank of this open wants {@link #shareFromRankZero} in its {@code opened} hooks, as the opener
     * gathered the ranks' {@link IoInterceptor#wantsRankZeroAtOpen} answers in the open's own meeting: the same on
     * every rank, so ranks that share only when it is true stay in step. True when the opener did not gather them
     * (an open that creates the file, ranks in several JVMs, a single-process context): then share as always.
     */
    public boolean rankZeroWantedAtOpen() {
        Boolean wanted = rankZeroWanted;
        return wanted == null || wanted;
    }

    /** The opener, after the open's meeting: whether any rank's chain wanted rank 0's share ({@link #rankZeroWantedAtOpen}). */
    public void ranksWantedRankZero(boolean anyRank) {
        rankZeroWanted = anyRank;
    }

    /**
     * The name of this collective open shared by its ranks (see the constructor), or 0 when the opener did not
     * give one: then an interceptor that needs one agrees on it with {@link #shareFromRankZero}.
     */
    public long openToken() {
        return openToken;
    }

    private static byte[] computeHere(Supplier<byte[]> compute) throws IOException {
        try {
            return compute.get();
        } catch (RuntimeException e) {
            throw new IOException("computing the value shared by the ranks of the open failed: " + e, e);
        }
    }

    /**
     * An interceptor's {@link IoInterceptor#observesOnly(FileContext)} or {@link IoInterceptor#ignores(FileContext)}
     * answer for this open changed since the open (redirect, once a replica published during the open serves it): the
     * open's chain asks every interceptor again after the call that said so ({@link InterceptorChain}), so the next
     * data call takes the way the new answers allow.
     */
    public void answersChanged() {
        answersChanged = true;
    }

    /** Whether {@link #answersChanged} was called since the last time this was asked (the chain's, after a call). */
    boolean takeAnswersChanged() {
        if (!answersChanged) return false;
        answersChanged = false;
        return true;
    }

    public synchronized <T> T get(Key<T> key) {
        @SuppressWarnings("unchecked") T v = (T) store.get(key);
        return v;
    }

    public synchronized <T> void put(Key<T> key, T value) {
        store.put(key, value);
    }

    /** Closes every {@link AutoCloseable} value in the store; the first failure is rethrown after all ran. */
    synchronized void closeStore() throws Exception {
        Exception first = null;
        List<Object> values = new ArrayList<>(store.values());
        store.clear();
        for (Object v : values) {
            if (v instanceof AutoCloseable c) {
                try {
                    c.close();
                } catch (Exception e) {
                    if (first == null) first = e;
                }
            }
        }
        if (first != null) throw first;
    }
}
