package io.pdla.redirect;

import io.pdla.access.ExtentList;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.IoCall;
import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.Key;
import io.pdla.replicator.catalog.CatalogAccess;
import io.pdla.replicator.catalog.CatalogAccesses;
import io.pdla.replicator.catalog.FileIdentity;
import io.pdla.replicator.catalog.FileRecord;
import io.pdla.replicator.catalog.ReplicaEntry;
import io.pdla.replicator.catalog.ReplicaState;
import io.pdla.replicator.catalog.ReplicaValidity;
import io.pdla.replicator.catalog.WriteSessions;
import io.pdla.replicator.catalog.WriterSession;
import io.pdla.replicator.pattern.PatternKey;
import io.pdla.replicator.pattern.ReplicablePattern;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Serves reads from replicas and keeps replicas consistent with writes (see {@code redirect/README.md}).
 *
 * <p>Reads: each extent is translated through the replicas' closed forms (O(levels) per extent); bytes in a
 * pattern come from its replica, the rest (and the straddling parts) go on to the original in one rerouted
 * call. A request that touches no replica proceeds unchanged, which is the whole cost when nothing applies.
 *
 * <p>Writes: before the first write of an open file proceeds, a write session is registered in the catalog;
 * before a write that touches a replicated region proceeds, the replicas it touches are marked stale in a
 * durable transaction. The original is always the authoritative copy. Any failure of the catalog or of a
 * replica makes the file fall back to its original, never fails the application's call.
 */
public final class RedirectInterceptor implements IoInterceptor {
    private static final Logger LOG = Logger.getLogger(RedirectInterceptor.class.getName());
    private static final Key<FileRedirect> STATE = Key.of("redirect");

    private final RedirectConfig config;
    private final RedirectStats stats = RedirectStats.newChild();
    /** Files between {@link #closing} and {@link #closed} whose write session ends at {@code closed}. */
    private final Map<FileContext, FileRedirect> endingSessions = Collections.synchronizedMap(new IdentityHashMap<>());

    public RedirectInterceptor(RedirectConfig config) {
        this.config = config;
    }

    public RedirectStats stats() {
        return stats;
    }

    @Override
    public void opened(FileContext ctx) {
        RedirectConfig cfg = RedirectConfig.from(ctx.hints());
        if (cfg.catalog() == null) cfg = config;
        else if (!ctx.hints().containsKey(RedirectConfig.HINT_READAHEAD)) cfg = cfg.withReadAhead(config.readAheadBytes());
        if (cfg.catalog() == null) return;
        CatalogAccess catalog = CatalogAccesses.forDir(cfg.catalog(), cfg.catalogWaitMillis());
        List<OpenReplica> open = new ArrayList<>();
        List<ReplicaEntry> valid = new ArrayList<>();
        try {
            URI uri = ctx.uri();
            record Lookup(List<ReplicaEntry> entries, FileRecord file) {
            }
            Lookup l = catalog.transact(t -> new Lookup(t.entriesOf(uri, p -> LOG.warning("replica catalog " + catalog.location() + ": " + p)), t.file(uri)));
            FileIdentity now = FileIdentity.probe(ctx.driver(), uri);
            for (ReplicaEntry e : l.entries()) {
                if (e.state() == ReplicaState.VALID) valid.add(e);
            }
            List<ReplicaEntry> mine = new ArrayList<>();
            for (ReplicaEntry e : valid) {
                PatternKey k = e.key();
                if (!k.command().equals(ctx.app().command()) || k.processes() != ctx.app().processes()) continue;
                if (k.rank() != ctx.rank() && !k.global()) continue;
                String why = ReplicaValidity.reasonUnusable(e, l.file(), now);
                if (why != null) {
                    LOG.fine(() -> "not using replica " + e.replica() + " of " + k.id() + ": " + why);
                    continue;
                }
                mine.add(e);
            }
            mine.sort((a, b) -> Boolean.compare(a.key().global(), b.key().global()));
            int perReplica = mine.isEmpty() ? 0 : (int) Math.min(Integer.MAX_VALUE - 8192, cfg.readAheadBytes() / mine.size());
            for (ReplicaEntry e : mine) {
                OpenReplica r = openReplica(e, ctx, perReplica);
                if (r != null) open.add(r);
            }
        } catch (IOException | RuntimeException e) {
            stats.add(s -> s.fallbacks, 1);
            LOG.log(Level.WARNING, "redirect: replica catalog " + catalog.location() + " unusable for " + ctx.uri()
                    + "; reading the original only: " + e.getMessage());
            for (OpenReplica r : open) {
                try {
                    r.close();
                } catch (IOException ignored) {
                    // falling back anyway
                }
            }
            open.clear();
        }
        ctx.put(STATE, new FileRedirect(catalog, open, valid));
    }

