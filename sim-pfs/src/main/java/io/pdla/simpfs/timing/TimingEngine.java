package io.pdla.simpfs.timing;

import io.pdla.simpfs.config.FlowParams;
import io.pdla.simpfs.config.HddParams;
import io.pdla.simpfs.config.NetworkParams;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.simpfs.config.SsdParams;
import io.pdla.storage.Layout;
import io.pdla.simpfs.layout.StripeMap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Discrete-event replay of request streams against the servers' device and network models, in virtual
 * seconds.
 *
 * <p>Events (a rank is ready to issue, a device finished a buffer, a network transfer ended, a device is free
 * again) are taken from a heap in (time, scheduling order), which makes every run deterministic. A request is
 * cut by its file's {@link StripeMap} into one sub-request per server (pieces that are contiguous on the server
 * are merged), and each sub-request is a {@link Flow}: its bytes move in buffers of {@code flow.bufferKB}, up
 * to {@code flow.buffersPerFlow} at once, so a large sub-request's disk and network transfers overlap (reads:
 * device, then the server's and the client node's links; writes: the links, then the device). Every resource
 * is booked when the buffer reaches it, in event-time order: links are FIFO in the order transfers become
 * ready, whatever the order the requests were issued in. Each server's device keeps a queue: an HDD takes the
 * commands in its NCQ window (cache hits first, then C-LOOK), an SSD serves up to {@code ssd.channels} at
 * once. The rank's request completes with its last buffer, and the rank then issues its next one: I/O calls
 * are blocking, as in IOR.
 *
 * <p>An engine keeps device state (head, cache, link bookings) between {@link #run} calls, so an IOR write
 * phase followed by a read phase sees the heads where the writes left them; each run starts when the previous
 * one ended.
 */
public final class TimingEngine {
    private final SimPfsConfig config;
    private final HddParams hdd;
    private final SsdParams ssd;
    private final double setup, netPerByte, halfRevolution, hddOverhead, hitPerByte, fileSpacing, capacity;
    private final long bufferBytes, segmentBytes;
    private final int buffersPerFlow, nServers, ranksPerNode, queueDepth, channels;
    private final boolean cacheOn;
    private final double revocationSeconds;

    // Per-server state.
    private final LinkCalendar[] serverLinks;
    private final double[] busy, deviceFreeAt, busyUntil, ssdPipeFree;
    private final long[] head, seeks, seekDistance, subRequests, deviceOps, bytesRead, bytesWritten, cacheHits;
    private final int[] maxQueue, inService;
    private final boolean[] freeEventPending;
    private final long[] queueSamples, queueSum;
    private final List<ArrayList<Chunk>> queues = new ArrayList<>();
    private final SegmentCache[] caches;
    private final Map<Long, ExtentLockTable> lockTables = new HashMap<>();
    private final CallCounters calls;

    private double now;

    // Per-run state.
    private LinkCalendar[] clientLinks;
    private int[] outstanding;
    private double[] requestEnd;
    private final EventQueue events = new EventQueue();

    // Scratch for splitting one request.
    private final int[] touched;
    private int touchedCount;
    private final int[] touchedIndex;
    private final long[][] pieceLocal, pieceLength;
    private final int[] pieceCount;
    private final long[] serverBytes;
    private final Splitter splitter = new Splitter();

    public TimingEngine(SimPfsConfig config) {
        this(config, 0);
    }

    /**
     * An engine where each extent-lock revocation costs {@code revocationSeconds} (the callback to the holder,
     * its flush and cancel, the grant). A request takes all its locks before any of its I/O starts, as a
     * multi-stripe request does under server-managed locking (seed 004), so it waits for the sum of its
     * revocations; with 0 (the default) conflicts are counted but cost nothing.
     */
    public TimingEngine(SimPfsConfig config, double revocationSeconds) {
        if (!(revocationSeconds >= 0)) throw new IllegalArgumentException("revocationSeconds must be >= 0, was " + revocationSeconds);
        this.revocationSeconds = revocationSeconds;
        this.config = config;
        this.hdd = config.hdd();
        this.ssd = config.ssd();
        NetworkParams net = config.network();
        FlowParams flow = config.flow();
        this.setup = net.setupSeconds();
        this.netPerByte = net.secondsPerByte();
        this.ranksPerNode = net.ranksPerClientNode();
        this.halfRevolution = hdd.revolutionSeconds() / 2;
        this.hddOverhead = hdd.commandOverheadMs() / 1000.0;
        this.hitPerByte = 1.0 / (hdd.interfaceMBps() * 1e6);
        this.capacity = hdd.capacityBytes();
        this.fileSpacing = config.fileSpacingGB() * 1e9;
        this.bufferBytes = flow.bufferBytes();
        this.buffersPerFlow = flow.buffersPerFlow();
        this.segmentBytes = hdd.segmentBytes();
        this.cacheOn = segmentBytes > 0;
        this.queueDepth = hdd.queueDepth();
        this.channels = ssd.channels();
        this.nServers = config.servers();
        serverLinks = new LinkCalendar[nServers];
        for (int s = 0; s < nServers; s++) serverLinks[s] = new LinkCalendar();
        busy = new double[nServers];
        deviceFreeAt = new double[nServers];
        busyUntil = new double[nServers];
        ssdPipeFree = new double[nServers];
        head = new long[nServers];
        seeks = new long[nServers];
        seekDistance = new long[nServers];
        subRequests = new long[nServers];
        deviceOps = new long[nServers];
        bytesRead = new long[nServers];
        bytesWritten = new long[nServers];
        cacheHits = new long[nServers];
        maxQueue = new int[nServers];
        inService = new int[nServers];
        freeEventPending = new boolean[nServers];
        queueSamples = new long[nServers];
        queueSum = new long[nServers];
        caches = new SegmentCache[nServers];
        for (int s = 0; s < nServers; s++) {
            queues.add(new ArrayList<>());
            if (cacheOn && !config.isSsd(s)) caches[s] = new SegmentCache(hdd.cacheSegments());
        }
        touched = new int[nServers];
        touchedIndex = new int[nServers];
        Arrays.fill(touchedIndex, -1);
        pieceLocal = new long[nServers][8];
        pieceLength = new long[nServers][8];
        pieceCount = new int[nServers];
        serverBytes = new long[nServers];
        calls = new CallCounters(nServers);
    }

    public SimPfsConfig config() {
        return config;
    }

    /**
     * Puts every HDD head at disk address {@code address} (at most the disk's last byte), as other work on the disks
     * would have left them. A new engine's heads rest on address 0, the first byte of a run's file 0: its first
     * request on each server then costs no positioning and, being sequential, starts the drive's read-ahead, which
     * no other file of the run gets. A comparison of runs over different files parks the heads first.
     */
    public void parkHeads(long address) {
        if (address < 0) throw new IllegalArgumentException("a head address must be >= 0, was " + address);
        long at = (long) Math.min((double) address, capacity - 1);
        for (int s = 0; s < nServers; s++) if (!config.isSsd(s)) head[s] = at;
    }

    /** Virtual time at which the last run ended. */
    public double now() {
        return now;
    }

    /** Replays {@code workload}, all ranks starting at {@link #now()}. */
    public SimResult run(Workload workload) {
        int ranks = workload.ranks();
        if (ranks < 1) throw new IllegalArgumentException("workload " + workload.description() + " has no ranks");
        List<Layout> layouts = workload.files();
        StripeMap[] maps = new StripeMap[layouts.size()];
        long[] fileBase = new long[layouts.size()];
        for (int f = 0; f < maps.length; f++) {
            maps[f] = StripeMap.of(layouts.get(f), config).rotated(workload.rotation(f));
            fileBase[f] = (long) ((f * fileSpacing) % capacity);
        }
        int clientNodes = (ranks + ranksPerNode - 1) / ranksPerNode;
        clientLinks = new LinkCalendar[clientNodes];
        for (int c = 0; c < clientNodes; c++) clientLinks[c] = new LinkCalendar();
        outstanding = new int[ranks];
        requestEnd = new double[ranks];
        long[] before = snapshotServers();
        double[] busyBefore = busy.clone();
        calls.startRun(clientNodes);
        long requests = 0, subs = 0, conflicts = 0, readBytes = 0, writeBytes = 0;

        RequestStream[] streams = new RequestStream[ranks];
        for (int r = 0; r < ranks; r++) streams[r] = workload.stream(r);
        double[] done = new double[ranks];
        for (int r = 0; r < ranks; r++) events.push(now, EventQueue.RANK_READY, r, null);
        int live = ranks, waiting = 0;
        double barrierTime = now;
        int[] waitingRanks = new int[ranks];
        Request req = new Request();
        double start = now, end = now;
        EventQueue ev = events;

        while (!ev.isEmpty()) {
            ev.pop();
            double t = ev.t;
            switch (ev.k) {
                case EventQueue.DEVICE_DONE -> deviceDone((Chunk) ev.p, t);
                case EventQueue.NET_DONE -> netDone((Chunk) ev.p, t);
                case EventQueue.DEVICE_FREE -> {
                    freeEventPending[ev.i] = false;
                    dispatch(ev.i, t);
                }
                case EventQueue.FLOW_START -> startFlow((Flow) ev.p, t);
                default -> {
                    int rank = ev.i;
                    if (!streams[rank].next(req)) {
                        done[rank] = t;
                        end = Math.max(end, t);
                        live--;
                        if (waiting > 0 && waiting == live) {
                            for (int i = 0; i < waiting; i++) ev.push(barrierTime, EventQueue.RANK_READY, waitingRanks[i], null);
                            waiting = 0;
                            calls.endCall();
                        }
                        continue;
                    }
                    if (req.kind() == Request.Kind.BARRIER) {
                        barrierTime = waiting == 0 ? t : Math.max(barrierTime, t);
                        waitingRanks[waiting++] = rank;
                        if (waiting == live) {
                            for (int i = 0; i < waiting; i++) ev.push(barrierTime, EventQueue.RANK_READY, waitingRanks[i], null);
                            waiting = 0;
                            calls.endCall();
                        }
                        continue;
                    }
                    if (req.file() < 0 || req.file() >= maps.length) {
                        throw new IllegalArgumentException("rank " + rank + " of " + workload.description() + " names file "
                                + req.file() + " but the workload has " + maps.length + " files");
                    }
                    boolean write = req.kind() == Request.Kind.WRITE;
                    requests++;
                    long bytes = req.totalBytes();
                    if (write) writeBytes += bytes;
                    else readBytes += bytes;
                    splitter.reset();
                    StripeMap map = maps[req.file()];
                    for (int i = 0; i < req.extents(); i++) map.map(req.offset(i), req.length(i), splitter);
                    subs += touchedCount;
                    int client = rank / ranksPerNode;
                    for (int i = 0; i < touchedCount; i++) calls.served(touched[i], client);
                    double issue = t;
                    if (config.extentLocks()) {
                        int revoked = takeLocks(req.file(), client, write);
                        conflicts += revoked;
                        issue += revoked * revocationSeconds;
                    }
                    outstanding[rank] = touchedCount;
                    requestEnd[rank] = issue;
                    long base = fileBase[req.file()];
                    for (int i = 0; i < touchedCount; i++) {
                        int s = touched[i];
                        int n = pieceCount[s];
                        Flow f = new Flow(rank, s, client, write, base, Arrays.copyOf(pieceLocal[s], n),
                                Arrays.copyOf(pieceLength[s], n), n, serverBytes[s]);
                        subRequests[s]++;
                        if (write) bytesWritten[s] += serverBytes[s];
                        else bytesRead[s] += serverBytes[s];
                        if (issue > t) ev.push(issue, EventQueue.FLOW_START, s, f);
                        else startFlow(f, t);
                    }
                    for (int i = 0; i < touchedCount; i++) touchedIndex[touched[i]] = -1;
                    if (touchedCount == 0) ev.push(issue, EventQueue.RANK_READY, rank, null);
                }
            }
        }
        if (live > 0 && waiting == 0) {
            throw new IllegalStateException(live + " ranks of " + workload.description() + " never completed a request (an engine fault)");
        }
        if (waiting > 0) {
            throw new IllegalStateException(waiting + " ranks of " + workload.description() + " wait at a barrier that the other ranks never reach");
        }
        calls.endCall();
        now = end;
        double elapsed = end - start;
        List<Double> completions = new ArrayList<>(ranks);
        for (double d : done) completions.add(d - start);
        return new SimResult(workload.description(), ranks, start, elapsed, readBytes, writeBytes,
                mibps(readBytes, elapsed), mibps(writeBytes, elapsed), requests, subs, conflicts, calls.calls(), completions,
                serverStats(before, busyBefore, elapsed));
    }

    private static double mibps(long bytes, double seconds) {
        return seconds > 0 ? bytes / (1024.0 * 1024.0) / seconds : 0;
    }

    private void startFlow(Flow f, double t) {
        while (f.inFlight < buffersPerFlow && f.moreToCut()) startChunk(f, t);
    }

    private void startChunk(Flow f, double t) {
        Chunk c = f.cut(bufferBytes);
        f.inFlight++;
        if (f.write) send(c, t);
        else enqueue(c, t);
    }

    /** A buffer crosses the server's link and the client node's link at once, in the first time free on both. */
    private void send(Chunk c, double t) {
        Flow f = c.flow;
        LinkCalendar server = serverLinks[f.server], client = clientLinks[f.client];
        server.prune(t);
        client.prune(t);
        double duration = c.bytes * netPerByte;
        if (!f.setupPaid) {
            duration += setup;
            f.setupPaid = true;
        }
        double begin = LinkCalendar.common(server, client, t, duration);
        double arrived = begin + duration;
        server.book(begin, arrived);
        client.book(begin, arrived);
        events.push(arrived, EventQueue.NET_DONE, f.server, c);
    }

    private void netDone(Chunk c, double t) {
        if (c.flow.write) enqueue(c, t);
        else finished(c, t);
    }

    private void deviceDone(Chunk c, double t) {
        int s = c.flow.server;
        if (!c.hit) {
            inService[s]--;
            dispatch(s, t);
        }
        if (c.flow.write) finished(c, t);
        else send(c, t);
    }

    /** A buffer is through: its flow may cut the next one; the flow's last buffer completes the sub-request. */
    private void finished(Chunk c, double t) {
        Flow f = c.flow;
        f.inFlight--;
        f.bytesDone += c.bytes;
        if (f.moreToCut()) startChunk(f, t);
        if (f.bytesDone == f.bytes) {
            int rank = f.rank;
            requestEnd[rank] = Math.max(requestEnd[rank], t);
            if (--outstanding[rank] == 0) events.push(requestEnd[rank], EventQueue.RANK_READY, rank, null);
        }
    }

    private void enqueue(Chunk c, double t) {
        int s = c.flow.server;
        ArrayList<Chunk> q = queues.get(s);
        int size = q.size() + inService[s];
        if (size > maxQueue[s]) maxQueue[s] = size;
        queueSamples[s]++;
        queueSum[s] += size;
        SegmentCache cache = caches[s];
        if (cache != null && q.size() < queueDepth && hitCandidate(c) && cache.holds(c.address, c.bytes, t)) {
            serveHit(s, c, t);
            return;
        }
        q.add(c);
        dispatch(s, t);
    }

    private void dispatch(int s, double t) {
        ArrayList<Chunk> q = queues.get(s);
        if (config.isSsd(s)) {
            while (inService[s] < channels && !q.isEmpty()) serveSsd(s, q.remove(0), t);
            return;
        }
        // Cache hits leave at the interface rate while the media may be busy (reading ahead or serving a miss).
        // New chunks are checked as they arrive; the whole window only when a stored segment has become ready.
        SegmentCache cache = caches[s];
        if (cache != null && cache.worthScanning(t)) {
            int window = Math.min(queueDepth, q.size());
            for (int i = 0; i < window; i++) {
                Chunk c = q.get(i);
                if (hitCandidate(c) && cache.holdsFresh(c.address, c.bytes, t)) {
                    q.remove(i);
                    serveHit(s, c, t);
                    i--;
                    window = Math.min(queueDepth, q.size());
                }
            }
            cache.scanned(t);
        }
        if (inService[s] > 0 || q.isEmpty()) return;
        if (deviceFreeAt[s] > t) {
            // Reading ahead (perhaps since the previous run): come back when the media is free.
            if (!freeEventPending[s]) {
                freeEventPending[s] = true;
                events.push(deviceFreeAt[s], EventQueue.DEVICE_FREE, s, null);
            }
            return;
        }
        serveHdd(s, q.remove(pick(s, q)), t);
    }

    /** A read of one piece: the cache serves whole pieces only. */
    private static boolean hitCandidate(Chunk c) {
        return !c.flow.write && c.offset + c.bytes <= c.flow.lengths[c.piece];
    }

    private void serveHit(int s, Chunk c, double t) {
        caches[s].hit(c.address, c.bytes);
        cacheHits[s]++;
        deviceOps[s]++;
        double service = hddOverhead + c.bytes * hitPerByte;
        busy[s] += service;
        c.hit = true;
        events.push(t + service, EventQueue.DEVICE_DONE, s, c);
    }

    /** C-LOOK over the NCQ window: the nearest command at or after the head, else the lowest address. */
    private int pick(int s, ArrayList<Chunk> q) {
        int window = Math.min(queueDepth, q.size());
        if (window == 1) return 0;
        long h = head[s];
        int ahead = -1, lowest = 0;
        for (int i = 0; i < window; i++) {
            long a = q.get(i).address;
            if (a >= h && (ahead < 0 || a < q.get(ahead).address)) ahead = i;
            if (a < q.get(lowest).address) lowest = i;
        }
        return ahead >= 0 ? ahead : lowest;
    }

    private void serveSsd(int s, Chunk c, double t) {
        Flow f = c.flow;
        double startup = ssd.startupSeconds(f.write), perByte = ssd.secondsPerByte(f.write);
        int pieces = piecesOf(c);
        double begin = Math.max(t + pieces * startup, ssdPipeFree[s]);
        double end = begin + c.bytes * perByte;
        ssdPipeFree[s] = end;
        busy[s] += end - Math.max(t, busyUntil[s]);
        busyUntil[s] = end;
        deviceOps[s] += pieces;
        inService[s]++;
        events.push(end, EventQueue.DEVICE_DONE, s, c);
    }

    private int piecesOf(Chunk c) {
        Flow f = c.flow;
        int n = 0;
        long left = c.bytes, off = c.offset;
        for (int k = c.piece; k < f.pieces && left > 0; k++) {
            left -= Math.min(left, f.lengths[k] - off);
            off = 0;
            n++;
        }
        return n;
    }

    /**
     * Serves one buffer on an HDD: per piece, a cache hit at the interface rate, or positioning (seek + half a
     * turn) where the head is elsewhere and the bytes at the zone's rate. A read that continues a cached stream
     * then reads ahead to fill its segment: the buffer is done when its own bytes are, the drive stays busy
     * until the read-ahead ends.
     */
    private void serveHdd(int s, Chunk c, double t) {
        Flow f = c.flow;
        SegmentCache cache = caches[s];
        double service = hddOverhead;
        long h = head[s];
        long left = c.bytes, off = c.offset;
        int ops = 0, lastSegment = -1;
        long lastStart = -1, lastEnd = -1;
        boolean lastMissSequential = false;
        for (int k = c.piece; k < f.pieces && left > 0; k++) {
            long len = Math.min(left, f.lengths[k] - off);
            long address = f.base + f.locals[k] + off;
            left -= len;
            off = 0;
            ops++;
            if (!f.write && cache != null && cache.hit(address, len)) {
                service += len * hitPerByte;
                cacheHits[s]++;
                lastStart = -1;
                continue;
            }
            boolean sequential = address == h;
            int continued = cache != null && !f.write ? cache.continuing(address) : -1;
            if (!sequential) {
                long distance = Math.abs(address - h);
                service += hdd.seekSeconds(distance) + halfRevolution;
                seeks[s]++;
                seekDistance[s] += distance;
            }
            service += len * hdd.secondsPerByteAt(address);
            h = address + len;
            if (cache != null) {
                if (f.write) cache.invalidate(address, h);
                else {
                    lastSegment = continued;
                    lastStart = address;
                    lastEnd = h;
                    lastMissSequential = sequential || continued >= 0;
                }
            }
        }
        double readAhead = 0;
        if (lastStart >= 0) {
            long ahead = lastMissSequential ? Math.max(0, segmentBytes - (lastEnd - lastStart)) : 0;
            readAhead = ahead * hdd.secondsPerByteAt(lastEnd);
            cache.store(lastSegment, lastStart, lastEnd + ahead, t + service + readAhead);
            h = lastEnd + ahead;
        }
        head[s] = h;
        deviceOps[s] += ops;
        busy[s] += service + readAhead;
        double done = t + service;
        deviceFreeAt[s] = done + readAhead;
        inService[s]++;
        events.push(done, EventQueue.DEVICE_DONE, s, c);
    }

    private int takeLocks(int file, int client, boolean write) {
        int conflicts = 0;
        for (int i = 0; i < touchedCount; i++) {
            int s = touched[i];
            ExtentLockTable table = lockTables.computeIfAbsent(((long) file << 20) | s, k -> new ExtentLockTable());
            long[] locals = pieceLocal[s], lengths = pieceLength[s];
            for (int k = 0; k < pieceCount[s]; k++) {
                int c = table.acquire(client, write, locals[k], locals[k] + lengths[k]);
                calls.conflicts(s, c);
                conflicts += c;
            }
        }
        return conflicts;
    }

    private long[] snapshotServers() {
        long[] snap = new long[nServers * 7];
        for (int s = 0; s < nServers; s++) {
            snap[s * 7] = subRequests[s];
            snap[s * 7 + 1] = deviceOps[s];
            snap[s * 7 + 2] = bytesRead[s];
            snap[s * 7 + 3] = bytesWritten[s];
            snap[s * 7 + 4] = seeks[s];
            snap[s * 7 + 5] = seekDistance[s];
            snap[s * 7 + 6] = cacheHits[s];
            maxQueue[s] = 0;
            queueSamples[s] = 0;
            queueSum[s] = 0;
        }
        return snap;
    }

    private List<ServerStats> serverStats(long[] before, double[] busyBefore, double elapsed) {
        List<ServerStats> out = new ArrayList<>(nServers);
        for (int s = 0; s < nServers; s++) {
            double b = busy[s] - busyBefore[s];
            out.add(new ServerStats(s, config.isSsd(s) ? "ssd" : "hdd",
                    subRequests[s] - before[s * 7], deviceOps[s] - before[s * 7 + 1],
                    bytesRead[s] - before[s * 7 + 2], bytesWritten[s] - before[s * 7 + 3],
                    b, elapsed > 0 ? b / elapsed : 0, maxQueue[s],
                    queueSamples[s] > 0 ? (double) queueSum[s] / queueSamples[s] : 0,
                    seeks[s] - before[s * 7 + 4], seekDistance[s] - before[s * 7 + 5],
                    calls.conflicts(s), calls.maxConflictsPerCall(s), calls.maxClientsPerCall(s), calls.meanClientsPerCall(s),
                    cacheHits[s] - before[s * 7 + 6]));
        }
        return out;
    }

    /** Collects the pieces of one request per server, merging pieces contiguous on the server. */
    private final class Splitter implements StripeMap.PieceSink {
        void reset() {
            touchedCount = 0;
        }

        @Override
        public void piece(int server, long localOffset, long length, long fileOffset) {
            int idx = touchedIndex[server];
            if (idx < 0) {
                touchedIndex[server] = touchedCount;
                touched[touchedCount++] = server;
                pieceCount[server] = 0;
                serverBytes[server] = 0;
            }
            serverBytes[server] += length;
            int n = pieceCount[server];
            long[] locals = pieceLocal[server], lengths = pieceLength[server];
            if (n > 0 && locals[n - 1] + lengths[n - 1] == localOffset) {
                lengths[n - 1] += length;
                return;
            }
            if (n == locals.length) {
                pieceLocal[server] = locals = Arrays.copyOf(locals, n * 2);
                pieceLength[server] = lengths = Arrays.copyOf(lengths, n * 2);
            }
            locals[n] = localOffset;
            lengths[n] = length;
            pieceCount[server] = n + 1;
        }
    }
}
