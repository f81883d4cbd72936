package io.pdla.mpiio.launch;

import io.pdla.access.ExtentList;
import io.pdla.delegate.service.DelegateProtocol;
import io.pdla.delegate.service.DelegateProtocol.Op;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whoever waits on the one-JVM delegate path, a delegate for requests or an application rank for a reply a
 * collective SYNC holds back, blocks without using the CPU: on a 2-core machine with 4 application ranks and 2
 * delegates a spinning waiter would take the cores the ranks' own I/O needs. The bounds are generous (a blocked
 * thread uses about nothing; a spinning one, even on a machine loaded by other jobs, tens of percent of a core),
 * and a queued request still wakes its delegate at once.
 */
class DelegateWaitingTest {
    /** Longer than any wait a delegate has between requests in the benchmarks. */
    private static final long WAIT_MILLIS = 1500;
    /** CPU a waiter may use over {@link #WAIT_MILLIS}: 3 %, where a spinning waiter uses most of a core. */
    private static final long CPU_BOUND_NANOS = 50_000_000L;

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @TempDir
    Path dir;

    @Test
    void aDelegateWaitingForRequestsUsesNoCpuAndWakesAtOnce() throws Exception {
        SharedMailboxes boxes = SharedMailboxes.of("waiting-test " + System.nanoTime(), 1, 1);
        DelegateRank delegate = new DelegateRank(null, boxes, 1, 1, 1, 1 << 20, -1);
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread serving = new Thread(() -> {
            try {
                outcome.set(delegate.serve());
            } catch (Throwable e) {
                outcome.set(e);
            }
        }, "delegate under test");
        serving.start();

        // a queued request (the path the goodbyes take) wakes the delegate: 20 round trips, each well under a second
        long[] trips = new long[20];
        for (int i = 0; i < trips.length; i++) {
            long t0 = System.nanoTime();
            boxes.requests[0].add(new Object[]{0, DelegateProtocol.simple(Op.SIZE, "file:/not-open", 0)});
            Object[] reply = boxes.replies[0].poll(10, java.util.concurrent.TimeUnit.SECONDS);
            trips[i] = System.nanoTime() - t0;
            assertTrue(reply != null, "the delegate did not answer a queued request within 10 s");
            assertEquals(0, reply[0], "the reply names delegate 0");
        }
        Arrays.sort(trips);
        assertTrue(trips[trips.length / 2] < 100_000_000L, "median wake-up " + trips[trips.length / 2] / 1000 + " us: a waiting delegate must wake at once");

        long cpu = cpuWhileWaiting(serving);
        assertTrue(cpu < CPU_BOUND_NANOS, "an idle delegate used " + cpu / 1_000_000 + " ms of CPU in " + WAIT_MILLIS + " ms of waiting");

        boxes.requests[0].add(new Object[]{0, DelegateRank.BYE});
        serving.join(10_000);
        assertEquals(Boolean.TRUE, outcome.get(), "the delegate ends after the application rank's goodbye");
    }

    @Test
    void aRankWaitingForAHeldSyncReplyUsesNoCpu() throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[0]);
        String uri = file.toUri().toString();
        SharedMailboxes boxes = SharedMailboxes.of("held-sync-test " + System.nanoTime(), 2, 1);
        DelegateRank delegate = new DelegateRank(null, boxes, 2, 1, 2, 1 << 20, -1);
        delegate.registerHandler();   // the ranks run the delegate's requests on their own threads, as in a job
        SharedMemoryDelegateLink rank0 = new SharedMemoryDelegateLink(boxes, 0, 2, 1, 60_000);
        SharedMemoryDelegateLink rank1 = new SharedMemoryDelegateLink(boxes, 1, 2, 1, 60_000);
        long group = 42;
        for (SharedMemoryDelegateLink r : new SharedMemoryDelegateLink[]{rank0, rank1}) {
            check(r.exchange(new int[]{0}, new byte[][]{DelegateProtocol.open(uri, true, 4096, 1 << 20, Map.of(), group, 2)}));
        }
        byte[] data = new byte[4096];
        Arrays.fill(data, (byte) 7);
        check(rank0.exchange(new int[]{0}, new byte[][]{DelegateProtocol.write(uri, ExtentList.of(0, data.length), data)}));

        // rank 0's SYNC is held until rank 1 asks too (the file has dirty bytes)
        AtomicReference<Object> synced = new AtomicReference<>();
        Thread waiting = new Thread(() -> {
            try {
                check(rank0.exchange(new int[]{0}, new byte[][]{DelegateProtocol.collective(Op.SYNC, uri, group)}));
                synced.set(Boolean.TRUE);
            } catch (Throwable e) {
                synced.set(e);
            }
        }, "rank 0 in sync");
        waiting.start();
        Thread.sleep(200);
        assertEquals(null, synced.get(), "rank 0's SYNC must wait for rank 1's");
        long cpu = cpuWhileWaiting(waiting);
        assertTrue(cpu < CPU_BOUND_NANOS, "a rank waiting for its held SYNC reply used " + cpu / 1_000_000 + " ms of CPU in " + WAIT_MILLIS + " ms");

        check(rank1.exchange(new int[]{0}, new byte[][]{DelegateProtocol.collective(Op.SYNC, uri, group)}));
        waiting.join(10_000);
        assertEquals(Boolean.TRUE, synced.get(), "rank 0's SYNC returns once the group is complete");
        assertArrayEquals(data, Files.readAllBytes(file), "the group's SYNC wrote the dirty page back");
        // a CLOSE is held until the whole group came: the two ranks close together
        AtomicReference<Object> closed = new AtomicReference<>();
        Thread closing = new Thread(() -> {
            try {
                check(rank0.exchange(new int[]{0}, new byte[][]{DelegateProtocol.collective(Op.CLOSE, uri, group)}));
                closed.set(Boolean.TRUE);
            } catch (Throwable e) {
                closed.set(e);
            }
        }, "rank 0 in close");
        closing.start();
        check(rank1.exchange(new int[]{0}, new byte[][]{DelegateProtocol.collective(Op.CLOSE, uri, group)}));
        closing.join(10_000);
        assertEquals(Boolean.TRUE, closed.get(), "rank 0's CLOSE returns once the group is complete");
    }

    /** The CPU {@code t} uses over {@link #WAIT_MILLIS} of this thread's sleep, checked to be still alive at the end. */
    private static long cpuWhileWaiting(Thread t) throws InterruptedException {
        long before = THREADS.getThreadCpuTime(t.getId());
        Thread.sleep(WAIT_MILLIS);
        long after = THREADS.getThreadCpuTime(t.getId());
        assertTrue(t.isAlive() && before >= 0 && after >= 0, "the waiting thread must still be waiting (CPU time " + before + " -> " + after + ")");
        return after - before;
    }

    private static void check(byte[][] replies) throws Exception {
        for (int i = 0; i < replies.length; i++) DelegateProtocol.check(replies[i], i);
    }
}