    private OpenReplica openReplica(ReplicaEntry e, FileContext ctx, int readAhead) {
        try {
            StorageDriver d = StorageDrivers.installed().forUri(e.replica());
            StorageFile f = d.open(e.replica(), OpenOptions.readOnly().withHints(ctx.hints()));
            if (f.size() != e.pattern().totalBytes()) {
                f.close();
                LOG.warning("redirect: replica " + e.replica() + " of " + e.key().id() + " has " + f.size() + " bytes, expected "
                        + e.pattern().totalBytes() + "; reading the original");
                stats.add(s -> s.fallbacks, 1);
                return null;
            }
            stats.add(s -> s.replicasOpened, 1);
            return new OpenReplica(e, f, readAhead);
        } catch (IOException | RuntimeException ex) {
            LOG.warning("redirect: replica " + e.replica() + " of " + e.key().id() + " cannot be opened (" + ex + "); reading the original");
            stats.add(s -> s.fallbacks, 1);
            return null;
        }
    }

    @Override
    public long intercept(IoCall call, Chain next) throws IOException {
        FileRedirect st = call.file().get(STATE);
        if (st == null) return next.proceed(call);
        switch (call.op()) {
            case READ:
                return read(st, call, next);
            case WRITE:
                beforeWrite(st, call.file(), call.extents(), -1);
                return next.proceed(call);
            case SET_SIZE:
                beforeWrite(st, call.file(), ExtentList.EMPTY, call.argument());
                return next.proceed(call);
            case SYNC: {
                long r = next.proceed(call);
                refresh(st, call.file());
                return r;
            }
            default:
                return next.proceed(call);
        }
    }

    // ---------------------------------------------------------------- reads

