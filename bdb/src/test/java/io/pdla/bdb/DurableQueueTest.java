package io.pdla.bdb;

import com.sleepycat.je.Environment;
import com.sleepycat.je.Transaction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DurableQueueTest {
    @TempDir
    Path dir;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(DurableQueue.Item i) {
        return new String(i.value(), StandardCharsets.UTF_8);
    }

    @Test
    void lanesInOrderEachFifoAgainstAModelAcrossReopens() {
        long seed = new Random().nextLong();
        Random rnd = new Random(seed);
        List<Deque<String>> model = List.of(new ArrayDeque<>(), new ArrayDeque<>());
        Set<Long> sequences = new HashSet<>();
        for (int round = 0; round < 4; round++) {
            try (Environment env = JeEnvironments.open(dir, EnvironmentSettings.readWrite());
                 JeChild.QueueStore s = openStore(env)) {
                for (int op = 0; op < 60; op++) {
                    if (rnd.nextInt(3) > 0) {
                        int lane = rnd.nextInt(2);
                        String v = "r" + round + "-" + op;
                        long seq = JeTransactions.run(env, 1, txn -> s.queue().offer(txn, lane, bytes(v)));
                        assertTrue(sequences.add(seq), "seed " + seed + ": sequence " + seq + " reused");
                        model.get(lane).addLast(v);
                    } else {
                        Optional<DurableQueue.Item> got = JeTransactions.run(env, 1, txn -> s.queue().poll(txn));
                        Optional<String> expected = model.stream().filter(q -> !q.isEmpty()).findFirst().map(Deque::removeFirst);
                        assertEquals(expected, got.map(DurableQueueTest::text), "seed " + seed);
                    }
                }
                List<String> all = new ArrayList<>();
                model.forEach(all::addAll);
                assertEquals(all, s.queue().items(null).stream().map(DurableQueueTest::text).toList(), "seed " + seed);
                assertEquals(all.size(), s.queue().size(), "seed " + seed);
            }
        }
    }

    @Test
    void anAbortedOfferLeavesNothingAndAnAbortedPollLeavesTheItem() {
        try (Environment env = JeEnvironments.open(dir, EnvironmentSettings.readWrite());
             JeChild.QueueStore s = openStore(env)) {
            JeTransactions.run(env, 1, txn -> s.queue().offer(txn, 1, bytes("kept")));
            Transaction offer = env.beginTransaction(null, null);
            s.queue().offer(offer, 0, bytes("dropped"));
            offer.abort();
            Transaction poll = env.beginTransaction(null, null);
            assertEquals("kept", text(s.queue().poll(poll).orElseThrow()));
            poll.abort();
            List<DurableQueue.Item> items = s.queue().items(null);
            assertEquals(1, items.size());
            assertArrayEquals(bytes("kept"), items.get(0).value());
            boolean removed = JeTransactions.run(env, 1, txn -> s.queue().remove(txn, 1, items.get(0).sequence()));
            assertTrue(removed);
            assertEquals(0, s.queue().size());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> JeTransactions.run(env, 1, txn -> s.queue().offer(txn, 2, bytes("x"))));
            assertTrue(e.getMessage().contains("lanes 0..1") && e.getMessage().contains("got 2"), e.getMessage());
        }
    }

    @Test
    void aKilledProducerLeavesEveryCommittedItemWithItsRecordAndNoOther() throws Exception {
        int lastCommitted = -1;
        try (ChildProcess producer = new ChildProcess("offer", dir.toString())) {
            String line;
            while ((line = producer.readLine()) != null) {
                lastCommitted = Integer.parseInt(line.substring("committed ".length()));
                if (lastCommitted >= 60) break;
            }
        }   // SIGKILL in the middle of further offers
        assertTrue(lastCommitted >= 60, "producer stopped early at " + lastCommitted);
        try (Environment env = JeEnvironments.open(dir, EnvironmentSettings.readWrite());
             JeChild.QueueStore s = openStore(env)) {
            long records = s.records().count();
            assertTrue(records > lastCommitted, records + " records, " + (lastCommitted + 1) + " acknowledged");
            List<DurableQueue.Item> items = s.queue().items(null);
            assertEquals(records, items.size(), "items and records were committed together");
            Set<Integer> seen = new HashSet<>();
            for (DurableQueue.Item i : items) {
                int n = Integer.parseInt(text(i));
                assertEquals(n % 2, i.lane());
                assertTrue(seen.add(n));
            }
            for (int n = 0; n < records; n++) assertTrue(seen.contains(n), "item " + n + " lost");
            // the counter survived too: the next offer does not reuse a number
            long next = JeTransactions.run(env, 1, txn -> s.queue().offer(txn, 0, bytes("after")));
            assertTrue(items.stream().allMatch(i -> i.sequence() < next), "sequence " + next + " reused");
        }
    }

    /**
     * Producers that start together on a queue without its counter record (a new store) and a consumer polling
     * meanwhile: every offer succeeds and no sequence number is given twice. Found by CI in PatternDatabaseTest
     * ("sequence 3 already taken"): a producer that found no counter overwrote it after a late scan.
     */
    @Test
    void producersRacingOnANewQueueNeverShareASequence() throws Exception {
        var dc = JeEnvironments.databaseConfig(EnvironmentSettings.readWrite());
        try (Environment env = JeEnvironments.open(dir, EnvironmentSettings.readWrite())) {
            for (int round = 0; round < 40; round++) {
                try (com.sleepycat.je.Database meta = env.openDatabase(null, "meta-" + round, dc);
                     com.sleepycat.je.Database items = env.openDatabase(null, "queue-" + round, dc)) {
                    DurableQueue q = new DurableQueue(items, meta, 1);
                    java.util.concurrent.ConcurrentLinkedQueue<Long> given = new java.util.concurrent.ConcurrentLinkedQueue<>();
                    java.util.concurrent.ConcurrentLinkedQueue<Throwable> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
                    java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(5);
                    java.util.concurrent.atomic.AtomicBoolean producing = new java.util.concurrent.atomic.AtomicBoolean(true);
                    List<Thread> threads = new ArrayList<>();
                    for (int t = 0; t < 4; t++) {
                        threads.add(new Thread(() -> {
                            try {
                                start.await();
                                for (int i = 0; i < 12; i++) given.add(JeTransactions.run(env, 50, txn -> q.offer(txn, 0, bytes("v"))));
                            } catch (Throwable e) {
                                failures.add(e);
                            }
                        }));
                    }
                    threads.add(new Thread(() -> {
                        try {
                            start.await();
                            while (producing.get()) JeTransactions.run(env, 50, txn -> q.poll(txn));
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    }));
                    threads.forEach(Thread::start);
                    for (int t = 0; t < 4; t++) threads.get(t).join();
                    producing.set(false);
                    threads.get(4).join();
                    assertTrue(failures.isEmpty(), "round " + round + ": " + failures);
                    assertEquals(48, given.size());
                    assertEquals(48, new HashSet<>(given).size(), "round " + round + ": a sequence was given twice: " + given);
                }
            }
        }
    }

    private static JeChild.QueueStore openStore(Environment env) {
        return JeChild.QueueStore.open(env);
    }
}
