package io.pdla.redirect;

import io.pdla.access.ExtentList;
import io.pdla.catalog.CatalogAccess;
import io.pdla.catalog.CatalogAccesses;
import io.pdla.catalog.FileLookup;
import io.pdla.catalog.StampedLookups;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.catalog.ReplicaValidity;
import io.pdla.catalog.ReplicatedOriginals;
import io.pdla.catalog.UnreplicatedWriters;
import io.pdla.catalog.WatchLookups;
import io.pdla.catalog.WriteSessions;
import io.pdla.catalog.guard.ReplicaGuard;
import io.pdla.catalog.replica.ReplicaNames;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.IoCall;
import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.Key;
import io.pdla.pattern.PatternKey;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Serves reads from replicas and keeps replicas consistent with writes (see {@code redirect/README.md}).
 *
 * <p>Reads: each extent is translated through the replicas' closed forms by the {@link ExtentRouter} (O(levels)
 * per piece); bytes in a pattern come from its replica, the rest (and the straddling parts) go on to the original in one rerouted
 * call. A request that touches no replica proceeds unchanged, which is the whole cost when nothing applies.
 *
 * <p>Writes ({@link ReplicaWrites}): a writer's session is registered with its open; a write that touches
 * replicated regions first claims those replicas in one durable transaction, then its bytes go into the ones that
 * became (or were) DIRTY and to the original for the rest. Files never replicated skip the catalog entirely.
 * A failure of the catalog or of a non-DIRTY replica makes the file fall back to its original; a DIRTY replica
 * that cannot be read fails the call instead, since the original lacks its bytes.
 */
public final class RedirectInterceptor implements IoInterceptor {
    private static final Logger LOG = Logger.getLogger(RedirectInterceptor.class.getName());
    private static final Key<FileRedirect> STATE = Key.of("redirect");
    private static final Key<UnreplicatedWrite> MARKER = Key.of("redirect-unreplicated-writer");
    private static final Key<RedirectConfig> CONFIG = Key.of("redirect-config");

