package io.pdla.collective;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        backToBack(6, 3000, 97);
    }

    /**
     * A group no larger than twice the cores yields before it parks, for a limited time: a rank late by a millisecond
     * now and then makes the others give up yielding and park, and the rank completing the generation must wake them.
     */
    @Test
    void ranksThatStopYieldingAndParkAreWokenEveryTime() throws Exception {
        int ranks = Math.max(2, Math.min(4, 2 * Runtime.getRuntime().availableProcessors()));
        int rounds = 1300, lateEvery = 13;
        String token = "barrier-park-test " + System.nanoTime();
        SharedMemoryExchange[] ex = new SharedMemoryExchange[ranks];
        // the compilers always at work, as in a job's first iterations: every wait past the short yield parks
        for (int r = 0; r < ranks; r++) ex[r] = SharedMemoryExchange.join(token, r, ranks, new AlwaysBusy());
        java.util.concurrent.atomic.AtomicLongArray lateArrival = new java.util.concurrent.atomic.AtomicLongArray(rounds);
        java.util.concurrent.atomic.AtomicInteger wokenByTimeout = new java.util.concurrent.atomic.AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[ranks];
        for (int r = 0; r < ranks; r++) {
            int rank = r;
            threads[r] = new Thread(() -> {
                try {
                    for (int i = 0; i < rounds; i++) {
                        boolean late = i % lateEvery == rank % lateEvery && i % lateEvery < ranks;
                        if (late) {
                            Thread.sleep(2); // the others wait past their yielding time and park
                            lateArrival.set(i, System.nanoTime());
                        }
                        long[] all = ex[rank].allgather(new long[]{i * 10L + rank});
                        long arrived = lateArrival.get(i);
                        // a waiter nobody unparked finds out at its timed wake-up, 50 ms later
                        if (!late && arrived != 0 && System.nanoTime() - arrived > 40_000_000L) wokenByTimeout.incrementAndGet();
                        for (int k = 0; k < ranks; k++) assertEquals(i * 10L + k, all[k], "round " + i + " on rank " + rank);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            threads[r].start();
        }
        for (Thread t : threads) t.join(120_000);
        if (failure.get() != null) throw new AssertionError(failure.get());
        for (Thread t : threads) assertTrue(!t.isAlive(), "a rank is still waiting after 120 s: a lost wake-up");
        int waits = (rounds / lateEvery) * ranks * (ranks - 1);
        // a broken wake-up would make nearly every one of these waits late; a busy machine delays a few
        assertTrue(wokenByTimeout.get() < waits / 10, wokenByTimeout.get() + " of " + waits + " waits for a late rank ended 40 ms or more after it arrived: parked ranks were not woken");
        for (SharedMemoryExchange e : ex) e.leave();
    }

    /**
     * Past its short yield a wait parks while the compilers are at work (a rank they keep off a core) and goes on
     * yielding while they are idle (steady state: each wake-up a parked waiter needs cost about 30 % of a long job's
     * collective reads), never more than the group's yield count; the compilers are asked once the short yield is over.
     */
    @Test
    void aWaitParksOnlyWhileTheCompilersAreAtWork() {
        long us = 1000;
        SharedMemoryExchange.Waiting busy = new SharedMemoryExchange.Waiting(4096, new AlwaysBusy(), 300 * us, 0);
        assertTrue(busy.yieldsNow(10 * us) && busy.yieldsNow(299 * us), "within the short yield a wait yields");
        assertFalse(busy.yieldsNow(301 * us), "past it, with the compilers at work, it parks");
        assertFalse(busy.yieldsNow(50_000 * us), "and parks again after a timed wake-up while they still work");

        CountingIdle idle = new CountingIdle();
        SharedMemoryExchange.Waiting quiet = new SharedMemoryExchange.Waiting(4096, idle, 300 * us, 0);
        assertTrue(quiet.yieldsNow(100 * us));
        assertEquals(0, idle.asked, "the compilers are not asked within the short yield");
        for (int i = 0; i < 100; i++) assertTrue(quiet.yieldsNow((301 + i) * us), "past the short yield, with the compilers idle, it yields");
        assertEquals(1, idle.asked, "asked once per wait, not at every yield");

        SharedMemoryExchange.Waiting capped = new SharedMemoryExchange.Waiting(10, new CountingIdle(), 300 * us, 0);
        for (int i = 0; i < 10; i++) assertTrue(capped.yieldsNow(i * 100 * us));
        assertFalse(capped.yieldsNow(1001 * us), "never more than the group's yield count");
    }

    private static final class CountingIdle extends CompilerActivity {
        int asked;

        @Override
        boolean busySinceLastAsked() {
            asked++;
            return false;
        }
    }

    private static final class AlwaysBusy extends CompilerActivity {
        @Override
        boolean busySinceLastAsked() {
            return true;
        }
    }

    private static void backToBack(int ranks, int rounds, int lateEvery) throws Exception {
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
                        if ((i + rank) % lateEvery == 0) Thread.sleep(1);   // a late rank now and then: the others block
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
