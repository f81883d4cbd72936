package io.pdla.tracer.runtime;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.IoCall;
import io.pdla.tracer.counters.FileCounters;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ring hands its consumer every call's times less the rank's origin, for single calls and runs alike. */
class PendingCallsOriginTest {
    private static final TracedFile FILE = new TracedFile(null, 1, "/a", new FileCounters(0, 11, "/a", "/", "ext4", 4096));
    private static final long ORIGIN = 1_000_000_007L;

    @Test
    void timesReachTheConsumerSinceTheOrigin() {
        PendingCalls ring = new PendingCalls(16, ORIGIN);
        // a run of three 4 KiB reads, then a call of another length (not part of the run)
        for (int k = 0; k < 3; k++) offer(ring, k * 4096L, 4096, ORIGIN + 10 * k, ORIGIN + 10 * k + 4);
        offer(ring, 3 * 4096L, 100, ORIGIN + 50, ORIGIN + 57);
        List<String> seen = new ArrayList<>();
        ring.drain(new PendingCalls.Consumer() {
            @Override
            public void call(TracedFile file, IoOp op, Positioning positioning, boolean collective, ExtentList extents,
                             long offset, long length, long argument, long moved, long r1, long r2) {
                seen.add("call " + offset + " " + r1 + "-" + r2);
            }

            @Override
            public void run(TracedFile file, IoOp op, Positioning positioning, boolean collective, long first, long stride,
                            long length, int n, long[] starts, long[] ends, int from) {
                for (int k = 0; k < n; k++) seen.add("run " + (first + k * stride) + " " + starts[from + k] + "-" + ends[from + k]);
            }
        });
        assertEquals(List.of("run 0 0-4", "run 4096 10-14", "run 8192 20-24", "call 12288 50-57"), seen);
        assertTrue(ring.isEmpty());
    }

    private static void offer(PendingCalls ring, long offset, long length, long t1, long t2) {
        IoCall c = IoCall.data(null, IoOp.READ, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(offset, length), ByteBuffer.allocate((int) length));
        assertTrue(ring.offer(FILE, c, length, t1, t2));
    }
}
