package io.pdla.redirect;

import io.pdla.access.ExtentList;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.catalog.WriteSessions;
import io.pdla.catalog.WriterSession;
import io.pdla.catalog.replica.CopyBack;
import io.pdla.catalog.replica.ReplicaNames;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.IoCall;
import io.pdla.intercept.IoInterceptor.Chain;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.pattern.Segment;
import io.pdla.storage.Capability;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The write side of redirect (see {@code redirect/README.md}, "Consistency"): the write session, the claims a
 * write makes on the replicas it touches before it proceeds, the split of its bytes between DIRTY replicas and
 * the original, and what a size change does to replicas.
 */
final class ReplicaWrites {
    private static final Logger LOG = Logger.getLogger(ReplicaWrites.class.getName());

    /** How replicas are opened: the interceptor's way, with its stats and read-ahead. */
    interface Opener {
        OpenReplica open(ReplicaEntry e, FileContext ctx, int readAhead, boolean authoritative) throws IOException;
    }

    private final RedirectStats stats;
    private final Opener opener;

    ReplicaWrites(RedirectStats stats, Opener opener) {
        this.stats = stats;
        this.opener = opener;
    }

    /**
     * A write: first the replicas it touches are claimed (durably, see {@link WriteSessions#claim}); then every
     * byte inside a replica that took the claim goes into that replica (into each, where two cover it), the rest
     * to the original in one rerouted call.
     */
    long write(FileRedirect st, IoCall call, Chain next) throws IOException {
        ExtentList ex = call.extents();
        claimFor(st, call.file(), ex);
        List<OpenReplica> into = List.copyOf(st.writing.values());
        if (st.catalogFailed) writeThroughUnclaimed(st, call);
        if (into.isEmpty() || !RedirectInterceptor.router(into).touchesAny(ex)) return next.proceed(call);
        ByteBuffer buf = call.buffer();
        int base = buf.position();
        ExtentList.Builder originalParts = ExtentList.builder(4);
        List<long[]> originalSlots = new ArrayList<>();
        long callPos = 0, toReplicas = 0;
        List<OpenReplica> cover = new ArrayList<>(2);
        List<Long> positions = new ArrayList<>(2);
        for (int i = 0; i < ex.size(); i++) {
            long o = ex.offset(i), end = o + ex.length(i);
            while (o < end) {
                long run = end - o;
                cover.clear();
                positions.clear();
                for (OpenReplica r : into) {
                    long pos = r.pattern.geometry().positionOf(o);
                    if (pos >= 0) {
                        cover.add(r);
                        positions.add(pos);
                        run = Math.min(run, r.pattern.geometry().runLengthAt(o));
                    } else {
                        long n = r.pattern.geometry().nextCoveredOffset(o);
                        if (n >= 0 && n - o < run) run = n - o;
                    }
                }
                if (cover.isEmpty()) {
                    originalParts.add(o, run);
                    originalSlots.add(new long[]{callPos, run});
                } else {
                    for (int c = 0; c < cover.size(); c++) {
                        ByteBuffer src = buf.duplicate();
                        src.position(base + (int) callPos).limit(base + (int) (callPos + run));
                        cover.get(c).write(positions.get(c), src);
                    }
                    toReplicas += run;
                }
                o += run;
                callPos += run;
            }
        }
        final long replicaBytes = toReplicas;
        stats.add(s -> s.bytesWrittenToReplica, replicaBytes);
        if (!originalSlots.isEmpty()) {
            ExtentList parts = originalParts.build();
            ByteBuffer tmp = ByteBuffer.allocate(Math.toIntExact(parts.totalBytes()));
            for (long[] slot : originalSlots) {
                ByteBuffer src = buf.duplicate();
                src.position(base + (int) slot[0]).limit(base + (int) (slot[0] + slot[1]));
                tmp.put(src);
            }
            tmp.flip();
            next.proceed(call.rerouted(parts, tmp));
        }
        buf.position(base + (int) callPos);
        return callPos;
    }

