package io.pdla.delegate.service;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.delegate.service.DelegateProtocol.Op;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.IoCall;
import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.Key;
import io.pdla.storage.Capability;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * On an application rank: ships every read and write to the delegates owning the bytes (a request spanning
 * several domains is split, and its pieces go to all their delegates before any reply is awaited), SYNC
 * and close as this rank's part of the open group's collective call (the delegates answer when the group asked,
 * after one flush; see {@link #toMembers}), and truncation after the delegates dropped the file's pages. The open
 * sends nothing: the first request to each delegate carries what an open would ({@link DelegateProtocol.Join}),
 * so a read-only file whose calls all bypass the delegates costs them nothing, and so does a writable one's close
 * when no rank of the open used them ({@link #needsCollectiveClose}).
 * Collective calls are served the same way and then proceed with no extents, so the collective engine's
 * synchronisation still happens on every rank.
 *
 * <p>Files of stores without random writes (HDFS) are not delegated: a delegate's write-back of pages in
 * page order would break the store's append-only rule, so their calls go straight on.
 */
final class DelegateInterceptor implements IoInterceptor {
    private static final Key<Delegated> STATE = Key.of("delegate");

    private final DelegateTransport transport;
    private final Map<String, String> hints;

    DelegateInterceptor(DelegateTransport transport, Map<String, String> hints) {
        this.transport = transport;
        this.hints = hints;
    }

    /** Hint: a call whose pieces average at least this many bytes goes straight to storage (0: never). */
    public static final String HINT_DIRECT_BYTES = "pdla_delegate_direct_bytes";
    /** Default of {@link #HINT_DIRECT_BYTES}, in delegate pages. */
    static final int DEFAULT_DIRECT_PAGES = 4;

    /**
     * A delegated file on this rank. Large calls bypass the delegates' caches (copying their bytes through a
     * delegate would cost more than the cache saves); to keep MPI's consistency this rank remembers which
     * delegates hold its writes since its last sync (a direct call over them first has them write back) and
     * which bytes it wrote directly (each owner forgets those pages with this rank's next request to it).
     */
    private static final class Delegated {
        final String uri;
        final DelegateDomains domains;
        final DelegateProtocol.Join open;
        final long directBytes;
        /** The delegates this rank sent a request of this file to: its members there, owing them SYNC and CLOSE. */
        final boolean[] joined;
        final boolean[] holdsWrites;
        final ExtentList.Builder[] wroteDirectly;
        /** Syncs of the file this rank completed: numbers its SYNCs, so a delegate takes every member's n-th as one call. */
        long syncs;

        Delegated(String uri, DelegateDomains domains, DelegateProtocol.Join open, long directBytes, int delegates) {
            this.uri = uri;
            this.domains = domains;
            this.open = open;
            this.directBytes = directBytes;
            this.joined = new boolean[delegates];
            this.holdsWrites = new boolean[domains.delegatesUsed()];
            this.wroteDirectly = new ExtentList.Builder[domains.delegatesUsed()];
        }

        /**
         * {@code r} as sent to {@code delegate}: with the bytes this rank wrote directly under its pages (handed
         * over once) and, on this rank's first request to it that needs the file open there, the open's data.
         * Call holding this object's lock.
         */
        DelegateProtocol.Request addressed(int delegate, DelegateProtocol.Request r, boolean needsOpen) {
            ExtentList pending = takeInvalidations(delegate);
            if (!pending.isEmpty()) r = r.invalidating(pending);
            if (needsOpen && !joined[delegate]) {
                joined[delegate] = true;
                r = r.joining(open, syncs);
            }
            return r;
        }

        boolean goesDirect(ExtentList extents) {
            return directBytes > 0 && !extents.isEmpty() && extents.totalBytes() / extents.size() >= directBytes;
        }

        /** The bytes this rank wrote on storage that {@code delegate} must forget, handed over once. */
        ExtentList takeInvalidations(int delegate) {
            if (delegate >= wroteDirectly.length || wroteDirectly[delegate] == null) return ExtentList.EMPTY;
            ExtentList e = wroteDirectly[delegate].build();
            wroteDirectly[delegate] = null;
            return e;
        }
    }

    @Override
    public void opened(FileContext file) throws IOException {
        if (!file.driver().has(Capability.RANDOM_WRITE)) return;
        DelegateDomains domains = DelegateDomains.of(file.driver().layout(file.uri()), transport.delegates(), file.hints());
        String uri = file.uri().toString();
        long cacheBytes = byteHint(file, DelegateServer.HINT_CACHE_BYTES, 0, 1, "must be > 0");
        long directBytes = byteHint(file, HINT_DIRECT_BYTES, DEFAULT_DIRECT_PAGES * domains.pageSize(), 0, "must be >= 0 (0: never)");
        long group = file.openToken() != 0 ? file.openToken() : openGroup(file);
        DelegateProtocol.Join open = new DelegateProtocol.Join(file.writable(), domains.pageSize(), cacheBytes, file.hints(), group, file.commSize());
        file.put(STATE, new Delegated(uri, domains, open, directBytes, transport.delegates()));
    }

    private static long byteHint(FileContext file, String name, long fallback, long min, String rule) {
        String h = file.hints().get(name);
        if (h == null) return fallback;
        long v = io.pdla.size.ByteSize.parse(h, "hint " + name);
        if (v < min) throw new IllegalArgumentException("hint " + name + "='" + h + "' " + rule);
        return v;
    }

    /**
     * A name for this collective open, the same on its ranks and different from every other open, so that the
     * delegates know which SYNC and CLOSE requests belong to one collective call: agreed on here only when the
     * opener gave no {@link FileContext#openToken()} (the shim always does).
     */
    private static long openGroup(FileContext file) throws IOException {
        if (file.commSize() == 1) return java.util.concurrent.ThreadLocalRandom.current().nextLong();
        byte[] token = file.shareFromRankZero(() -> java.nio.ByteBuffer.allocate(Long.BYTES)
                .putLong(java.util.concurrent.ThreadLocalRandom.current().nextLong()).array());
        return java.nio.ByteBuffer.wrap(token).getLong();
    }

    /**
     * A delegated file's bytes live in the delegates' caches and their writes reach storage in page order at
     * flush, so a lock the shim takes over a call's span at the chain's end would protect nothing.
     */
    @Override
    public String breaksAtomicMode(FileContext file) {
        return file.get(STATE) == null ? null
                : "the file's I/O goes through I/O delegates, whose caches do not keep MPI's atomic mode (run without --delegates)";
    }

    @Override
    public long intercept(IoCall call, Chain next) throws IOException {
        Delegated d = call.file().get(STATE);
        if (d == null) return next.proceed(call);
        switch (call.op()) {
            case READ, WRITE -> {
                if (d.goesDirect(call.extents())) return direct(d, call, next);
                long moved = call.op() == IoOp.WRITE ? write(d, call) : read(d, call);
                if (call.collective()) next.proceed(call.rerouted(ExtentList.EMPTY, ByteBuffer.allocate(0)));
                return moved;
            }
            case SYNC -> {
                toMembers(d, Op.SYNC);
                synchronized (d) {
                    java.util.Arrays.fill(d.holdsWrites, false);
                    d.syncs++;
                }
                return next.proceed(call);
            }
            case SET_SIZE -> {
                toAll(d, DelegateProtocol.Request.of(Op.TRUNCATE, d.uri, ExtentList.EMPTY, call.argument()));
                return next.proceed(call);
            }
            default -> {
                return next.proceed(call);
            }
        }
    }

    /** A writable delegated open's close holds the vote: its CLOSE is collective at the delegates (the same on every rank). */
    @Override
    public boolean votesAtClose(FileContext file) {
        Delegated d = file.get(STATE);
        return d != null && d.open.writable();
    }

    /**
     * A writable open's CLOSE is collective at the delegates (a delegate flushes once, when every member came), so
     * either all its ranks send it to every delegate or none does. This rank asks for it when it sent a delegate
     * anything of the file (it is a member there, and may have left writes to flush), or when it wrote directly
     * while a delegate may cache pages of the file (another open's, which must forget what this rank overwrote).
     * When no rank of the open asks, no delegate has the open's group, holds its writes or caches a page it
     * overwrote, so the close sends nothing: the idle write path costs the delegates no message.
     */
    @Override
    public boolean needsCollectiveClose(FileContext file) {
        Delegated d = file.get(STATE);
        if (d == null || !d.open.writable()) return false;
        synchronized (d) {
            for (boolean j : d.joined) if (j) return true;
            for (ExtentList.Builder b : d.wroteDirectly) if (b != null) return transport.mayCache(d.uri);
        }
        return false;
    }

    /**
     * A read-only open's CLOSE, to the delegates it joined (a writable one's went in {@link #closeAgreed}). A delegate
     * holds nothing of a read-only open to make durable, so its failure here loses no byte of the application's: it
     * is reported as an ordinary interceptor failure, which close only logs, not as a data-path failure.
     */
    @Override
    public void closing(FileContext file) throws IOException {
        Delegated d = file.get(STATE);
        if (d == null || d.open.writable()) return;
        try {
            toMembers(d, Op.CLOSE);
        } catch (DelegateFailedException e) {
            throw new IOException("read-only close of " + d.uri + ": " + e.getMessage(), e);
        }
    }

    /**
     * A writable open's CLOSE to every delegate, from every rank, when any rank asked for it. It runs after the
     * shim's close meeting that carried the vote, before the interceptors outside this one are told (redirect makes
     * the delegates' bytes durable there and ends its write session on the file's final identity in {@code closed}),
     * so the delegates' write-back of the open's pages is on storage by then; a delegate answers the members only
     * when all came (it holds each reply until then); the ranks agree on the outcome in the meeting that follows.
     */
    @Override
    public void closeAgreed(FileContext file, boolean anyRank) throws IOException {
        Delegated d = file.get(STATE);
        if (d != null && d.open.writable() && anyRank) toMembers(d, Op.CLOSE);
    }

    /**
     * This rank's part of a collective SYNC or CLOSE. A writable open sends it to every delegate (joining those
     * it sent nothing yet; its CLOSE only when some rank of the open asked for it, see {@link #needsCollectiveClose}): a delegate flushes once for the whole group, so it must hear from every member, having
     * no way to tell a rank that has not written yet from one that never will; each copy carries the bytes this
     * rank wrote directly under that delegate's pages, which other ranks' reads may have cached there. A read-only
     * open sends it only to the delegates it joined, which hold nothing of its to make durable: with every call
     * bypassing the delegates (the idle read path) sync and close cost no message.
     */
    private void toMembers(Delegated d, Op op) throws IOException {
        List<Integer> targets = new ArrayList<>();
        List<byte[]> requests = new ArrayList<>();
        synchronized (d) {
            for (int i = 0; i < d.joined.length; i++) {
                if (!d.open.writable() && !d.joined[i]) continue;
                targets.add(i);
                requests.add(DelegateProtocol.encode(d.addressed(i, DelegateProtocol.collectiveRequest(op, d.uri, d.open.group(), d.syncs), true)));
            }
        }
        if (targets.isEmpty()) return;
        byte[][] replies = exchange(targets, requests);
        for (int i = 0; i < replies.length; i++) DelegateProtocol.check(replies[i], targets.get(i));
    }

    /**
     * A large call straight to storage: the delegates holding this rank's writes under it write them back
     * first (and, before a write, forget those pages); after a write, every owner of its bytes is told to
     * forget them with this rank's next request to it. The call is not cut by owner: each delegate is sent the
     * call's whole extents and acts on its own pages only (it caches no others), so the usual case, a read
     * with no writes held anywhere, costs a flag test per delegate and a write one owner test per delegate.
     */
    private long direct(Delegated d, IoCall call, Chain next) throws IOException {
        boolean write = call.op() == IoOp.WRITE;
        ExtentList extents = call.extents();
        int[] targets = null;
        byte[][] requests = null;
        synchronized (d) {
            int n = 0;
            for (int owner = 0; owner < d.holdsWrites.length; owner++) {
                if (!d.holdsWrites[owner] || !d.domains.touches(extents, owner)) continue;
                if (targets == null) {
                    targets = new int[d.holdsWrites.length];
                    requests = new byte[d.holdsWrites.length][];
                }
                targets[n] = owner;
                // holdsWrites: this rank joined the owner with those writes
                requests[n++] = DelegateProtocol.encode(d.addressed(owner, DelegateProtocol.Request.of(Op.RELEASE, d.uri, extents,
                        write ? DelegateProtocol.RELEASE_DROP : DelegateProtocol.RELEASE_KEEP), true));
            }
            if (targets != null) {
                targets = java.util.Arrays.copyOf(targets, n);
                requests = java.util.Arrays.copyOf(requests, n);
            }
        }
        if (targets != null) {
            byte[][] replies = transport.exchange(targets, requests);
            for (int i = 0; i < replies.length; i++) DelegateProtocol.check(replies[i], targets[i]);
        }
        long moved = next.proceed(call);
        if (write) {
            synchronized (d) {
                for (int owner = 0; owner < d.wroteDirectly.length; owner++) {
                    if (!d.domains.touches(extents, owner)) continue;
                    if (d.wroteDirectly[owner] == null) d.wroteDirectly[owner] = ExtentList.builder();
                    d.wroteDirectly[owner].addAll(extents);
                }
            }
        }
        return moved;
    }

    /** The pieces of one call that one delegate serves, and where their bytes sit in the call's buffer. */
    private static final class Share {
        final ExtentList.Builder extents = ExtentList.builder();
        final List<long[]> bufferRuns = new ArrayList<>();   // {position in the call's buffer, length}
    }

    private List<Share> split(DelegateDomains domains, ExtentList extents) {
        List<Share> shares = new ArrayList<>();
        for (int i = 0; i < domains.delegatesUsed(); i++) shares.add(null);
        long bufferPos = 0;
        for (int i = 0; i < extents.size(); i++) {
            long off = extents.offset(i);
            long end = off + extents.length(i);
            while (off < end) {
                long stop = Math.min(end, domains.runEnd(off));
                int owner = domains.owner(off);
                Share s = shares.get(owner);
                if (s == null) shares.set(owner, s = new Share());
                s.extents.add(off, stop - off);
                s.bufferRuns.add(new long[]{bufferPos, stop - off});
                bufferPos += stop - off;
                off = stop;
            }
        }
        return shares;
    }

    private long write(Delegated d, IoCall call) throws IOException {
        ByteBuffer src = call.buffer();
        int base = src.position();
        List<Share> shares = split(d.domains, call.extents());
        List<Integer> targets = new ArrayList<>();
        List<byte[]> requests = new ArrayList<>();
        for (int owner = 0; owner < shares.size(); owner++) {
            Share s = shares.get(owner);
            if (s == null) continue;
            ExtentList e = s.extents.build();
            // the bytes go from the caller's buffer straight into the message: one copy
            DelegateProtocol.Payload data = DelegateProtocol.Payload.gather(src.duplicate().position(base).slice(), s.bufferRuns, e.totalBytes());
            targets.add(owner);
            synchronized (d) {
                d.holdsWrites[owner] = true;
                requests.add(DelegateProtocol.encode(d.addressed(owner, DelegateProtocol.Request.of(Op.WRITE, d.uri, e, 0), true), data));
            }
        }
        byte[][] replies = exchange(targets, requests);
        for (int i = 0; i < replies.length; i++) DelegateProtocol.check(replies[i], targets.get(i));
        long total = call.extents().totalBytes();
        src.position(base + (int) total);
        return total;
    }

    private long read(Delegated d, IoCall call) throws IOException {
        ByteBuffer dst = call.buffer();
        int base = dst.position();
        List<Share> shares = split(d.domains, call.extents());
        List<Integer> targets = new ArrayList<>();
        List<byte[]> requests = new ArrayList<>();
        List<Share> used = new ArrayList<>();
        for (int owner = 0; owner < shares.size(); owner++) {
            Share s = shares.get(owner);
            if (s == null) continue;
            targets.add(owner);
            used.add(s);
            synchronized (d) {
                requests.add(DelegateProtocol.encode(d.addressed(owner, DelegateProtocol.Request.of(Op.READ, d.uri, s.extents.build(), 0), true)));
            }
        }
        byte[][] replies = exchange(targets, requests);
        long end = 0;
        for (int i = 0; i < replies.length; i++) {
            end = Math.max(end, DelegateProtocol.knownEnd(replies[i], targets.get(i)));
            int at = DelegateProtocol.DATA_OFFSET;
            for (long[] run : used.get(i).bufferRuns) {
                dst.put(base + (int) run[0], replies[i], at, (int) run[1]);
                at += (int) run[1];
            }
        }
        ExtentList extents = call.extents();
        if (end < extents.endOffset() || !extents.isMonotone()) end = Math.max(end, fileEnd(d));
        long got = 0;
        for (int i = 0; i < extents.size(); i++) {
            long n = Math.max(0, Math.min(extents.length(i), end - extents.offset(i)));
            got += n;
            if (n < extents.length(i)) break;
        }
        dst.position(base + (int) got);
        return got;
    }

    /**
     * The end of the file across every delegate's unflushed writes and storage (asked after a delegated read, so
     * at least one delegate has the file open and reports storage's size; one that has not reports 0).
     */
    private long fileEnd(Delegated d) throws IOException {
        byte[][] replies = toAll(DelegateProtocol.simple(Op.SIZE, d.uri, 0));
        long end = 0;
        for (int i = 0; i < replies.length; i++) end = Math.max(end, DelegateProtocol.knownEnd(replies[i], i));
        return end;
    }

    /**
     * {@code request} to every delegate, each copy carrying what this rank wrote directly under that delegate's
     * pages; it makes this rank no member of the delegates it did not join (a delegate without the file answers at once).
     */
    private byte[][] toAll(Delegated d, DelegateProtocol.Request request) throws IOException {
        List<Integer> targets = new ArrayList<>();
        List<byte[]> requests = new ArrayList<>();
        synchronized (d) {
            for (int i = 0; i < transport.delegates(); i++) {
                targets.add(i);
                requests.add(DelegateProtocol.encode(d.addressed(i, request, false)));
            }
        }
        byte[][] replies = exchange(targets, requests);
        for (int i = 0; i < replies.length; i++) DelegateProtocol.check(replies[i], i);
        return replies;
    }

    private byte[][] toAll(byte[] request) throws IOException {
        List<Integer> targets = new ArrayList<>();
        List<byte[]> requests = new ArrayList<>();
        for (int i = 0; i < transport.delegates(); i++) {
            targets.add(i);
            requests.add(request);
        }
        byte[][] replies = exchange(targets, requests);
        for (int i = 0; i < replies.length; i++) DelegateProtocol.check(replies[i], i);
        return replies;
    }

    private byte[][] exchange(List<Integer> targets, List<byte[]> requests) throws IOException {
        int[] t = new int[targets.size()];
        for (int i = 0; i < t.length; i++) t[i] = targets.get(i);
        try {
            return transport.exchange(t, requests.toArray(new byte[0][]));
        } catch (io.pdla.intercept.DataPathException e) {
            throw e;
        } catch (IOException e) {
            // the transport itself failed (MPJ, an interrupt): what the delegates did with the request is unknown
            throw new DelegateFailedException("delegates " + targets + ": " + e.getMessage());
        }
    }
}
