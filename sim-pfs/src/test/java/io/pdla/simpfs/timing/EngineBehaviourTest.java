package io.pdla.simpfs.timing;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.access.TraceRecord;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.ServerClass;
import io.pdla.simpfs.workload.TraceWorkload;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EngineBehaviourTest {
    private static final Layout ONE_DH = Layout.oneDH(ServerClass.HDD, 64 << 10);

    private static List<Object[]> steps(Object[]... steps) {
        return java.util.Arrays.asList(steps);
    }

    private static Workload scripted(List<List<Object[]>> perRank) {
        return new Workload() {
            public String description() {
                return "scripted";
            }

            public int ranks() {
                return perRank.size();
            }

            public List<Layout> files() {
                return List.of(ONE_DH);
            }

            public RequestStream stream(int rank) {
                var it = perRank.get(rank).iterator();
                return into -> {
                    if (!it.hasNext()) return false;
                    Object[] step = it.next();
                    if (step[0] == Request.Kind.BARRIER) into.barrier();
                    else into.set((Request.Kind) step[0], 0).add((Long) step[1], (Long) step[2]);
                    return true;
                };
            }
        };
    }

    @Test
    void aBarrierHoldsEveryRankUntilTheSlowestArrives() {
        Object[] big = {Request.Kind.READ, 0L, 64L << 20};
        Object[] small = {Request.Kind.READ, 1L << 30, 4096L};
        Object[] barrier = {Request.Kind.BARRIER};
        SimResult r = new TimingEngine(SimPfsConfig.DEFAULT).run(scripted(List.of(
                steps(big, barrier), steps(small, barrier, small))));
        double slow = r.rankCompletionSeconds().get(0);
        assertTrue(r.rankCompletionSeconds().get(1) > slow, "rank 1's request after the barrier ends after rank 0's big read: " + r.rankCompletionSeconds());
    }

    @Test
    void aRankThatNeverReachesTheBarrierIsReported() {
        Object[] small = {Request.Kind.READ, 0L, 4096L};
        Object[] barrier = {Request.Kind.BARRIER};
        // Rank 0 ends while rank 1 waits: the barrier releases because no unfinished rank is missing.
        SimResult r = new TimingEngine(SimPfsConfig.DEFAULT).run(scripted(List.of(steps(small), steps(barrier, small))));
        assertEquals(2, r.requests());
    }

    @Test
    void requestsAreSplitPerServerAndReadsFollowWritesOnTheSameEngine() {
        TimingEngine engine = new TimingEngine(SimPfsConfig.DEFAULT);
        // 1 MiB over 8 servers with 64 KiB stripes: 2 strips per server, contiguous on each server.
        SimResult w = engine.run(scripted(List.of(steps(new Object[]{Request.Kind.WRITE, 0L, 1L << 20}))));
        assertEquals(8, w.subRequests());
        assertTrue(w.servers().stream().filter(s -> s.subRequests() > 0).allMatch(s -> s.deviceOps() == 1 && s.bytesWritten() == 128 << 10));
        SimResult rd = engine.run(scripted(List.of(steps(new Object[]{Request.Kind.READ, 0L, 1L << 20}))));
        assertTrue(rd.startSeconds() >= w.startSeconds() + w.elapsedSeconds(), "the read phase starts after the write phase");
        assertEquals(1L << 20, rd.bytesRead());
    }

    @Test
    void traceRecordsOfOneCallBecomeOneRequestAndCollectivesSynchronise() {
        List<TraceRecord> rank0 = List.of(
                new TraceRecord(0, 5, IoOp.OPEN, Positioning.NONE, false, 0, 0, 0, 1),
                new TraceRecord(0, 5, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, true, 0, 100, 10, 20),
                new TraceRecord(0, 5, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, true, 1000, 100, 10, 20),
                new TraceRecord(0, 5, IoOp.READ, Positioning.EXPLICIT_OFFSET, false, 0, 100, 30, 40));
        List<TraceRecord> rank1 = List.of(
                new TraceRecord(1, 5, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, true, 100, 100, 12, 22));
        TraceWorkload w = new TraceWorkload("trace", 2, r -> (r == 0 ? rank0 : rank1).iterator(), Map.of(5, ONE_DH));
        Request req = new Request();
        RequestStream s0 = w.stream(0);
        assertTrue(s0.next(req));
        assertEquals(Request.Kind.BARRIER, req.kind());
        assertTrue(s0.next(req));
        assertEquals(Request.Kind.WRITE, req.kind());
        assertEquals(2, req.extents());
        assertTrue(s0.next(req));
        assertEquals(Request.Kind.READ, req.kind());
        assertTrue(!s0.next(req));
        SimResult r = new TimingEngine(SimPfsConfig.DEFAULT).run(w);
        assertEquals(3, r.requests());
        assertEquals(300, r.bytesWritten());
    }

    @Test
    void aRequestNamingAnUnknownFileIsAnErrorNamingTheRank() {
        Workload bad = new Workload() {
            public String description() {
                return "bad";
            }

            public int ranks() {
                return 1;
            }

            public List<Layout> files() {
                return List.of(ONE_DH);
            }

            public RequestStream stream(int rank) {
                return new RequestStream() {
                    boolean done;

                    public boolean next(Request into) {
                        if (done) return false;
                        done = true;
                        into.set(Request.Kind.READ, 3).add(0, 10);
                        return true;
                    }
                };
            }
        };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TimingEngine(SimPfsConfig.DEFAULT).run(bad));
        assertTrue(e.getMessage().contains("rank 0") && e.getMessage().contains("file 3"), e.getMessage());
    }
}