    private long read(FileRedirect st, IoCall call, Chain next) throws IOException {
        List<OpenReplica> replicas = st.replicas;
        ExtentList ex = call.extents();
        if (replicas.isEmpty() || !touchesAny(replicas, ex)) {
            long n = next.proceed(call);
            stats.add(s -> s.readsFromOriginal, 1);
            stats.add(s -> s.bytesFromOriginal, Math.max(0, n));
            return n;
        }
        ByteBuffer buf = call.buffer();
        int base = buf.position();
        ExtentList.Builder originalParts = ExtentList.builder(4);
        List<long[]> originalSlots = new ArrayList<>(); // {buffer offset, length} of each original part, in call order
        long fromReplica = 0;
        long callPos = 0;
        try {
            for (int i = 0; i < ex.size(); i++) {
                long o = ex.offset(i);
                long end = o + ex.length(i);
                while (o < end) {
                    OpenReplica hit = null;
                    long pos = -1;
                    for (OpenReplica r : replicas) {
                        pos = r.pattern.positionOf(o);
                        if (pos >= 0) {
                            hit = r;
                            break;
                        }
                    }
                    if (hit != null) {
                        long run = Math.min(hit.pattern.runLengthAt(o), end - o);
                        ByteBuffer dst = buf.duplicate();
                        dst.position(base + (int) callPos).limit(base + (int) (callPos + run));
                        hit.read(pos, dst, stats);
                        fromReplica += run;
                        o += run;
                        callPos += run;
                    } else {
                        long stop = end;
                        for (OpenReplica r : replicas) {
                            long n = r.pattern.nextCoveredOffset(o);
                            if (n >= 0 && n < stop) stop = n;
                        }
                        originalParts.add(o, stop - o);
                        originalSlots.add(new long[]{callPos, stop - o});
                        callPos += stop - o;
                        o = stop;
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // a replica failed mid-request: forget this file's replicas and serve the whole call from the original
            LOG.warning("redirect: replica read failed for " + call.file().uri() + " (" + e.getMessage() + "); reading the original");
            stats.add(s -> s.fallbacks, 1);
            st.dropAll();
            return next.proceed(call);
        }
        final long replicaBytes = fromReplica;
        stats.add(s -> s.bytesFromReplica, replicaBytes);
        if (originalSlots.isEmpty()) {
            stats.add(s -> s.readsFromReplica, 1);
            buf.position(base + (int) callPos);
            return callPos;
        }
        ExtentList parts = originalParts.build();
        ByteBuffer tmp = ByteBuffer.allocate(Math.toIntExact(parts.totalBytes()));
        long got = next.proceed(call.rerouted(parts, tmp));
        stats.add(s -> s.readsMixed, 1);
        stats.add(s -> s.bytesFromOriginal, Math.max(0, got));
        long total = callPos;
        long copied = 0;
        for (long[] slot : originalSlots) {
            long take = Math.max(0, Math.min(slot[1], got - copied));
            if (take > 0) {
                ByteBuffer src = tmp.duplicate();
                src.position((int) copied).limit((int) (copied + take));
                ByteBuffer dst = buf.duplicate();
                dst.position(base + (int) slot[0]);
                dst.put(src);
            }
            if (take < slot[1]) {
                // the original ended inside this part: a plain read stops here too
                total = slot[0] + take;
                break;
            }
            copied += take;
        }
        buf.position(base + (int) total);
        return total;
    }

    private static boolean touchesAny(List<OpenReplica> replicas, ExtentList ex) {
        for (int i = 0; i < ex.size(); i++) {
            for (OpenReplica r : replicas) if (r.pattern.overlaps(ex.offset(i), ex.length(i))) return true;
        }
        return false;
    }

    // ---------------------------------------------------------------- writes

    /**
     * Makes the write safe before it proceeds: registers the write session (first write), then marks every
     * valid replica of the file that the write touches stale, durably. {@code newSize >= 0} is a SET_SIZE:
     * it touches everything from the new size on.
     */
    private void beforeWrite(FileRedirect st, FileContext ctx, ExtentList ex, long newSize) {
        synchronized (st) {
            try {
                if (st.session == null && !st.catalogFailed) {
                    String id = UUID.randomUUID().toString();
                    List<ReplicaEntry> fresh = WriteSessions.begin(st.catalog, ctx.driver(), ctx.uri(),
                            new WriterSession(id, ProcessHandle.current().pid(), WriterSession.thisHost(), System.currentTimeMillis()));
                    st.session = id;
                    st.validEntries.clear();
                    for (ReplicaEntry e : fresh) if (e.state() == ReplicaState.VALID) st.validEntries.put(e.key(), e);
                }
                Set<PatternKey> touched = touched(st, ex, newSize);
                if (touched.isEmpty()) return;
                if (!st.catalogFailed) {
                    WriteSessions.invalidate(st.catalog, ctx.uri(), touched);
                    stats.add(s -> s.replicasInvalidated, touched.size());
                    for (PatternKey k : touched) st.validEntries.remove(k);
                    st.drop(touched);
                    return;
                }
                deleteReplicaFiles(st, touched);
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.WARNING, "redirect: replica catalog " + st.catalog.location() + " failed before a write to " + ctx.uri()
                        + " (" + e.getMessage() + "); deleting the replicas it touches so none can serve stale data");
                st.catalogFailed = true;
                stats.add(s -> s.fallbacks, 1);
                st.dropAll();
                deleteReplicaFiles(st, touched(st, ex, newSize));
            }
        }
    }

    private static Set<PatternKey> touched(FileRedirect st, ExtentList ex, long newSize) {
        Set<PatternKey> out = new HashSet<>();
        for (ReplicaEntry e : st.validEntries.values()) {
            ReplicablePattern p = e.pattern();
            if (newSize >= 0) {
                if (p.nextCoveredOffset(newSize) >= 0) out.add(e.key());
                continue;
            }
            for (int i = 0; i < ex.size(); i++) {
                if (p.overlaps(ex.offset(i), ex.length(i))) {
                    out.add(e.key());
                    break;
                }
            }
        }
        return out;
    }

    /** Without the catalog, removing the replica file is the durable way to make sure it is never served. */
    private void deleteReplicaFiles(FileRedirect st, Set<PatternKey> keys) {
        for (PatternKey k : keys) {
            ReplicaEntry e = st.validEntries.remove(k);
            if (e == null) continue;
            try {
                StorageDriver d = StorageDrivers.installed().forUri(e.replica());
                if (d.exists(e.replica())) d.delete(e.replica());
                stats.add(s -> s.replicasInvalidated, 1);
            } catch (IOException | RuntimeException ex) {
                LOG.severe("redirect: could not delete replica " + e.replica() + " after the catalog failed: " + ex.getMessage()
                        + "; it may hold data older than the write now made to " + k.original());
            }
        }
        st.drop(keys);
    }

    /** After a sync: stop using replicas that other ranks' writes made stale meanwhile. */
    private void refresh(FileRedirect st, FileContext ctx) {
        if (st.replicas.isEmpty() && st.validEntries.isEmpty()) return;
        try {
            List<ReplicaEntry> now = st.catalog.transact(t -> t.entriesOf(ctx.uri(), p -> { }));
            Set<PatternKey> valid = new HashSet<>();
            for (ReplicaEntry e : now) if (e.state() == ReplicaState.VALID) valid.add(e.key());
            Set<PatternKey> gone = new HashSet<>();
            for (OpenReplica r : st.replicas) if (!valid.contains(r.entry.key())) gone.add(r.entry.key());
            st.validEntries.keySet().retainAll(valid);
            if (!gone.isEmpty()) st.drop(gone);
        } catch (IOException | RuntimeException e) {
            LOG.warning("redirect: replica catalog unusable at sync of " + ctx.uri() + " (" + e.getMessage() + "); reading the original only");
            stats.add(s -> s.fallbacks, 1);
            st.dropAll();
        }
    }

    @Override
    public void closing(FileContext ctx) {
        FileRedirect st = ctx.get(STATE);
        if (st == null) return;
        st.dropAll();
        if (st.session == null) return;
        try {
            // the written bytes must be durable before the session ends and vouches for the original
            ctx.file().sync();
            endingSessions.put(ctx, st);
        } catch (IOException | RuntimeException e) {
            LOG.warning("redirect: could not sync " + ctx.uri() + " before ending its write session (" + e.getMessage()
                    + "); the session stays open and the scanner ends it once this process is gone");
        }
    }

    /** The session ends only once the store closed the file: only then are its size and time final. */
    @Override
    public void closed(FileContext ctx) {
        FileRedirect st = endingSessions.remove(ctx);
        if (st == null) return;
        try {
            WriteSessions.end(st.catalog, ctx.driver(), ctx.uri(), st.session);
        } catch (IOException | RuntimeException e) {
            LOG.warning("redirect: could not end the write session on " + ctx.uri() + " in " + st.catalog.location() + " ("
                    + e.getMessage() + "); the scanner ends it once this process is gone");
        }
    }
}
