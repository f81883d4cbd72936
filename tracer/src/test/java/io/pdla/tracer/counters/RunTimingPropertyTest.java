package io.pdla.tracer.counters;

import io.pdla.access.IoOp;
import io.pdla.darshan.PosixCounter;
import io.pdla.darshan.PosixFCounter;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * {@link FileCounters#dataRun} times a run in one step when its calls follow each other, and call by call
 * otherwise; either way both records end as after the same calls counted one at a time. The batched tracer
 * only hands it a rank's own calls (times that only move forward, which the runtime's property test covers),
 * so the times here also go backwards, overlap each other and what came before, and start at 0.
 */
class RunTimingPropertyTest {
    @Property(tries = 500)
    void aRunTimesAsItsCallsOneByOne(@ForAll long seed) {
        Random rnd = new Random(seed);
        FileCounters byRun = counters(), oneByOne = counters();
        long now = rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(1000);
        for (int r = 0; r < 1 + rnd.nextInt(6); r++) {
            IoOp op = rnd.nextBoolean() ? IoOp.READ : IoOp.WRITE;
            long length = 1 + rnd.nextInt(8192);
            long first = rnd.nextInt(1 << 20);
            int n = 1 + rnd.nextInt(20);
            long[] t1 = new long[n + 2], t2 = new long[n + 2];
            int from = rnd.nextInt(3);
            boolean inOrder = rnd.nextBoolean();
            for (int k = from; k < from + n; k++) {
                // in order: each call after the previous one; otherwise starts that may step back (also below 0 and to 0)
                t1[k] = inOrder ? (now += rnd.nextInt(40)) : Math.max(0, now + rnd.nextInt(80) - 50);
                t2[k] = inOrder ? (now += rnd.nextInt(40)) : t1[k] + rnd.nextInt(60) - (rnd.nextInt(10) == 0 ? 70 : 0);
                if (!inOrder) now = Math.max(now, t1[k]);
            }
            byRun.dataRun(op, false, first, length, length, n, t1.clone(), t2.clone(), from);
            for (int k = 0; k < n; k++) oneByOne.data(op, false, first + k * length, length, length, t1[from + k], t2[from + k]);
            assertEquals(oneByOne.posix(), byRun.posix(), "POSIX record after run " + r);
            assertEquals(oneByOne.mpiio(), byRun.mpiio(), "MPI-IO record after run " + r);
        }
    }

    /** The one-step path is taken and gives a record that differs from an empty one (so the property above is not vacuous). */
    @Test
    void aSequentialRunSetsTimeStampsAndTheSlowestCall() {
        FileCounters c = counters();
        c.dataRun(IoOp.WRITE, false, 0, 4096, 4096, 4, new long[]{10, 20, 30, 45}, new long[]{15, 28, 40, 50}, 0);
        TracedRecord p = c.posix();
        assertEquals(5 + 8 + 10 + 5, Math.round(p.getF(PosixFCounter.POSIX_F_WRITE_TIME) * 1e9));
        assertEquals(10, Math.round(p.getF(PosixFCounter.POSIX_F_MAX_WRITE_TIME) * 1e9));
        assertEquals(4096, p.get(PosixCounter.POSIX_MAX_WRITE_TIME_SIZE));
        assertEquals(10, Math.round(p.getF(PosixFCounter.POSIX_F_WRITE_START_TIMESTAMP) * 1e9));
        assertEquals(50, Math.round(p.getF(PosixFCounter.POSIX_F_WRITE_END_TIMESTAMP) * 1e9));
        assertNotEquals(counters().mpiio(), c.mpiio());
    }

    private static FileCounters counters() {
        return new FileCounters(0, 42, "/data", "/", "ext4", 4096);
    }
}
