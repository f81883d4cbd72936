package io.pdla.delegate.service;

import io.pdla.access.ExtentList;
import io.pdla.delegate.cache.PageCache;
import io.pdla.delegate.cache.PageCache.CachedFile;
import io.pdla.delegate.cache.ReadAhead;
import io.pdla.delegate.service.DelegateProtocol.Request;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one delegate rank does with a request, whatever carries it: serves reads and writes of the pages it
 * owns from its {@link PageCache}, flushes a file's dirty pages on SYNC and CLOSE (before replying, so the
 * application's sync or close returns only when the bytes are on storage), and forgets a file's pages
 * when its last opener closes it, so that a reopen sees storage. Requests are handled one at a time, in
 * arrival order: a delegate is the single point of access to its pages.
 *
 * <p>A rank opens a file here with its first request to this delegate (the request "joins"), not at its open,
 * so a read-only open whose calls all bypass this delegate costs it nothing. SYNC and CLOSE are collective in
 * MPI-IO, over the ranks that opened the file together (the open's group). For a writable open every rank sends
 * them to every delegate, and the delegate holds each member's reply until the whole group has asked, then
 * flushes once and answers them all: flushing at every member's request would write each page back as many
 * times as ranks had written into it, partly filled each time (and a rank that has not yet written a page
 * cannot be told apart from one that never will, so the whole group must come). A read-only open has no writes
 * to wait for: only the ranks that joined send SYNC and CLOSE, and are answered at once; its pages stay until
 * all its ranks closed or another open of the file begins (see {@link #closeReadOnly}).
 */
public final class DelegateServer {
    /** Setting (environment/property) for a delegate's cache capacity, in bytes, until an open's hint says otherwise. */
    public static final String ENV_CACHE_BYTES = "PDLA_DELEGATE_CACHE_BYTES";
    public static final String HINT_CACHE_BYTES = "pdla_delegate_cache_bytes";
    public static final long DEFAULT_CACHE_BYTES = 64L << 20;
    /**
     * Hint: how many bytes of one server's pages a missed page brings with it (its aligned read-ahead block in
     * this delegate's domain, {@link io.pdla.delegate.cache.ReadAhead}); 0 turns read-ahead off. Default:
     * {@link io.pdla.delegate.cache.ReadAhead#DEFAULT_WINDOW}, at most a quarter of the cache.
     */
    public static final String HINT_READ_AHEAD = "pdla_delegate_read_ahead";

    private final PageCache cache;
    private final Map<String, OpenEntry> files = new HashMap<>();

    private final int rank;
    private final int delegates;
    /** The URIs in {@link #files}, readable by other threads without this delegate's lock ({@link #DelegateServer(long, int, int, Set)}). */
    private final Set<String> openHere;

    /**
     * {@code rank}: the delegate's rank in the job's world, what storage-side recorders know it by. The job's
     * delegate count is not known: read-ahead works on striped files only (see {@link DelegateDomains#ownedStride}).
     */
    public DelegateServer(long cacheBytes, int rank) {
        this(cacheBytes, rank, 0);
    }

    /** {@code delegates}: how many delegates the job has, which tells this one its pages of an unstriped file (0: not known). */
    public DelegateServer(long cacheBytes, int rank, int delegates) {
        this(cacheBytes, rank, delegates, ConcurrentHashMap.newKeySet());
    }

    /**
     * {@code openHere}: a thread-safe set this delegate keeps equal to the files it has open, a file added before it
     * loads any page and removed after its pages are gone, so an application rank of the same JVM can tell that no
     * page of a file is cached here without asking ({@link DelegateTransport#mayCache}).
     */
    public DelegateServer(long cacheBytes, int rank, int delegates, Set<String> openHere) {
        if (delegates < 0) throw new IllegalArgumentException("delegates must be >= 0 (0: not known), was " + delegates);
        this.cache = new PageCache(cacheBytes);
        this.rank = rank;
        this.delegates = delegates;
        this.openHere = openHere;
    }

    public PageCache cache() {
        return cache;
    }

    /** Where a delegate's replies go: to the application rank {@code destination}. */
    @FunctionalInterface
    public interface Replies {
        void send(int destination, byte[] reply);
    }

    /**
     * Handles one request of application rank {@code source}; never throws: failures become error replies
     * naming the file and the cause. Most requests are answered at once; a collective SYNC or CLOSE is
     * answered, together with its group's other members, when the last member's request arrives.
     */
    public void handle(int source, byte[] message, Replies replies) {
        Request r;
        try {
            r = DelegateProtocol.decode(message);
        } catch (IOException e) {
            replies.send(source, DelegateProtocol.failed("malformed request: " + e.getMessage()));
            return;
        }
        handle(source, r, replies);
    }

    /** {@link #handle(int, byte[], Replies)} of a request already decoded (decoding needs none of this delegate's state). */
    public void handle(int source, Request r, Replies replies) {
        if (!r.invalidate().isEmpty() && files.containsKey(r.uri())) {
            try {
                cache.release(files.get(r.uri()).file, r.invalidate(), true);
            } catch (IOException | RuntimeException e) {
                replies.send(source, DelegateProtocol.failed(r.op() + " of " + r.uri() + ": writing back before "
                        + "forgetting pages the rank wrote on storage: " + e));
                return;
            }
        }
        if (r.joins() || r.op() == DelegateProtocol.Op.OPEN) {
            try {
                join(source, r);
            } catch (IOException | RuntimeException e) {
                replies.send(source, DelegateProtocol.failed(r.op() + " of " + r.uri() + ": opening the file at the delegate: " + e));
                return;
            }
        }
        if ((r.op() == DelegateProtocol.Op.SYNC || r.op() == DelegateProtocol.Op.CLOSE) && files.containsKey(r.uri())) {
            collective(source, r, replies);
            return;
        }
        replies.send(source, serveOrFail(r));
    }

    /** One request of a rank that is alone in its open group (tests, tools): its one reply. */
    public byte[] handle(byte[] message) {
        byte[][] reply = new byte[1][];
        handle(0, message, (destination, bytes) -> reply[0] = bytes);
        if (reply[0] == null) throw new IllegalStateException("the request waits for the rest of its open group");
        return reply[0];
    }

    private byte[] serveOrFail(Request r) {
        try {
            return serve(r);
        } catch (IOException | RuntimeException e) {
            return DelegateProtocol.failed(r.op() + " of " + r.uri() + ": " + e);
        }
    }

    /**
     * A writable open's SYNC or CLOSE: every rank of the open sends it to every delegate (joining with it if it
     * had sent nothing before), and the delegate holds each member's reply until the whole group asked, then
     * serves it once for all. A SYNC that finds nothing of the file dirty here, and nothing written back since
     * the last sync, is answered at once: MPI's sync makes the caller's own writes durable, and this delegate holds
     * none, so waiting for the rest of the group would only add a barrier. It still counts towards the group. A
     * CLOSE is always held until the whole group came, then the group's last member closes the file here: the
     * ranks send it after the shim's close meeting (only if any rank of the open needs it), so holding it is what
     * keeps a rank from leaving close, and reopening, before another rank's CLOSE had this delegate forget the
     * pages that rank wrote directly. A read-only open's members are only the ranks that sent
     * this delegate a request; they have nothing to make durable, so each is answered at once (for its close,
     * see {@link #closeReadOnly}).
     */
    private void collective(int source, Request r, Replies replies) {
        OpenEntry entry = files.get(r.uri());
        OpenGroup g = entry.groups.get(r.group());
        if (g == null || !g.members.contains(source)) {
            replies.send(source, DelegateProtocol.failed(r.op() + " of " + r.uri() + ": rank " + source + " has no open of the file by group "
                    + r.group() + " at this delegate"));
            return;
        }
        boolean sync = r.op() == DelegateProtocol.Op.SYNC;
        if (!g.writable) {
            replies.send(source, sync ? DelegateProtocol.OK_EMPTY.clone() : closeReadOnly(source, r, entry, g));
            return;
        }
        long number = r.epoch() + 1;
        OpenGroup.Round round = sync ? g.syncs.computeIfAbsent(number, k -> new OpenGroup.Round()) : g.closing;
        if (sync && idle(entry)) replies.send(source, DelegateProtocol.OK_EMPTY.clone());
        else round.held.add(source);
        round.arrived.add(source);
        if (round.arrived.size() < g.size) return;
        byte[] reply = null;
        if (!sync) {
            entry.groups.remove(r.group());
            reply = closeGroup(r, entry);
        } else {
            g.syncs.remove(number);
            if (!round.held.isEmpty()) reply = serveOrFail(r);
        }
        for (int m : round.held) replies.send(m, reply);
    }

    /**
     * A read-only member's close. The group is over here when all its ranks closed; when only the members that came
     * so far did, the others may never come (their calls bypassed this delegate) or come late, so the storage
     * handle is released but the pages are kept for them; the next open of the file by another group ends the
     * group ({@link #join}), so that open reads storage.
     */
    private byte[] closeReadOnly(int source, Request r, OpenEntry entry, OpenGroup g) {
        g.closed.add(source);
        if (g.closed.size() >= g.size) {
            entry.groups.remove(r.group());
            return closeGroup(r, entry);
        }
        if (entry.groups.values().stream().allMatch(OpenGroup::closedHere)) {
            try {
                entry.file.storage().close();   // reopened by the next request that needs storage
            } catch (IOException | RuntimeException e) {
                return DelegateProtocol.failed(r.op() + " of " + r.uri() + ": " + e);
            }
        }
        return DelegateProtocol.OK_EMPTY.clone();
    }

    private static boolean idle(OpenEntry entry) {
        return entry.file.dirtyBytes() == 0 && !entry.file.writtenSinceSync();
    }

    private byte[] closeGroup(Request r, OpenEntry e) {
        try {
            cache.flush(e.file);
            if (!e.groups.isEmpty()) return DelegateProtocol.OK_EMPTY.clone();
            files.remove(r.uri());
            try {
                cache.drop(e.file);
            } finally {
                openHere.remove(r.uri());
                e.file.storage().close();
            }
            return DelegateProtocol.OK_EMPTY.clone();
        } catch (IOException | RuntimeException ex) {
            return DelegateProtocol.failed(r.op() + " of " + r.uri() + ": " + ex);
        }
    }

    private byte[] serve(Request r) throws IOException {
        OpenEntry open = files.get(r.uri());
        switch (r.op()) {
            case OPEN -> {
                return DelegateProtocol.OK_EMPTY.clone();   // joined before serving
            }
            case READ -> {
                CachedFile f = file(r);
                // the bytes go straight into the reply, after its header: no second copy
                byte[] reply = new byte[DelegateProtocol.DATA_OFFSET + Math.toIntExact(r.extents().totalBytes())];
                ByteBuffer dst = ByteBuffer.wrap(reply, DelegateProtocol.DATA_OFFSET, reply.length - DelegateProtocol.DATA_OFFSET).slice();
                cache.read(f, r.extents(), dst);
                return DelegateProtocol.okInPlace(f.knownEnd(), reply);
            }
            case WRITE -> {
                OpenEntry entry = entry(r);
                if (!entry.writable) throw new IOException("the file was opened read-only by every rank that opened it");
                ByteBuffer src = r.data().duplicate();
                ExtentList e = r.extents();
                for (int i = 0; i < e.size(); i++) cache.write(entry.file, e.offset(i), src, e.length(i));
                return DelegateProtocol.OK_EMPTY.clone();
            }
            case SYNC -> {
                CachedFile f = file(r);
                cache.flush(f);
                f.storage().sync();
                f.synced();
                return DelegateProtocol.OK_EMPTY.clone();
            }
            case RELEASE -> {
                cache.release(file(r), r.extents(), r.argument() == DelegateProtocol.RELEASE_DROP);
                return DelegateProtocol.OK_EMPTY.clone();
            }
            case SIZE -> {
                // asked of every delegate, also of those the asking rank never joined: no file here, no bytes beyond storage's end
                return DelegateProtocol.ok(open == null ? 0 : open.file.knownEnd(), new byte[0]);
            }
            case TRUNCATE -> {
                if (open == null) return DelegateProtocol.OK_EMPTY.clone();   // no pages of the file here
                CachedFile f = open.file;
                cache.drop(f);
                f.forgetWrittenEnd();
                return DelegateProtocol.OK_EMPTY.clone();
            }
            case CLOSE -> throw new IOException("the file is not open at this delegate");   // open files close as a group
            default -> throw new IOException("operation " + r.op() + " is not served by a delegate");
        }
    }

    /** Makes {@code source} a member of the request's open group here, opening the file (lazily) if it is not open. */
    private void join(int source, Request r) throws IOException {
        if (r.cacheBytes() > 0) cache.capacity(r.cacheBytes());
        OpenEntry e = files.get(r.uri());
        if (e != null && !e.groups.containsKey(r.group())) {
            // a new open: read-only groups whose members here all closed are over, and their pages go if no open remains
            e.groups.values().removeIf(OpenGroup::closedHere);
            if (e.groups.isEmpty()) {
                files.remove(r.uri());
                cache.drop(e.file);   // the file stays in openHere: this join opens it again
                e.file.storage().close();
                e = null;
            }
        }
        if (e == null || (!e.writable && r.writable())) {
            CachedFile file = cachedFile(r);   // a bad hint fails the join before anything is dropped
            if (e != null) {
                // a writer joins readers: reopen read-write (a read-only handle holds no dirty pages)
                cache.drop(e.file);
                e.file.storage().close();
            }
            openHere.add(r.uri());   // before any page of the file is loaded
            OpenEntry fresh = new OpenEntry(file, r.writable());
            if (e != null) fresh.groups.putAll(e.groups);
            files.put(r.uri(), fresh);
            e = fresh;
        }
        e.groups.computeIfAbsent(r.group(), k -> new OpenGroup(r.groupSize(), r.writable())).members.add(source);
    }

    /** The file as this delegate will cache it, reading ahead in its own pages as hint {@value #HINT_READ_AHEAD} says. */
    private CachedFile cachedFile(Request r) {
        long window = -1;
        String h = r.hints().get(HINT_READ_AHEAD);
        if (h != null) {
            window = io.pdla.size.ByteSize.parse(h, "hint " + HINT_READ_AHEAD);
            if (window < 0) throw new IllegalArgumentException("hint " + HINT_READ_AHEAD + "='" + h + "' must be >= 0 bytes (0: no read-ahead)");
        }
        LazyStore store = new LazyStore(r.uri(), r.writable(), r.hints(), rank);
        long pageSize = r.pageSize();
        return new CachedFile(store, pageSize, new ReadAhead(window, () -> DelegateDomains.ownedStride(store.layout(), pageSize, delegates)));
    }

    /** Closes every file still open (a job that ends without closing), writing back what is dirty. */
    public void shutdown() {
        for (OpenEntry e : files.values()) {
            try {
                cache.drop(e.file);
                e.file.storage().close();
            } catch (IOException ex) {
                System.err.println("pdla delegate: cannot write back " + e.file.storage().name() + " at shutdown: " + ex);
            }
        }
        files.clear();
        openHere.clear();
    }

    private OpenEntry entry(Request r) throws IOException {
        OpenEntry e = files.get(r.uri());
        if (e == null) throw new IOException("the file is not open at this delegate");
        return e;
    }

    private CachedFile file(Request r) throws IOException {
        return entry(r).file;
    }

    /** The cache's view of an open file, for tests; null when it is not open here. */
    CachedFile cached(String uri) {
        OpenEntry e = files.get(uri);
        return e == null ? null : e.file;
    }

    /** Files open at this delegate, for tests. */
    public int openFiles() {
        return files.size();
    }

    private static final class OpenEntry {
        final CachedFile file;
        final boolean writable;
        final Map<Long, OpenGroup> groups = new HashMap<>();

        OpenEntry(CachedFile file, boolean writable) {
            this.file = file;
            this.writable = writable;
        }
    }

    /**
     * One collective open at this delegate: its size and amode, the ranks that joined here, and how far each of
     * its collective SYNCs (numbered per member: the n-th sync of every member is one call) and its CLOSE have got.
     */
    private static final class OpenGroup {
        final int size;
        final boolean writable;
        final java.util.Set<Integer> members = new java.util.HashSet<>();
        /** Read-only groups: the members that closed (a read-only open's other ranks may never come). */
        final java.util.Set<Integer> closed = new java.util.HashSet<>();
        final Map<Long, Round> syncs = new HashMap<>();
        final Round closing = new Round();

        OpenGroup(int size, boolean writable) {
            this.size = size;
            this.writable = writable;
        }

        /** A read-only group whose members that came here all closed. */
        boolean closedHere() {
            return !writable && closed.containsAll(members);
        }

        /** One collective call: the members that asked, and those whose reply waits for the last. */
        static final class Round {
            final java.util.Set<Integer> arrived = new java.util.HashSet<>();
            final List<Integer> held = new ArrayList<>();
        }
    }
}
