package io.pdla.collective;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shared-memory collectives with many more rank threads than cores (as a 64-rank multicore job on a
 * 2-core machine): every all-gather delivers every rank's value, and ranks waiting for a late one sleep rather
 * than burn the cores the late one needs.
 */
class SharedMemoryExchangeTest {
    private static final int RANKS = 48;

    @Test
    void manyRanksAllGatherTheRightValuesThroughManyGenerations() throws Exception {
        String token = "test " + UUID.randomUUID();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < RANKS; r++) {
            int rank = r;
            threads.add(new Thread(() -> {
                SharedMemoryExchange x = SharedMemoryExchange.join(token, rank, RANKS);
                try {
                    for (int g = 0; g < 300; g++) {
                        long[] all = x.allgather(new long[]{rank * 1000L + g});
                        for (int s = 0; s < RANKS; s++) {
                            if (all[s] != s * 1000L + g) throw new AssertionError("generation " + g + ": rank " + rank + " got " + all[s] + " from rank " + s);
                        }
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    x.leave();
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) t.join(120_000);
        assertNull(failure.get(), () -> "a rank failed: " + failure.get());
        for (Thread t : threads) assertTrue(!t.isAlive(), "every rank finished");
    }

    @Test
    void ranksWaitingForALateOneUseAlmostNoCpu() throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (!mx.isThreadCpuTimeSupported()) return; // nothing to measure on a JVM without per-thread CPU clocks
        mx.setThreadCpuTimeEnabled(true);
        String token = "test " + UUID.randomUUID();
        int late = RANKS - 1;
        long lateMillis = 400;
        AtomicLong waitersCpu = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < RANKS; r++) {
            int rank = r;
            threads.add(new Thread(() -> {
                SharedMemoryExchange x = SharedMemoryExchange.join(token, rank, RANKS);
                try {
                    x.barrier(); // everyone is here and warm
                    if (rank == late) {
                        Thread.sleep(lateMillis);
                        x.barrier();
                    } else {
                        long before = mx.getCurrentThreadCpuTime();
                        x.barrier();
                        waitersCpu.addAndGet(mx.getCurrentThreadCpuTime() - before);
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    x.leave();
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) t.join(60_000);
        assertNull(failure.get(), () -> "a rank failed: " + failure.get());
        // Polling every 20 us, as the exchange did, cost each waiter about a quarter of its wait in CPU; parked
        // waiters cost a few yields each. Bound: 2 % of the waiters' combined wait.
        long bound = (RANKS - 1) * lateMillis * 1_000_000L / 50;
        assertTrue(waitersCpu.get() < bound, "waiting ranks used " + waitersCpu.get() / 1_000_000 + " ms of CPU while one rank was "
                + lateMillis + " ms late (bound " + bound / 1_000_000 + " ms)");
        System.out.println("waiting ranks used " + waitersCpu.get() / 1_000_000 + " ms of CPU (bound " + bound / 1_000_000 + " ms)");
        assertEquals(RANKS, threads.size());
    }
}
