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
 * and close to every delegate of the file as this rank's part of the open group's collective call (the
 * delegates answer when the whole group asked, after one flush), and truncation after the delegates dropped the file's pages.
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

    private record Delegated(String uri, DelegateDomains domains, long group) {
    }

    @Override
    public void opened(FileContext file) throws IOException {
        if (!file.driver().has(Capability.RANDOM_WRITE)) return;
        DelegateDomains domains = DelegateDomains.of(file.driver().layout(file.uri()), transport.delegates(), file.hints());
        String uri = file.uri().toString();
        long cacheBytes = 0;
        String h = file.hints().get(DelegateServer.HINT_CACHE_BYTES);
        if (h != null) {
            try {
                cacheBytes = Long.parseLong(h.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("hint " + DelegateServer.HINT_CACHE_BYTES + "='" + h + "' is not a number of bytes");
            }
            if (cacheBytes <= 0) throw new IllegalArgumentException("hint " + DelegateServer.HINT_CACHE_BYTES + "='" + h + "' must be > 0");
        }
        long group = openGroup(file);
        toAll(DelegateProtocol.open(uri, file.writable(), domains.pageSize(), cacheBytes, file.hints(), group, file.commSize()));
        file.put(STATE, new Delegated(uri, domains, group));
    }

    /**
     * A name for this collective open, the same on its ranks and different from every other open, so that the
     * delegates know which SYNC and CLOSE requests belong to one collective call.
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
                long moved = call.op() == IoOp.WRITE ? write(d, call) : read(d, call);
                if (call.collective()) next.proceed(call.rerouted(ExtentList.EMPTY, ByteBuffer.allocate(0)));
                return moved;
            }
            case SYNC -> {
                toAll(DelegateProtocol.collective(Op.SYNC, d.uri(), d.group()));
                return next.proceed(call);
            }
            case SET_SIZE -> {
                toAll(DelegateProtocol.simple(Op.TRUNCATE, d.uri(), call.argument()));
                return next.proceed(call);
            }
            default -> {
                return next.proceed(call);
            }
        }
    }

    @Override
    public void closing(FileContext file) throws IOException {
        Delegated d = file.get(STATE);
        if (d != null) toAll(DelegateProtocol.collective(Op.CLOSE, d.uri(), d.group()));
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
        List<Share> shares = split(d.domains(), call.extents());
        List<Integer> targets = new ArrayList<>();
        List<byte[]> requests = new ArrayList<>();
        for (int owner = 0; owner < shares.size(); owner++) {
            Share s = shares.get(owner);
            if (s == null) continue;
            ExtentList e = s.extents.build();
            byte[] data = new byte[Math.toIntExact(e.totalBytes())];
            int at = 0;
            for (long[] run : s.bufferRuns) {
                src.get(base + (int) run[0], data, at, (int) run[1]);
                at += (int) run[1];
            }
            targets.add(owner);
            requests.add(DelegateProtocol.write(d.uri(), e, data));
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
        List<Share> shares = split(d.domains(), call.extents());
        List<Integer> targets = new ArrayList<>();
        List<byte[]> requests = new ArrayList<>();
        List<Share> used = new ArrayList<>();
        for (int owner = 0; owner < shares.size(); owner++) {
            Share s = shares.get(owner);
            if (s == null) continue;
            targets.add(owner);
            used.add(s);
            requests.add(DelegateProtocol.read(d.uri(), s.extents.build()));
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

    /** The end of the file across every delegate's unflushed writes and storage. */
    private long fileEnd(Delegated d) throws IOException {
        byte[][] replies = toAll(DelegateProtocol.simple(Op.SIZE, d.uri(), 0));
        long end = 0;
        for (int i = 0; i < replies.length; i++) end = Math.max(end, DelegateProtocol.knownEnd(replies[i], i));
        return end;
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
        return transport.exchange(t, requests.toArray(new byte[0][]));
    }
}
