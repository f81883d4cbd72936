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
import io.pdla.replicator.catalog.ReplicatedOriginals;
import io.pdla.replicator.catalog.UnreplicatedWriters;
import io.pdla.replicator.catalog.WriteSessions;
import io.pdla.replicator.catalog.WriterSession;
import io.pdla.replicator.pattern.PatternKey;
import io.pdla.replicator.pattern.ReplicablePattern;
import io.pdla.replicator.pattern.Segment;
import io.pdla.storage.Capability;
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
    private static final Key<UnreplicatedWrite> MARKER = Key.of("redirect-unreplicated-writer");

    /** This open's marker in {@link UnreplicatedWriters}; removed when the file context is cleared at close. */
    private record UnreplicatedWrite(java.nio.file.Path marker) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            UnreplicatedWriters.release(marker);
        }
    }

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
    public void opened(FileContext ctx) throws IOException {
        RedirectConfig cfg = RedirectConfig.from(ctx.hints());
        if (cfg.catalog() == null) cfg = config;
        else if (!ctx.hints().containsKey(RedirectConfig.HINT_READAHEAD)) cfg = cfg.withReadAhead(config.readAheadBytes());
        if (cfg.catalog() == null) return;
        if (!ReplicatedOriginals.mayHave(cfg.catalog(), ctx.uri())) {
            // never replicated: nothing to look up. A writer leaves a marker so that no replica is published
            // under it, then looks again: if a first build raced it, the catalog path below is taken after all.
            if (!ctx.writable()) {
                stats.add(s -> s.opensWithoutReplicas, 1);
                return;
            }
            UnreplicatedWrite marker = new UnreplicatedWrite(UnreplicatedWriters.register(cfg.catalog(), ctx.uri()));
            ctx.put(MARKER, marker);
            if (!ReplicatedOriginals.mayHave(cfg.catalog(), ctx.uri())) {
                stats.add(s -> s.opensWithoutReplicas, 1);
                return;
            }
        }
        CatalogAccess catalog = CatalogAccesses.forDir(cfg.catalog(), cfg.catalogWaitMillis());
        List<OpenReplica> open = new ArrayList<>();
        List<ReplicaEntry> valid = new ArrayList<>();
        List<ReplicaEntry> dirty = new ArrayList<>();
        List<ReplicaEntry> mine = new ArrayList<>();
        String session = null;
        try {
            URI uri = ctx.uri();
            record Lookup(List<ReplicaEntry> entries, FileRecord file) {
            }
            java.util.function.Consumer<String> corrupt = p -> LOG.warning("replica catalog " + catalog.location() + ": " + p);
            Lookup l;
            if (ctx.writable()) {
                // a writer's session begins with the open: the lookup and the registration in one transaction
                String id = UUID.randomUUID().toString();
                WriteSessions.Begun b = WriteSessions.beginAndRead(catalog, ctx.driver(), uri,
                        new WriterSession(id, ProcessHandle.current().pid(), WriterSession.thisHost(), System.currentTimeMillis()), corrupt);
                session = id;
                l = new Lookup(b.entries(), b.file());
            } else {
                l = catalog.transact(t -> new Lookup(t.entriesOf(uri, corrupt), t.file(uri)));
            }
            FileIdentity now = FileIdentity.probe(ctx.driver(), uri);
            for (ReplicaEntry e : l.entries()) {
                if (e.state() == ReplicaState.VALID) valid.add(e);
                else if (e.state() == ReplicaState.DIRTY) dirty.add(e);
            }
            for (ReplicaEntry e : valid) {
                if (!belongsTo(e, ctx)) continue;
                String why = ReplicaValidity.reasonUnusable(e, l.file(), now);
                if (why != null) {
                    LOG.fine(() -> "not using replica " + e.replica() + " of " + e.key().id() + ": " + why);
                    continue;
                }
                mine.add(e);
            }
        } catch (IOException | RuntimeException e) {
            stats.add(s -> s.fallbacks, 1);
            LOG.log(Level.WARNING, "redirect: replica catalog " + catalog.location() + " unusable for " + ctx.uri()
                    + "; reading the original only: " + e.getMessage());
            FileRedirect none = new FileRedirect(catalog, List.of(), List.of());
            none.session = session;   // registered before the failure: it still ends at close
            ctx.put(STATE, none);
            return;
        }
        mine.sort((a, b) -> Boolean.compare(a.key().global(), b.key().global()));
        int count = dirty.size() + mine.size();
        int perReplica = count == 0 ? 0 : (int) Math.min(Integer.MAX_VALUE - 8192, cfg.readAheadBytes() / count);
        for (ReplicaEntry e : dirty) {
            // every DIRTY replica of the file, whoever's pattern it is: it alone has the newest bytes of its region
            try {
                open.add(openReplica(e, ctx, perReplica, true));
            } catch (IOException | RuntimeException ex) {
                for (OpenReplica r : open) closeQuietly(r);
                if (session != null) {
                    try {
                        WriteSessions.end(catalog, ctx.driver(), ctx.uri(), session);   // the open fails: so does its session
                    } catch (IOException | RuntimeException ignored) {
                        // the scanner ends it once this process is gone
                    }
                }
                throw new IOException("redirect: replica " + e.replica() + " holds the newest bytes of " + ctx.uri() + " for " + e.key().id()
                        + " (writes not yet written back) and cannot be opened: " + ex + "; refusing to read stale bytes from the original", ex);
            }
        }
        for (ReplicaEntry e : mine) {
            try {
                open.add(openReplica(e, ctx, perReplica, false));
            } catch (IOException | RuntimeException ex) {
                LOG.warning("redirect: replica " + e.replica() + " of " + e.key().id() + " cannot be opened (" + ex + "); reading the original");
                stats.add(s -> s.fallbacks, 1);
            }
        }
        FileRedirect st = new FileRedirect(catalog, open, valid);
        st.session = session;
        ctx.put(STATE, st);
    }

    /** Whether the entry is a pattern of this rank of this application (its own local pattern, or a global one). */
    private static boolean belongsTo(ReplicaEntry e, FileContext ctx) {
        PatternKey k = e.key();
        return k.command().equals(ctx.app().command()) && k.processes() == ctx.app().processes() && (k.global() || k.rank() == ctx.rank());
    }

    private OpenReplica openReplica(ReplicaEntry e, FileContext ctx, int readAhead, boolean authoritative) throws IOException {
        StorageDriver d = StorageDrivers.installed().forUri(e.replica());
        StorageFile f = d.open(e.replica(), OpenOptions.readOnly().withHints(ctx.hints()));
        if (f.size() != e.pattern().totalBytes()) {
            long size = f.size();
            f.close();
            throw new IOException("replica " + e.replica() + " of " + e.key().id() + " has " + size + " bytes, expected " + e.pattern().totalBytes());
        }
        stats.add(s -> s.replicasOpened, 1);
        return new OpenReplica(e, f, readAhead, ctx.hints(), authoritative);
    }

    private static void closeQuietly(OpenReplica r) {
        try {
            r.close();
        } catch (IOException ignored) {
            // giving up on it anyway
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
                return write(st, call, next);
            case SET_SIZE:
                beforeSetSize(st, call.file(), call.argument());
                return next.proceed(call);
            case SYNC: {
                for (OpenReplica r : st.writing.values()) r.sync();
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
            if (st.hasAuthoritative()) {
                // the original lacks bytes a DIRTY replica holds: falling back could return stale data
                throw new IOException("redirect: reading " + call.file().uri() + " from its replicas failed and a replica holds writes "
                        + "the original lacks, so the original cannot stand in: " + e, e);
            }
            // a replica failed mid-request: forget this file's replicas and serve the whole call from the original
            LOG.warning("redirect: replica read failed for " + call.file().uri() + " (" + e.getMessage() + "); reading the original");
            stats.add(s -> s.fallbacks, 1);
            st.dropAllButAuthoritative();
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
     * A write: first the replicas it touches are claimed (durably, see {@link WriteSessions#claim}); then every
     * byte inside a replica that took the claim goes into that replica (into each, where two cover it), the rest
     * to the original in one rerouted call.
     */
    private long write(FileRedirect st, IoCall call, Chain next) throws IOException {
        ExtentList ex = call.extents();
        claimFor(st, call.file(), ex);
        List<OpenReplica> into = List.copyOf(st.writing.values());
        if (st.catalogFailed) writeThroughUnclaimed(st, call);
        if (into.isEmpty() || !touchesAny(into, ex)) return next.proceed(call);
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
                    long pos = r.pattern.positionOf(o);
                    if (pos >= 0) {
                        cover.add(r);
                        positions.add(pos);
                        run = Math.min(run, r.pattern.runLengthAt(o));
                    } else {
                        long n = r.pattern.nextCoveredOffset(o);
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
                touched = touched(st.unclaimed.values(), ex, -1);
                if (touched.isEmpty() || st.catalogFailed) return;
                long originalSize = ctx.file().size();
                WriteSessions.Claim c = WriteSessions.claim(st.catalog, ctx.uri(), touched, e -> mayTakeWrites(e, ctx, originalSize));
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
            if (e.state() != ReplicaState.STALE && !st.writing.containsKey(e.key())) st.unclaimed.put(e.key(), e);
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
                r = openReplica(e, ctx, 0, true);
            }
            r.authoritative = true;
            st.writing.put(k, r);
            st.addAuthoritative(r);
        }
    }

    /**
     * Whether this rank's writes may go into the replica: its own pattern (local or global) on stores that take
     * writes anywhere, and a replica wholly inside the original, so that no byte it takes lies past the original's end.
     */
    private static boolean mayTakeWrites(ReplicaEntry e, FileContext ctx, long originalSize) {
        if (!belongsTo(e, ctx) || !ctx.driver().has(Capability.RANDOM_WRITE)) return false;
        if (!StorageDrivers.installed().forUri(e.replica()).has(Capability.RANDOM_WRITE)) return false;
        long[] end = {0};
        e.pattern().forEachExtent((off, len) -> end[0] = Math.max(end[0], off + len));
        return end[0] <= originalSize;
    }

    /**
     * Without a catalog, nothing can be marked: every replica this write touches gets the bytes too (whatever state
     * others gave it, it then agrees with the original there); one that cannot be written is deleted.
     */
    private void writeThroughUnclaimed(FileRedirect st, IoCall call) {
        for (PatternKey k : touched(st.unclaimed.values(), call.extents(), -1)) {
            ReplicaEntry e = st.unclaimed.get(k);
            OpenReplica r = null;
            try {
                r = st.open(k);
                if (r == null) r = new OpenReplica(e, StorageDrivers.installed().forUri(e.replica()).open(e.replica(), OpenOptions.readOnly()), 0, Map.of(), false);
                ExtentList ex = call.extents();
                int base = call.buffer().position();
                long callPos = 0;
                for (int i = 0; i < ex.size(); i++) {
                    for (Segment seg : e.pattern().map(ex.offset(i), ex.length(i))) {
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
                if (st.open(k) == null) r.close();
            } catch (IOException | RuntimeException ex) {
                st.unclaimed.remove(k);
                deleteReplicaFile(e, ex);
            }
        }
    }

    private void deleteReplicaFile(ReplicaEntry e, Exception why) {
        try {
            StorageDriver d = StorageDrivers.installed().forUri(e.replica());
            if (d.exists(e.replica())) d.delete(e.replica());
            stats.add(s -> s.replicasInvalidated, 1);
        } catch (IOException | RuntimeException ex) {
            LOG.severe("redirect: replica " + e.replica() + " could not be written (" + why + ") nor deleted (" + ex.getMessage()
                    + ") after the catalog failed; it may hold data older than the write now made to " + e.key().original());
        }
    }

    /**
     * A SET_SIZE touches every replica with bytes at or past the new size. DIRTY ones are first copied back into
     * the original (the bytes below the new size must survive; those above go with the truncation), then every
     * touched replica is marked stale, all before the size changes.
     */
    private void beforeSetSize(FileRedirect st, FileContext ctx, long newSize) throws IOException {
        synchronized (st) {
            try {
                beginSession(st, ctx);
                Set<PatternKey> touched = touched(st.unclaimed.values(), ExtentList.EMPTY, newSize);
                for (OpenReplica r : st.replicas) {
                    if (r.authoritative && r.pattern.nextCoveredOffset(newSize) >= 0) touched.add(r.entry.key());
                }
                for (OpenReplica r : st.writing.values()) {
                    if (r.pattern.nextCoveredOffset(newSize) >= 0) touched.add(r.entry.key());
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
                        r = openReplica(e, ctx, 0, true);
                        opened.add(r);
                    }
                    r.sync();
                    io.pdla.replicator.daemon.WriteBack.copyBack(r.entry, ctx.file(), StorageDrivers.installed());
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
                for (OpenReplica r : opened) closeQuietly(r);
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
                for (PatternKey k : touched(st.unclaimed.values(), ExtentList.EMPTY, newSize)) {
                    ReplicaEntry r = st.unclaimed.remove(k);
                    if (r != null) deleteReplicaFile(r, e);
                }
            }
        }
    }

    private static Set<PatternKey> touched(java.util.Collection<ReplicaEntry> entries, ExtentList ex, long newSize) {
        Set<PatternKey> out = new HashSet<>();
        for (ReplicaEntry e : entries) {
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

    /**
     * After a sync: what other ranks did meanwhile becomes visible (MPI's sync-barrier-sync). Replicas they made
     * stale stop serving, replicas they made DIRTY start serving, and read-ahead buffers are refilled.
     */
    private void refresh(FileRedirect st, FileContext ctx) throws IOException {
        if (st.catalogFailed) return;
        List<ReplicaEntry> now;
        try {
            now = st.catalog.transact(t -> t.entriesOf(ctx.uri(), p -> { }));
        } catch (IOException | RuntimeException e) {
            LOG.warning("redirect: replica catalog unusable at sync of " + ctx.uri() + " (" + e.getMessage() + "); reading the original only");
            stats.add(s -> s.fallbacks, 1);
            st.dropAllButAuthoritative();
            return;
        }
        java.util.Map<PatternKey, ReplicaEntry> current = new java.util.HashMap<>();
        for (ReplicaEntry e : now) current.put(e.key(), e);
        Set<PatternKey> gone = new HashSet<>();
        for (OpenReplica r : st.replicas) {
            ReplicaEntry e = current.get(r.entry.key());
            boolean same = e != null && e.replica().equals(r.entry.replica());
            if (r.authoritative && !(same && e.state() == ReplicaState.DIRTY)) {
                // written back (or truncated) by another process: from now on a claim decides again
                r.authoritative = false;
                st.writing.remove(r.entry.key());
                if (same && e.state() == ReplicaState.VALID) st.unclaimed.put(e.key(), e);
            }
            if (!same || e.state() == ReplicaState.STALE) gone.add(r.entry.key());
            r.forgetReadAhead();
        }
        if (!gone.isEmpty()) st.drop(gone);
        for (ReplicaEntry e : now) {
            if (e.state() == ReplicaState.DIRTY && st.open(e.key()) == null) {
                try {
                    st.addAuthoritative(openReplica(e, ctx, 0, true));
                } catch (IOException | RuntimeException ex) {
                    throw new IOException("redirect: replica " + e.replica() + " holds the newest bytes of " + ctx.uri() + " for " + e.key().id()
                            + " and cannot be opened: " + ex, ex);
                }
            }
        }
        st.unclaimed.keySet().removeIf(k -> {
            ReplicaEntry e = current.get(k);
            return e == null || e.state() == ReplicaState.STALE;
        });
    }

    @Override
    public void closing(FileContext ctx) throws IOException {
        FileRedirect st = ctx.get(STATE);
        if (st == null) return;
        try {
            st.closeAll();   // syncs what went into replicas
        } finally {
            if (st.session != null) {
                try {
                    // the written bytes must be durable before the session ends and vouches for the original
                    ctx.file().sync();
                    endingSessions.put(ctx, st);
                } catch (IOException | RuntimeException e) {
                    LOG.warning("redirect: could not sync " + ctx.uri() + " before ending its write session (" + e.getMessage()
                            + "); the session stays open and the scanner ends it once this process is gone");
                }
            }
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
