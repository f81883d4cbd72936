package io.pdla.mpiio.collective;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rank the others keep waiting in a shared-memory collective blocks without using the CPU (on a 2-core machine
 * with more rank threads than cores a polling waiter takes the cores from the ranks still working) and wakes as
 * soon as the last one arrives; under many back-to-back collectives no wake-up is lost.
 */
class SharedMemoryBarrierWaitTest {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Test
    void aRankWaitingForALateOneUsesNoCpuAndWakesWhenItArrives() throws Exception {
        String token = "barrier-wait-test " + System.nanoTime();
        SharedMemoryExchange early = SharedMemoryExchange.join(token, 0, 2);
        SharedMemoryExchange late = SharedMemoryExchange.join(token, 1, 2);
        AtomicReference<Object> outcome = new AtomicReference<>();
        long[] leftAt = new long[1];
        Thread waiting = new Thread(() -> {
            try {
                early.barrier();
                leftAt[0] = System.nanoTime();
                outcome.set(Boolean.TRUE);
            } catch (Throwable e) {
                outcome.set(e);
            }
        }, "early rank");
        waiting.start();
        Thread.sleep(100);
        long before = THREADS.getThreadCpuTime(waiting.getId());
        Thread.sleep(1500);
        long cpu = THREADS.getThreadCpuTime(waiting.getId()) - before;
        assertTrue(waiting.isAlive() && outcome.get() == null, "the early rank must still be waiting: " + outcome.get());
        assertTrue(cpu < 50_000_000L, "a rank waiting 1.5 s in a barrier used " + cpu / 1_000_000 + " ms of CPU; it must block, not poll");
        long arrived = System.nanoTime();
        late.barrier();
        waiting.join(10_000);
        assertEquals(Boolean.TRUE, outcome.get());
        assertTrue(leftAt[0] - arrived < 50_000_000L, "the early rank left " + (leftAt[0] - arrived) / 1000 + " us after the last arrived: it must be woken, not find out at its next check");
        early.leave();
        late.leave();
    }

    @Test
    void manyBackToBackCollectivesAmongMoreRanksThanCoresLoseNoWakeUp() throws Exception {
        int ranks = 6, rounds = 3000;
        String token = "barrier-stress-test " + System.nanoTime();
        SharedMemoryExchange[] ex = new SharedMemoryExchange[ranks];
        for (int r = 0; r < ranks; r++) ex[r] = SharedMemoryExchange.join(token, r, ranks);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[ranks];
        long t0 = System.nanoTime();
        for (int r = 0; r < ranks; r++) {
            int rank = r;
            threads[r] = new Thread(() -> {
                try {
                    for (int i = 0; i < rounds; i++) {
                        if ((i + rank) % 97 == 0) Thread.sleep(1);   // a late rank now and then: the others block
                        long[] all = ex[rank].allgather(new long[]{i * 10L + rank});
                        long[] expected = new long[ranks];
                        for (int k = 0; k < ranks; k++) expected[k] = i * 10L + k;
                        assertArrayEquals(expected, all, "round " + i + " on rank " + rank);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            threads[r].start();
        }
        for (Thread t : threads) t.join(120_000);
        long seconds = (System.nanoTime() - t0) / 1_000_000_000L;
        if (failure.get() != null) throw new AssertionError(failure.get());
        for (Thread t : threads) assertTrue(!t.isAlive(), "a rank is still waiting after 120 s: a lost wake-up");
        // a lost wake-up costs the 100 ms safety sleep: a few hundred of them would show here
        assertTrue(seconds < 60, rounds + " collectives of " + ranks + " ranks took " + seconds + " s");
        for (SharedMemoryExchange e : ex) e.leave();
    }
}
