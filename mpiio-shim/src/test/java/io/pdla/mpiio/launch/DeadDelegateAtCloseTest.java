package io.pdla.mpiio.launch;

import io.pdla.delegate.service.DelegateFailedException;
import io.pdla.delegate.service.DelegateProtocol;
import io.pdla.delegate.service.DelegateProtocol.Op;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A collective CLOSE with one delegate dead, when only some ranks know it yet (a one-JVM job's links, real
 * delegate ranks, one playing dead): the live delegate holds every member's CLOSE until the group came, so a rank
 * that knows the dead one must still send the live one its CLOSE before failing; otherwise the other ranks wait
 * there for the whole time-out and take the live delegate for dead too.
 */
class DeadDelegateAtCloseTest {
    private static final long TIMEOUT_MILLIS = 500;

    @TempDir
    Path dir;

    @Test
    void aRankThatKnowsADelegateIsDeadStillClosesAtTheLiveOnes() throws Exception {
        String uri = Files.write(dir.resolve("f"), new byte[4096]).toUri().toString();
        SharedMailboxes boxes = SharedMailboxes.of("dead-at-close-test " + System.nanoTime(), 2, 2);
        new DelegateRank(null, boxes, 2, 2, 2, 1 << 20, -1).registerHandler();
        new DelegateRank(null, boxes, 2, 2, 3, 1 << 20, 0).registerHandler();   // delegate 1 never answers
        SharedMemoryDelegateLink rank0 = new SharedMemoryDelegateLink(boxes, 0, 2, 2, TIMEOUT_MILLIS);
        SharedMemoryDelegateLink rank1 = new SharedMemoryDelegateLink(boxes, 1, 2, 2, TIMEOUT_MILLIS);
        long group = 7;
        for (SharedMemoryDelegateLink r : new SharedMemoryDelegateLink[]{rank0, rank1}) {
            byte[][] joined = r.exchange(new int[]{0}, new byte[][]{DelegateProtocol.open(uri, true, 4096, 1 << 20, Map.of(), group, 2)});
            DelegateProtocol.check(joined[0], 0);
        }
        // rank 0 alone learns that delegate 1 is dead
        assertThrows(DelegateFailedException.class, () -> rank0.exchange(new int[]{1}, new byte[][]{DelegateProtocol.simple(Op.SIZE, uri, 0)}));

        byte[] close = DelegateProtocol.collective(Op.CLOSE, uri, group);
        AtomicReference<Throwable> rank0Outcome = new AtomicReference<>();
        Thread closing = new Thread(() -> {
            try {
                rank0.exchange(new int[]{0, 1}, new byte[][]{close, close});
            } catch (Throwable e) {
                rank0Outcome.set(e);
            }
        }, "rank 0 in close");
        closing.start();
        DelegateFailedException rank1Failure = assertThrows(DelegateFailedException.class,
                () -> rank1.exchange(new int[]{0, 1}, new byte[][]{close, close}));
        closing.join(10 * TIMEOUT_MILLIS);
        assertTrue(!closing.isAlive(), "rank 0's close must end");
        assertTrue(rank0Outcome.get() instanceof DelegateFailedException && rank0Outcome.get().getMessage().contains("delegate 1 "),
                "rank 0's close fails naming the dead delegate: " + rank0Outcome.get());
        assertTrue(rank1Failure.getMessage().contains("delegate 1 "), "rank 1 waited for the live delegate: " + rank1Failure.getMessage());
        // delegate 0 answered both CLOSEs, so it is still alive for rank 1
        byte[][] size = rank1.exchange(new int[]{0}, new byte[][]{DelegateProtocol.simple(Op.SIZE, uri, 0)});
        assertEquals(0, DelegateProtocol.knownEnd(size[0], 0));
    }
}