    /** This open's marker in {@link UnreplicatedWriters}; removed when the file context is cleared at close. */
    private record UnreplicatedWrite(java.nio.file.Path marker) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            UnreplicatedWriters.release(marker);
        }
    }

    private final RedirectConfig config;
    private final RedirectStats stats = RedirectStats.newChild();
    private final ReplicaWrites writes = new ReplicaWrites(stats, this::openReplica);
    /** Files between {@link #closing} and {@link #closed} whose write session ends at {@code closed}. */
    private final Map<FileContext, FileRedirect> endingSessions = Collections.synchronizedMap(new IdentityHashMap<>());

    public RedirectInterceptor(RedirectConfig config) {
        this.config = config;
    }

    public RedirectStats stats() {
        return stats;
    }

    /**
     * The open's settings: its hints' catalog, else the process's, with the process's read-ahead unless a hint sets one.
     * Worked out once per open (kept in its context): an online job's every read-only open asks before its meeting and
     * again in {@link #opened}, and each time meant the settings' look-ups and a look at the catalog directory.
     */
    private RedirectConfig configOf(FileContext ctx) {
        RedirectConfig kept = ctx.get(CONFIG);
        if (kept != null) return kept;
        RedirectConfig cfg = RedirectConfig.from(ctx.hints());
        if (cfg.catalog() == null) cfg = config;
        else if (!ctx.hints().containsKey(RedirectConfig.HINT_READAHEAD)) cfg = cfg.withReadAhead(config.readAheadBytes());
        ctx.put(CONFIG, cfg);
        return cfg;
    }

    /**
     * Rank 0's catalog look-up is wanted when this rank's index of replicated originals says the file may have a
     * replica. When no rank's does, the ranks skip that meeting together ({@link FileContext#rankZeroWantedAtOpen})
     * and {@link #opened} looks at the index again: a replica published since is looked up by the rank that sees
     * it, as when rank 0's look-up raced a first build.
     */
    @Override
    public boolean wantsRankZeroAtOpen(FileContext ctx) {
        RedirectConfig cfg = configOf(ctx);
        return cfg.catalog() != null && ReplicatedOriginals.mayHave(cfg.catalog(), ctx.uri());
    }

    @Override
    public void opened(FileContext ctx) throws IOException {
        RedirectConfig cfg = configOf(ctx);
        if (cfg.catalog() == null) return;
        boolean mayHave = ReplicatedOriginals.mayHave(cfg.catalog(), ctx.uri());
        if (!mayHave && ctx.writable()) {
            // never replicated: a writer leaves a marker so that no replica is published under it, then looks
            // again: if a first build raced it, the catalog path below is taken after all.
            ctx.put(MARKER, new UnreplicatedWrite(UnreplicatedWriters.register(cfg.catalog(), ctx.uri())));
            mayHave = ReplicatedOriginals.mayHave(cfg.catalog(), ctx.uri());
        }
        // an online job's file gets its replica during the job (from a daemon, which has made the catalog): rank 0, which will
        // look it up, loads the catalog's store now
        if (!mayHave && ctx.rank() == 0 && RedirectProvider.onlineRequested(ctx.hints())) {
            try {
                CatalogWarmup.startOnce(cfg.catalog());
            } catch (RuntimeException | Error e) {   // no thread to be had, say: a warm-up never fails the open
                LOG.fine(() -> "catalog warm-up not started: " + e);
            }
        }
        CatalogAccess catalog = CatalogAccesses.forDir(cfg.catalog(), cfg.catalogWaitMillis());
        boolean watches = watchesWithinOpen(ctx, cfg);
        List<OpenReplica> open = new ArrayList<>();
        List<ReplicaEntry> valid = new ArrayList<>();
        List<ReplicaEntry> dirty = new ArrayList<>();
        List<ReplicaEntry> mine;
        try {
            Optional<FileLookup> found = lookUp(ctx, catalog, mayHave);
            if (found.isEmpty()) {
                stats.countOpenWithoutReplicas();
                if (watches) ctx.put(STATE, FileRedirect.watching(catalog, List.of(), watch(ctx, cfg)));
                return;
            }
            FileLookup l = found.get();
            for (ReplicaEntry e : l.entries()) {
                if (e.state() == ReplicaState.VALID) valid.add(e);
                else if (e.state() == ReplicaState.DIRTY) dirty.add(e);
            }
            mine = usableHere(ctx, l, valid);
        } catch (IOException | RuntimeException e) {
            stats.add(s -> s.fallbacks, 1);
            LOG.log(Level.WARNING, "redirect: replica catalog " + catalog.location() + " unusable for " + ctx.uri()
                    + "; reading the original only: " + e.getMessage());
            ctx.put(STATE, new FileRedirect(catalog, List.of(), List.of()));
            return;
        }
        mine.sort(java.util.Comparator.comparing(ReplicaEntry::key, ExtentRouter.SERVING_ORDER));
        int count = dirty.size() + mine.size();
        int perReplica = count == 0 ? 0 : (int) Math.min(Integer.MAX_VALUE - 8192, cfg.readAheadBytes() / count);
        for (ReplicaEntry e : dirty) {
            // every DIRTY replica of the file, whoever's pattern it is: it alone has the newest bytes of its region
            try {
                open.add(openReplica(e, ctx, perReplica, true));
            } catch (IOException | RuntimeException ex) {
                for (OpenReplica r : open) closeQuietly(r);
                throw new IOException("redirect: replica " + e.replica() + " holds the newest bytes of " + ctx.uri() + " for " + e.key().id()
                        + " (writes not yet written back) and cannot be opened: " + ex + "; refusing to read stale bytes from the original", ex);
            }
        }
        open.addAll(openServing(ctx, mine, perReplica));
        if (watches && open.isEmpty()) {
            ctx.put(STATE, FileRedirect.watching(catalog, valid, watch(ctx, cfg)));
        } else {
            ctx.put(STATE, new FileRedirect(catalog, open, valid));
        }
    }

    /**
     * The VALID entries of {@code l} that may serve this rank's reads: its own or global patterns, of an original
     * this process may read, whose recorded identity vouches for the original as probed in {@code l}.
     */
    private static List<ReplicaEntry> usableHere(FileContext ctx, FileLookup l, List<ReplicaEntry> valid) {
        List<ReplicaEntry> mine = new ArrayList<>();
        // a process that cannot read the original is never served its replica (checked as this process's user)
        String unreadable = originalUnreadable(ctx.driver(), ctx.uri());
        for (ReplicaEntry e : valid) {
            if (!belongsTo(e, ctx)) continue;
            if (unreadable != null) {
                LOG.fine(() -> "not using replica " + e.replica() + " of " + e.key().id() + ": " + unreadable);
                continue;
            }
            String why = ReplicaValidity.reasonUnusable(e, l.file(), l.identity());
            if (why != null) {
                LOG.fine(() -> "not using replica " + e.replica() + " of " + e.key().id() + ": " + why);
                continue;
            }
            mine.add(e);
        }
        return mine;
    }

    /** Opens the replicas of {@code entries} to serve reads; one that cannot be opened is left out (its region reads the original). */
    private List<OpenReplica> openServing(FileContext ctx, List<ReplicaEntry> entries, int readAhead) {
        List<OpenReplica> open = new ArrayList<>();
        for (ReplicaEntry e : entries) {
            try {
                open.add(openReplica(e, ctx, readAhead, false));
            } catch (IOException | RuntimeException ex) {
                LOG.warning("redirect: replica " + e.replica() + " of " + e.key().id() + " cannot be opened (" + ex + "); reading the original");
                stats.add(s -> s.fallbacks, 1);
            }
        }
        return open;
    }

    // ---------------------------------------------------------------- switching within an open

    /**
     * Whether this open, if no replica serves it at its open, looks for one published while it is open: a read-only
     * open of an online job (its replicas are built while it runs; a job that keeps its file open across passes would
     * otherwise gain nothing), unless the watch is set to 0. Writable opens never switch: their writes' claims and
     * sessions are decided at their first write, against the entries of that moment.
     */
    private static boolean watchesWithinOpen(FileContext ctx, RedirectConfig cfg) {
        return !ctx.writable() && cfg.watchMillis() > 0 && RedirectProvider.onlineRequested(ctx.hints());
    }

    private static ReplicaWatch watch(FileContext ctx, RedirectConfig cfg) {
        return new ReplicaWatch(cfg.watchMillis(), System.nanoTime(), cfg.catalog(), ctx.uri(), ctx.rank() == 0);
    }

    /** How long a look waits for the catalog while the daemon holds it: a read of the application waits meanwhile. */
    static final long WATCH_CATALOG_WAIT_MILLIS = 200;

    /**
     * A watching open's look, from one of its reads: when the file's index names it now and the catalog holds a VALID
     * replica this open may use (the checks of an open, against the original as probed now), the replica serves the
     * rest of the open. Only when no replica of the file is DIRTY: one holding writes the original lacks came from a
     * writer that is open now, and a read-only open need not see them before its sync (MPI's sync-barrier-sync), whose
     * refresh opens them. Nothing here fails the read that asked: a failure backs the watch off, and gives it up.
     */
    private void lookAgain(FileContext ctx, FileRedirect st, ReplicaWatch w) {
        try {
            RedirectConfig cfg = configOf(ctx);
            if (!ReplicatedOriginals.mayHave(cfg.catalog(), ctx.uri())) {
                w.looked();
                return;
            }
            stats.add(s -> s.watchLookups, 1);
            CatalogAccess catalog = CatalogAccesses.forDir(cfg.catalog(), Math.min(cfg.catalogWaitMillis(), WATCH_CATALOG_WAIT_MILLIS));
            FileLookup l = WatchLookups.read(catalog, ctx.driver(), ctx.uri(), ctx.rank() == 0,
                    p -> LOG.warning("replica catalog " + catalog.location() + ": " + p));
            if (l == null) {   // another rank of this JVM looks: its answer is used at a later read
                w.looked();
                return;
            }
            List<ReplicaEntry> valid = new ArrayList<>();
            for (ReplicaEntry e : l.entries()) {
                if (e.state() == ReplicaState.DIRTY) {
                    w.looked();
                    return;
                }
                if (e.state() == ReplicaState.VALID) valid.add(e);
            }
            List<ReplicaEntry> mine = usableHere(ctx, l, valid);
            w.looked();
            if (mine.isEmpty()) return;
            mine.sort(java.util.Comparator.comparing(ReplicaEntry::key, ExtentRouter.SERVING_ORDER));
            int perReplica = (int) Math.min(Integer.MAX_VALUE - 8192, cfg.readAheadBytes() / mine.size());
            List<OpenReplica> opened = openServing(ctx, mine, perReplica);
            if (opened.isEmpty()) return;
            if (!st.switchTo(opened, w)) {
                for (OpenReplica r : opened) closeQuietly(r);
                return;
            }
            stats.add(s -> s.switchesWithinOpen, 1);
            ctx.answersChanged();
        } catch (IOException | RuntimeException | LinkageError e) {
            if (w.failed(System.nanoTime())) {
                LOG.fine(() -> "redirect: looking for a replica of " + ctx.uri() + " published during the open failed (" + e + "); looking again later");
                return;
            }
            st.stopWatching();
            LOG.warning("redirect: looking for a replica of " + ctx.uri() + " published during the open failed " + ReplicaWatch.MAX_FAILURES
                    + " times (last: " + e + "); this open reads its original to its close");
        }
    }

    /**
     * The catalog's view of the file, looked up once per open by rank 0 of the file's communicator and handed to
     * the others (one transaction, hence one environment open, per job rather than per rank); empty when the
     * file was never replicated. Every rank calls this the same way, so all take the same path; when the open told
     * every rank that no rank's index named the file ({@link #wantsRankZeroAtOpen}), none meets, and a rank whose
     * index names it by now looks for itself. A writer's
     * session is not begun here but at its first write ({@code ReplicaWrites}), which reads the entries again in
     * that transaction: ranks that open for writing and never write never open the catalog.
     */
    private Optional<FileLookup> lookUp(FileContext ctx, CatalogAccess catalog, boolean mayHave) throws IOException {
        if (!ctx.rankZeroWantedAtOpen()) return mayHave ? Optional.of(lookUpHere(ctx, catalog)) : Optional.empty();
        byte[] shared = ctx.shareFromRankZero(() -> {
            if (!mayHave) return new byte[0];
            try {
                return lookUpHere(ctx, catalog).toBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        if (shared.length > 0) return Optional.of(FileLookup.fromBytes(shared));
        if (!mayHave) return Optional.empty();
        // rank 0 saw no replica index entry but this rank does: a first build raced the open; look for itself
        return Optional.of(lookUpHere(ctx, catalog));
    }

    /**
     * A read-only open reuses this process's last look-up of the file while the catalog's change stamp and the
     * original's identity say nothing changed since ({@link StampedLookups}); a writable open always reads the catalog.
     */
    private FileLookup lookUpHere(FileContext ctx, CatalogAccess catalog) throws IOException {
        stats.add(s -> s.catalogLookups, 1);
        java.util.function.Consumer<String> corrupt = p -> LOG.warning("replica catalog " + catalog.location() + ": " + p);
        if (ctx.writable()) return FileLookup.read(catalog, ctx.driver(), ctx.uri(), corrupt);
        StampedLookups.Answer a = StampedLookups.read(catalog, ctx.driver(), ctx.uri(), corrupt);
        if (a.reused()) stats.add(s -> s.catalogLookupsReused, 1);
        return a.lookup();
    }

    /** Whether the entry is a pattern of this rank of this application (its own local pattern, or a global one). */
    static boolean belongsTo(ReplicaEntry e, FileContext ctx) {
        return e.key().serves(ctx.app(), ctx.rank());
    }

    OpenReplica openReplica(ReplicaEntry e, FileContext ctx, int readAhead, boolean authoritative) throws IOException {
        // the entry's path is data: opened only where and whose a replica of this original must be
        String refused = guardFor(ctx).reasonRefused(ctx.uri(), ReplicaNames.keyDirName(e.key()), e.replica());
        if (refused != null) {
            stats.add(s -> s.replicasRefused, 1);
            throw new IOException("redirect: refusing replica " + e.replica() + " of " + e.key().id() + ": " + refused);
        }
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

    /** The replica rules of the catalog this open uses. */
    ReplicaGuard guardFor(FileContext ctx) {
        java.nio.file.Path dir = RedirectConfig.from(ctx.hints()).catalog();
        return ReplicaGuard.forCatalog(dir != null ? dir : config.catalog());
    }

    /**
     * Null when this process may read {@code original}, as its store judges ({@link StorageDriver#readable}: POSIX
     * access(2) as this user, sim-pfs its namespace entry's permission, HDFS the NameNode's check), else why not.
     */
    static String originalUnreadable(StorageDriver driver, URI original) {
        try {
            if (driver.readable(original)) return null;
            return "this process (user " + System.getProperty("user.name") + ") cannot read the original " + original;
        } catch (IOException | RuntimeException e) {
            return "whether this process may read the original " + original + " cannot be told: " + e.getMessage();
        }
    }

    static void closeQuietly(OpenReplica r) {
        try {
            r.close();
        } catch (IOException ignored) {
            // giving up on it anyway
        }
    }

    /**
     * An open without redirect state (no catalog, or the file has no replica this open may use, and no DIRTY one)
     * only watches: {@link #intercept} passes each of its calls on unchanged. So does an online job's read-only open
     * that no replica serves yet ({@link FileRedirect#onlyWatches}): its reads look for a replica published since
     * ({@link #observed}), and once one serves, the open says so ({@link FileContext#answersChanged}) and every later
     * read passes through {@link #intercept}. Online PDLA's reads before any replica exists take the shim's straight
     * path like the tracer's.
     */
    @Override
    public boolean observesOnly(FileContext file) {
        FileRedirect st = file.get(STATE);
        return st == null || st.onlyWatches;
    }

    /** A watching open's read: the look for a replica published since, when one is due ({@link #lookAgain}). */
    @Override
    public void observed(FileContext file, io.pdla.access.IoOp op, io.pdla.access.Positioning positioning, long offset, long length,
                         long moved, long startNanos, long endNanos) {
        if (op != io.pdla.access.IoOp.READ) return;
        FileRedirect st = file.get(STATE);
        if (st == null) return;
        ReplicaWatch w = st.watch;
        if (w != null && w.due(endNanos)) lookAgain(file, st, w);
    }

    /**
     * An open without state does not need it at all: {@link #intercept} would pass each call on unchanged, and under the
     * multicore device each rank runs its own copy of that code (this class is per rank), interpreted and then C1
     * compiled per rank, on every read of a job before its replicas exist.
     */
    @Override
    public boolean ignores(FileContext file) {
        return file.get(STATE) == null;
    }

    @Override
    public long intercept(IoCall call, Chain next) throws IOException {
        FileRedirect st = call.file().get(STATE);
        if (st == null) return next.proceed(call);
        switch (call.op()) {
            case READ: {
                if (st.onlyWatches) {
                    // a read the general path sends here (a ByteBuffer's, a view's): as cheap as the straight path's
                    ReplicaWatch w = st.watch;
                    if (w != null && w.dueAtSomeRead()) lookAgain(call.file(), st, w);
                    if (st.onlyWatches) return next.proceed(call);
                }
                return read(st, call, next);
            }
            case WRITE:
                return writes.write(st, call, next);
            case SET_SIZE:
                writes.beforeSetSize(st, call.file(), call.argument());
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
        ExtentRouter router = router(replicas);
        if (replicas.isEmpty() || !router.touchesAny(ex)) {
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
            for (ExtentRouter.Piece p : router.route(ex)) {
                if (p.fromOriginal()) {
                    originalParts.add(p.offset(), p.length());
                    originalSlots.add(new long[]{callPos, p.length()});
                } else {
                    ByteBuffer dst = buf.duplicate();
                    dst.position(base + (int) callPos).limit(base + (int) (callPos + p.length()));
                    replicas.get(p.replica()).read(p.replicaOffset(), dst, stats);
                    fromReplica += p.length();
                }
                callPos += p.length();
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

    /** The router over these replicas' closed forms, in their serving order. */
    static ExtentRouter router(List<OpenReplica> replicas) {
        List<io.pdla.pattern.Geometry> g = new ArrayList<>(replicas.size());
        for (OpenReplica r : replicas) g.add(r.pattern.geometry());
        return new ExtentRouter(g);
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
                if (same && e.state() == ReplicaState.VALID) st.unclaimed.put(e);
            }
            if (!same || e.state() == ReplicaState.STALE) gone.add(r.entry.key());
            r.forgetReadAhead();
        }
        if (!gone.isEmpty()) st.drop(gone);
        for (ReplicaEntry e : now) {
            if (e.state() == ReplicaState.DIRTY && st.open(e.key()) == null) {
                try {
                    boolean watched = st.onlyWatches;
                    st.addAuthoritative(openReplica(e, ctx, 0, true));
                    if (watched) ctx.answersChanged();   // every read must now pass through this interceptor
                } catch (IOException | RuntimeException ex) {
                    throw new IOException("redirect: replica " + e.replica() + " holds the newest bytes of " + ctx.uri() + " for " + e.key().id()
                            + " and cannot be opened: " + ex, ex);
                }
            }
        }
        st.unclaimed.removeIf(k -> {
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

    /**
     * With delegates configured (a chain that holds a close vote), the session's end comes after the close meeting:
     * a rank ending one has the ranks meet once more after the closed hooks, so that no rank leaves close, and opens
     * the file again, before every rank's session ended. It does not ask the delegates for a CLOSE round.
     */
    @Override
    public boolean meetsAfterClosed(FileContext ctx) {
        return endingSessions.containsKey(ctx);
    }

    /**
     * After the delegates wrote back what they held of the open (they are told first, being inside this interceptor):
     * the sync in {@link #closing} came before their write-back, so the session's bytes are made durable again,
     * through a handle of its own (the open's is closed by now), before {@link #closed} ends the session.
     */
    @Override
    public void closeAgreed(FileContext ctx, boolean anyRank) {
        if (!anyRank || !endingSessions.containsKey(ctx)) return;
        try (StorageFile f = ctx.driver().open(ctx.uri(), OpenOptions.readOnly())) {
            f.sync();
        } catch (IOException | RuntimeException e) {
            endingSessions.remove(ctx);
            LOG.warning("redirect: could not sync " + ctx.uri() + " after the delegates wrote it back (" + e.getMessage()
                    + "); its write session stays open and the scanner ends it once this process is gone");
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
