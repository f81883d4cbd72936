package io.pdla.simpfs.timing;

import io.pdla.simpfs.config.HddParams;
import io.pdla.simpfs.config.NetworkParams;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.simpfs.config.SsdParams;
import io.pdla.simpfs.layout.Layout;
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
 * <p>Events are "rank r is ready to issue its next request at time t", taken from a heap in (time, rank)
 * order, which makes every run deterministic. A request is cut by its file's {@link StripeMap} into one
 * sub-request per server (pieces that are contiguous on the server are merged). Each server is a FIFO queue
 * in front of its device, and each client node and server has one network link; a sub-request books these
 * resources when it is issued (reads: device, then the links; writes: the links, then the device), so
 * resources serve in issue order. The rank's request completes with its last sub-request, and the rank then
 * issues its next one: I/O calls are blocking, as in IOR.
 *
 * <p>An engine keeps device and link state between {@link #run} calls, so an IOR write phase followed by a
 * read phase sees the heads where the writes left them; each run starts when the previous one ended.
 */
public final class TimingEngine {
    private final SimPfsConfig config;
    private final HddParams hdd;
    private final SsdParams ssd;
    private final double setup, netPerByte, halfRevolution, hddPerByte, hddOverhead, fileSpacing, capacity;
    private final int nServers, ranksPerNode;
    private final double revocationSeconds;

    // Per-server state.
    private final double[] deviceFree, serverLinkFree, busy;
    private final long[] head, seeks, seekDistance, subRequests, deviceOps, bytesRead, bytesWritten;
    private final int[] maxQueue;
    private final long[] queueSamples, queueSum;
    private final double[][] pending;   // ring of booked device completion times, per server
    private final int[] pendingHead, pendingSize;
    private final Map<Long, ExtentLockTable> lockTables = new HashMap<>();
    private final CallCounters calls;

    private double now;

    // Scratch for splitting one request.
    private final int[] touched;
    private int touchedCount;
    private final int[] touchedIndex;
    private final long[][] pieceLocal, pieceLength;
    private final int[] pieceCount;
    private final long[] serverBytes;
    private final double[] completion;
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
        this.setup = net.setupSeconds();
        this.netPerByte = net.secondsPerByte();
        this.ranksPerNode = net.ranksPerClientNode();
        this.halfRevolution = hdd.revolutionSeconds() / 2;
        this.hddPerByte = hdd.secondsPerByte();
        this.hddOverhead = hdd.commandOverheadMs() / 1000.0;
        this.capacity = hdd.capacityBytes();
        this.fileSpacing = config.fileSpacingGB() * 1e9;
        this.nServers = config.servers();
        deviceFree = new double[nServers];
        serverLinkFree = new double[nServers];
        busy = new double[nServers];
        head = new long[nServers];
        seeks = new long[nServers];
        seekDistance = new long[nServers];
        subRequests = new long[nServers];
        deviceOps = new long[nServers];
        bytesRead = new long[nServers];
        bytesWritten = new long[nServers];
        maxQueue = new int[nServers];
        queueSamples = new long[nServers];
        queueSum = new long[nServers];
        pending = new double[nServers][16];
        pendingHead = new int[nServers];
        pendingSize = new int[nServers];
        touched = new int[nServers];
        touchedIndex = new int[nServers];
        Arrays.fill(touchedIndex, -1);
        pieceLocal = new long[nServers][8];
        pieceLength = new long[nServers][8];
        pieceCount = new int[nServers];
        serverBytes = new long[nServers];
        completion = new double[nServers];
        calls = new CallCounters(nServers);
    }

    public SimPfsConfig config() {
        return config;
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
        double[] clientLinkFree = new double[clientNodes];
        Arrays.fill(clientLinkFree, now);
        long[] before = snapshotServers();
        double[] busyBefore = busy.clone();
        calls.startRun(clientNodes);
        long requests = 0, subs = 0, conflicts = 0, readBytes = 0, writeBytes = 0;

        RequestStream[] streams = new RequestStream[ranks];
        for (int r = 0; r < ranks; r++) streams[r] = workload.stream(r);
        double[] done = new double[ranks];
        RankHeap heap = new RankHeap(ranks);
        for (int r = 0; r < ranks; r++) heap.push(now, r);
        int live = ranks, waiting = 0;
        double barrierTime = now;
        int[] waitingRanks = new int[ranks];
        Request req = new Request();
        double start = now, end = now;

        while (!heap.isEmpty()) {
            double t = heap.peekTime();
            int rank = heap.pop();
            if (!streams[rank].next(req)) {
                done[rank] = t;
                end = Math.max(end, t);
                live--;
                if (waiting > 0 && waiting == live) {
                    for (int i = 0; i < waiting; i++) heap.push(barrierTime, waitingRanks[i]);
                    waiting = 0;
                    calls.endCall();
                }
                continue;
            }
            if (req.kind() == Request.Kind.BARRIER) {
                barrierTime = waiting == 0 ? t : Math.max(barrierTime, t);
                waitingRanks[waiting++] = rank;
                if (waiting == live) {
                    for (int i = 0; i < waiting; i++) heap.push(barrierTime, waitingRanks[i]);
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
            double finish = write ? writeSubRequests(issue, client, clientLinkFree, fileBase[req.file()])
                    : readSubRequests(issue, client, clientLinkFree, fileBase[req.file()]);
            for (int i = 0; i < touchedCount; i++) touchedIndex[touched[i]] = -1;
            heap.push(finish, rank);
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

    private double writeSubRequests(double t, int client, double[] clientLinkFree, long base) {
        double finish = t;
        for (int i = 0; i < touchedCount; i++) {
            int s = touched[i];
            double netStart = Math.max(t, Math.max(clientLinkFree[client], serverLinkFree[s]));
            double arrival = netStart + setup + serverBytes[s] * netPerByte;
            clientLinkFree[client] = arrival;
            serverLinkFree[s] = arrival;
            double devEnd = serveOnDevice(s, arrival, true, base);
            bytesWritten[s] += serverBytes[s];
            finish = Math.max(finish, devEnd);
        }
        return finish;
    }

    private double readSubRequests(double t, int client, double[] clientLinkFree, long base) {
        for (int i = 0; i < touchedCount; i++) {
            int s = touched[i];
            completion[i] = serveOnDevice(s, t, false, base);
            bytesRead[s] += serverBytes[s];
        }
        // The replies leave in the order the devices finish them; sort the few touched servers by that.
        for (int i = 1; i < touchedCount; i++) {
            double c = completion[i];
            int s = touched[i];
            int j = i - 1;
            while (j >= 0 && completion[j] > c) {
                completion[j + 1] = completion[j];
                touched[j + 1] = touched[j];
                j--;
            }
            completion[j + 1] = c;
            touched[j + 1] = s;
        }
        double finish = t;
        for (int i = 0; i < touchedCount; i++) {
            int s = touched[i];
            double netStart = Math.max(completion[i], Math.max(clientLinkFree[client], serverLinkFree[s]));
            double arrived = netStart + setup + serverBytes[s] * netPerByte;
            clientLinkFree[client] = arrived;
            serverLinkFree[s] = arrived;
            finish = Math.max(finish, arrived);
        }
        return finish;
    }

    /** Queues one sub-request at server {@code s}, arriving at {@code arrival}; returns its device completion. */
    private double serveOnDevice(int s, double arrival, boolean write, long base) {
        sampleQueue(s, arrival);
        double begin = Math.max(arrival, deviceFree[s]);
        double service = 0;
        int n = pieceCount[s];
        long[] locals = pieceLocal[s], lengths = pieceLength[s];
        if (config.isSsd(s)) {
            for (int k = 0; k < n; k++) service += ssd.seconds(write, lengths[k]);
        } else {
            service = hddOverhead;
            long h = head[s];
            for (int k = 0; k < n; k++) {
                long address = base + locals[k];
                if (address != h) {
                    long distance = Math.abs(address - h);
                    service += hdd.seekSeconds(distance) + halfRevolution;
                    seeks[s]++;
                    seekDistance[s] += distance;
                }
                service += lengths[k] * hddPerByte;
                h = address + lengths[k];
            }
            head[s] = h;
        }
        subRequests[s]++;
        deviceOps[s] += n;
        busy[s] += service;
        double end = begin + service;
        deviceFree[s] = end;
        pushPending(s, end);
        return end;
    }

    private void sampleQueue(int s, double arrival) {
        double[] ring = pending[s];
        int h = pendingHead[s], size = pendingSize[s];
        while (size > 0 && ring[h] <= arrival) {
            h = (h + 1) & (ring.length - 1);
            size--;
        }
        pendingHead[s] = h;
        pendingSize[s] = size;
        if (size > maxQueue[s]) maxQueue[s] = size;
        queueSamples[s]++;
        queueSum[s] += size;
    }

    private void pushPending(int s, double end) {
        double[] ring = pending[s];
        int size = pendingSize[s];
        if (size == ring.length) {
            double[] bigger = new double[ring.length * 2];
            for (int i = 0; i < size; i++) bigger[i] = ring[(pendingHead[s] + i) & (ring.length - 1)];
            pending[s] = ring = bigger;
            pendingHead[s] = 0;
        }
        ring[(pendingHead[s] + size) & (ring.length - 1)] = end;
        pendingSize[s] = size + 1;
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
        long[] snap = new long[nServers * 6];
        for (int s = 0; s < nServers; s++) {
            snap[s * 6] = subRequests[s];
            snap[s * 6 + 1] = deviceOps[s];
            snap[s * 6 + 2] = bytesRead[s];
            snap[s * 6 + 3] = bytesWritten[s];
            snap[s * 6 + 4] = seeks[s];
            snap[s * 6 + 5] = seekDistance[s];
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
                    subRequests[s] - before[s * 6], deviceOps[s] - before[s * 6 + 1],
                    bytesRead[s] - before[s * 6 + 2], bytesWritten[s] - before[s * 6 + 3],
                    b, elapsed > 0 ? b / elapsed : 0, maxQueue[s],
                    queueSamples[s] > 0 ? (double) queueSum[s] / queueSamples[s] : 0,
                    seeks[s] - before[s * 6 + 4], seekDistance[s] - before[s * 6 + 5],
                    calls.conflicts(s), calls.maxConflictsPerCall(s), calls.maxClientsPerCall(s), calls.meanClientsPerCall(s)));
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
