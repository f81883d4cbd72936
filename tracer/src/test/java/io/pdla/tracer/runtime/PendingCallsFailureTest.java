package io.pdla.tracer.runtime;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.IoCall;
import io.pdla.tracer.counters.FileCounters;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An Error inside the counting of a batch drops what it was counting, and never makes a later drain count a call twice. */
class PendingCallsFailureTest {
    private static final TracedFile FILE = new TracedFile(null, 1, "/a", new FileCounters(0, 11, "/a", "/", "ext4", 4096));

    /** Counts every call it is given (a run as its n calls, by offset); throws once on the call at {@code failAt}. */
    private static final class Counting implements PendingCalls.Consumer {
        final List<Long> offsets = new ArrayList<>();
        long failAt;

        Counting(long failAt) {
            this.failAt = failAt;
        }

        @Override
        public void call(TracedFile file, IoOp op, Positioning positioning, boolean collective, ExtentList extents,
                         long offset, long length, long argument, long moved, long t1, long t2) {
            if (offset == failAt) {
                failAt = -1;
                throw new OutOfMemoryError("while counting the call at " + offset);
            }
            offsets.add(offset);
        }

        @Override
        public void run(TracedFile file, IoOp op, Positioning positioning, boolean collective, long first, long stride,
                        long length, int n, long[] starts, long[] ends, int from) {
            for (int k = 0; k < n; k++) {
                if (first + k * stride == failAt) {
                    failAt = -1;
                    throw new OutOfMemoryError("while counting a run");
                }
            }
            for (int k = 0; k < n; k++) offsets.add(first + k * stride);
        }
    }

    private static void offer(PendingCalls ring, long offset, long length) {
        IoCall c = IoCall.data(null, IoOp.READ, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(offset, length), java.nio.ByteBuffer.allocate((int) length));
        assertTrue(ring.offer(FILE, c, length, 1, 2));
    }

    @Test
    void aFailedCallIsDroppedAndTheOthersAreCountedOnce() {
        PendingCalls ring = new PendingCalls(64);
        // single calls of different lengths (no run forms), then a run of 4 KiB pieces
        offer(ring, 0, 10);
        offer(ring, 100, 20);
        offer(ring, 200, 30);
        for (int k = 0; k < 8; k++) offer(ring, 10_000 + k * 4096L, 4096);
        offer(ring, 300, 40);
        Counting c = new Counting(100);
        assertThrows(OutOfMemoryError.class, () -> ring.drain(c));
        ring.drain(c);
        List<Long> expected = new ArrayList<>(List.of(0L, 200L));
        for (int k = 0; k < 8; k++) expected.add(10_000 + k * 4096L);
        expected.add(300L);
        assertEquals(expected, c.offsets, "each call once, the failed one dropped");
        assertTrue(ring.isEmpty());
    }

    @Test
    void aFailedRunIsDroppedWhole() {
        PendingCalls ring = new PendingCalls(64);
        offer(ring, 0, 10);
        for (int k = 0; k < 8; k++) offer(ring, 10_000 + k * 4096L, 4096);
        offer(ring, 300, 40);
        Counting c = new Counting(10_000 + 3 * 4096L);
        assertThrows(OutOfMemoryError.class, () -> ring.drain(c));
        ring.drain(c);
        assertEquals(List.of(0L, 300L), c.offsets, "the run's calls neither counted twice nor half");
    }
}
