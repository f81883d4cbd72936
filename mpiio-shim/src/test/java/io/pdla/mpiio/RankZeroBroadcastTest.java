package io.pdla.mpiio;

import io.pdla.collective.SharedMemoryExchange;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ranks as threads of this JVM over the shared-memory exchange, as MPJ's multicore device runs them. */
class RankZeroBroadcastTest {
    private interface PerRank<T> {
        T run(RankZeroBroadcast share, int rank) throws Exception;
    }

    private static <T> List<T> onRanks(int n, PerRank<T> work) throws Exception {
        String token = UUID.randomUUID().toString();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                futures.add(pool.submit((Callable<T>) () -> {
                    SharedMemoryExchange ex = SharedMemoryExchange.join(token, rank, n);
                    try {
                        return work.run(new RankZeroBroadcast(ex), rank);
                    } finally {
                        ex.leave();
                    }
                }));
            }
            List<T> out = new ArrayList<>();
            for (Future<T> f : futures) out.add(f.get());
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void rankZeroComputesOnceAndEveryRankGetsItsBytes() throws Exception {
        int n = 2 + new Random().nextInt(7);
        byte[] value = new byte[new Random().nextInt(5000)];
        new Random().nextBytes(value);
        AtomicInteger computed = new AtomicInteger();
        List<byte[]> got = onRanks(n, (share, rank) -> share.share(() -> {
            computed.incrementAndGet();
            return value.clone();
        }));
        assertEquals(1, computed.get(), "computed on one rank only");
        for (byte[] b : got) assertArrayEquals(value, b);
    }

    @Test
    void aFailureOnRankZeroReachesEveryRankWithItsMessage() throws Exception {
        int n = 2 + new Random().nextInt(5);
        List<String> messages = onRanks(n, (share, rank) -> {
            try {
                share.share(() -> {
                    throw new IllegalStateException("catalog gone");
                });
                return "no failure on rank " + rank;
            } catch (IOException e) {
                return e.getMessage();
            }
        });
        for (String m : messages) assertTrue(m.contains("rank 0") && m.contains("catalog gone"), m);
    }
}