    /**
     * Registers the write session (first write), then claims the replicas this write touches that this rank has
     * not claimed yet: each either takes the write (DIRTY) or is marked stale, before the write proceeds.
     */
    private void claimFor(FileRedirect st, FileContext ctx, ExtentList ex) {
        synchronized (st) {
            Set<PatternKey> touched = Set.of();
            try {
                beginSession(st, ctx);
                touched = st.unclaimed.touching(ex);
                if (touched.isEmpty() || st.catalogFailed) return;
                long originalSize = ctx.file().size();
                WriteSessions.Claim c = WriteSessions.claim(st.catalog, ctx.uri(), touched, e -> mayTakeWrites(e, ctx, originalSize) && guardAllows(st, ctx, e));
                apply(st, ctx, c);
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.WARNING, "redirect: replica catalog " + st.catalog.location() + " failed before a write to " + ctx.uri()
                        + " (" + e.getMessage() + "); from now on this rank writes into the replicas it touches as well as into the original");
                st.catalogFailed = true;
                stats.add(s -> s.fallbacks, 1);
                st.dropAllButAuthoritative();
            }
        }
    }

    private void beginSession(FileRedirect st, FileContext ctx) throws IOException {
        if (st.session != null || st.catalogFailed) return;
        String id = UUID.randomUUID().toString();
        List<ReplicaEntry> fresh = WriteSessions.begin(st.catalog, ctx.driver(), ctx.uri(),
                new WriterSession(id, ProcessHandle.current().pid(), WriterSession.thisHost(), System.currentTimeMillis()));
        st.session = id;
        st.unclaimed.clear();
        Map<PatternKey, ReplicaEntry> byKey = new java.util.HashMap<>();
        for (ReplicaEntry e : fresh) byKey.put(e.key(), e);
        // replicas DIRTY when the file was opened may have been written back since: only a claim decides again
        for (PatternKey k : List.copyOf(st.writing.keySet())) {
            ReplicaEntry e = byKey.get(k);
            if (e == null || e.state() != ReplicaState.DIRTY || !e.replica().equals(st.writing.get(k).entry.replica())) {
                st.writing.remove(k).authoritative = false;
            }
        }
        for (ReplicaEntry e : fresh) {
            // VALID and DIRTY entries alike are claimed at the first write that touches them
            if (e.state() != ReplicaState.STALE && !st.writing.containsKey(e.key())) st.unclaimed.put(e);
        }
    }

    /** The claim's outcome in this rank's state: stale replicas stop serving, DIRTY ones are opened for writing. */
    private void apply(FileRedirect st, FileContext ctx, WriteSessions.Claim c) throws IOException {
        for (PatternKey k : c.stale()) st.unclaimed.remove(k);
        if (!c.stale().isEmpty()) {
            st.drop(c.stale());
            stats.add(s -> s.replicasInvalidated, c.stale().size());
        }
        for (PatternKey k : c.writeInto()) {
            ReplicaEntry e = st.unclaimed.remove(k);
            OpenReplica r = st.open(k);
            if (r == null) {
                if (e == null) e = st.catalog.transact(t -> t.entry(k)).orElseThrow(() -> new IOException("replica entry " + k.id() + " vanished"));
                r = opener.open(e, ctx, 0, true);
            }
            r.authoritative = true;
            st.writing.put(k, r);
            st.addAuthoritative(r);
        }
    }

    /**
     * Whether this rank's writes may go into the replica: its own pattern (local or global) on stores that take
     * writes anywhere, a replica with an in-step mark ({@code InStepMark}), and wholly inside the original, so that
     * no byte it takes lies past the original's end.
     */
    private static boolean mayTakeWrites(ReplicaEntry e, FileContext ctx, long originalSize) {
        if (!RedirectInterceptor.belongsTo(e, ctx) || !ctx.driver().has(Capability.RANDOM_WRITE)) return false;
        StorageDriver rd = StorageDrivers.installed().forUri(e.replica());
        if (!rd.has(Capability.RANDOM_WRITE)) return false;
        // without an in-step mark a write-back could not tell these writes from a forged DIRTY entry, so would refuse them
        if (!io.pdla.catalog.guard.InStepMark.present(rd, e.replica())) return false;
        long[] end = {0};
        e.pattern().geometry().forEachExtent((off, len) -> end[0] = Math.max(end[0], off + len));
        return end[0] <= originalSize;
    }

    /**
     * Whether the replica file is where and whose a replica of this original must be ({@code ReplicaGuard}); a
     * planted entry never takes this process's writes (it is marked stale and the bytes go to the original).
     */
    private static boolean guardAllows(FileRedirect st, FileContext ctx, ReplicaEntry e) {
        String refused = io.pdla.catalog.guard.ReplicaGuard.forCatalog(st.catalog.directory())
                .reasonRefused(ctx.uri(), ReplicaNames.keyDirName(e.key()), e.replica());
        if (refused != null) LOG.warning("redirect: replica " + e.replica() + " of " + e.key().id() + " refused for writes: " + refused);
        return refused == null;
    }

    /**
     * Without a catalog, nothing can be marked: every replica this write touches gets the bytes too (whatever state
     * others gave it, it then agrees with the original there); one that cannot be written is deleted.
     */
    private void writeThroughUnclaimed(FileRedirect st, IoCall call) {
        for (PatternKey k : st.unclaimed.touching(call.extents())) {
            ReplicaEntry e = st.unclaimed.get(k);
            OpenReplica r = null;
            if (st.open(k) == null && io.pdla.catalog.guard.ReplicaGuard.forCatalog(st.catalog.directory())
                    .reasonRefused(call.file().uri(), ReplicaNames.keyDirName(k), e.replica()) != null) {
                st.unclaimed.remove(k);     // not a replica this process may write or delete
                continue;
            }
            try {
                r = st.open(k);
                if (r == null) r = new OpenReplica(e, StorageDrivers.installed().forUri(e.replica()).open(e.replica(), OpenOptions.readOnly()), 0, Map.of(), false);
                ExtentList ex = call.extents();
                int base = call.buffer().position();
                long callPos = 0;
                for (int i = 0; i < ex.size(); i++) {
                    for (Segment seg : e.pattern().geometry().map(ex.offset(i), ex.length(i))) {
                        if (seg.replicaOffset() >= 0) {
                            int from = base + (int) (callPos + seg.offset() - ex.offset(i));
                            ByteBuffer src = call.buffer().duplicate();
                            src.position(from).limit(from + (int) seg.length());
                            r.write(seg.replicaOffset(), src);
                        }
                    }
                    callPos += ex.length(i);
                }
                r.sync();
                // a VALID one changed with no DIRTY claim: its in-step mark no longer says what it holds, so nothing may
                // vouch for it (a DIRTY one keeps its mark: it holds other writers' bytes the write-back must still copy)
                if (e.state() == ReplicaState.VALID
                        && !io.pdla.catalog.guard.InStepMark.withdraw(StorageDrivers.installed().forUri(e.replica()), e.replica())) {
                    throw new IOException("in-step mark of " + e.replica() + " could not be withdrawn");
                }
                if (st.open(k) == null) r.close();
            } catch (IOException | RuntimeException ex) {
                st.unclaimed.remove(k);
                deleteReplicaFile(st, e, ex);
            }
        }
    }

    private void deleteReplicaFile(FileRedirect st, ReplicaEntry e, Exception why) {
        try {
            StorageDriver d = StorageDrivers.installed().forUri(e.replica());
            String keep = io.pdla.catalog.guard.ReplicaGuard.forCatalog(st.catalog.directory()).reasonNotDeletable(e.replica());
            if (keep != null) {
                LOG.warning("redirect: not deleting " + e.replica() + ": " + keep);
                return;
            }
            if (d.exists(e.replica())) d.delete(e.replica());
            stats.add(s -> s.replicasInvalidated, 1);
        } catch (IOException | RuntimeException ex) {
            LOG.severe("redirect: replica " + e.replica() + " could not be written (" + why + ") nor deleted (" + ex.getMessage()
                    + ") after the catalog failed; it may hold data older than the write now made to " + e.key().file());
        }
    }

    /**
     * A SET_SIZE touches every replica with bytes at or past the new size. DIRTY ones are first copied back into
     * the original (the bytes below the new size must survive; those above go with the truncation), then every
     * touched replica is marked stale, all before the size changes.
     */
    void beforeSetSize(FileRedirect st, FileContext ctx, long newSize) throws IOException {
        synchronized (st) {
            try {
                beginSession(st, ctx);
                Set<PatternKey> touched = st.unclaimed.coveringFrom(newSize);
                for (OpenReplica r : st.replicas) {
                    if (r.authoritative && r.pattern.geometry().nextCoveredOffset(newSize) >= 0) touched.add(r.entry.key());
                }
                for (OpenReplica r : st.writing.values()) {
                    if (r.pattern.geometry().nextCoveredOffset(newSize) >= 0) touched.add(r.entry.key());
                }
                if (touched.isEmpty() || st.catalogFailed) return;
                WriteSessions.Claim c = WriteSessions.claim(st.catalog, ctx.uri(), touched, e -> false);
                List<OpenReplica> opened = new ArrayList<>();
                for (PatternKey k : c.writeInto()) {
                    OpenReplica r = st.open(k);
                    if (r == null) r = st.writing.get(k);
                    if (r == null) {
                        ReplicaEntry e = st.unclaimed.get(k);
                        if (e == null) e = st.catalog.transact(t -> t.entry(k)).orElseThrow(() -> new IOException("replica entry " + k.id() + " vanished"));
                        r = opener.open(e, ctx, 0, true);
                        opened.add(r);
                    }
                    r.sync();
                    io.pdla.catalog.guard.InStepMark.Mark copied = CopyBack.copyBack(r.entry, ctx.file(), StorageDrivers.installed(), 0);
                    // in step with the original now: marked so, a later forged DIRTY entry finds nothing to copy back
                    if (!io.pdla.catalog.guard.InStepMark.record(StorageDrivers.installed().forUri(r.entry.replica()), r.entry.replica(), copied)) {
                        LOG.warning("redirect: replica " + r.entry.replica() + " written back before a size change could not be marked in step");
                    }
                }
                ctx.file().sync();
                WriteSessions.invalidate(st.catalog, ctx.uri(), c.writeInto());
                for (PatternKey k : touched) {
                    OpenReplica r = st.open(k);
                    if (r != null) r.authoritative = false;
                    OpenReplica w = st.writing.remove(k);
                    if (w != null) w.authoritative = false;
                    st.unclaimed.remove(k);
                }
                Set<PatternKey> gone = new HashSet<>(touched);
                st.drop(gone);
                for (OpenReplica r : opened) RedirectInterceptor.closeQuietly(r);
                stats.add(s -> s.replicasInvalidated, gone.size());
            } catch (IOException | RuntimeException e) {
                if (!st.writing.isEmpty()) {
                    throw new IOException("redirect: cannot change the size of " + ctx.uri() + ": replicas hold writes the original lacks "
                            + "and could not be written back first (" + e + ")", e);
                }
                LOG.log(Level.WARNING, "redirect: replica catalog " + st.catalog.location() + " failed before a size change of " + ctx.uri()
                        + " (" + e.getMessage() + "); deleting the replicas it touches so none can serve stale data");
                st.catalogFailed = true;
                stats.add(s -> s.fallbacks, 1);
                st.dropAllButAuthoritative();
                for (PatternKey k : st.unclaimed.coveringFrom(newSize)) {
                    ReplicaEntry r = st.unclaimed.remove(k);
                    if (r != null) deleteReplicaFile(st, r, e);
                }
            }
        }
    }
}
