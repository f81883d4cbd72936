package io.pdla.darshan;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.RepeatedTest;

/** Random runs written by {@link DarshanWriter} read back to the same job, names, counters and segments. */
class RoundTripPropertyTest {
    @RepeatedTest(30)
    void writtenLogsReadBackUnchanged() throws Exception {
        long seed = new SplittableRandom().nextLong();
        try {
            check(new SplittableRandom(seed));
        } catch (Throwable t) {
            throw new AssertionError("seed " + seed + ": " + t.getMessage(), t);
        }
    }

    private static void check(SplittableRandom rnd) throws Exception {
        int nprocs = 1 + rnd.nextInt(64);
        int nfiles = rnd.nextInt(6);
        Map<Long, String> names = new LinkedHashMap<>();
        for (int i = 0; i < nfiles; i++) names.put(rnd.nextLong(), "/scratch/run" + rnd.nextInt(1000) + "/file-" + i + ".dat");
        List<Long> ids = new ArrayList<>(names.keySet());
        List<CounterRecord> posix = new ArrayList<>(), mpiio = new ArrayList<>();
        List<DxtRecord> dxtP = new ArrayList<>(), dxtM = new ArrayList<>();
        for (long id : ids) {
            long rank = rnd.nextBoolean() ? -1 : rnd.nextInt(nprocs);
            posix.add(counters(CounterLayout.POSIX, id, rank, rnd));
            if (rnd.nextBoolean()) mpiio.add(counters(CounterLayout.MPIIO, id, rank, rnd));
            if (rnd.nextBoolean()) dxtP.add(dxt(id, rnd.nextInt(nprocs), rnd));
            if (rnd.nextBoolean()) dxtM.add(dxt(id, rnd.nextInt(nprocs), rnd));
        }
        long start = 1_600_000_000L + rnd.nextInt(100_000_000);
        DarshanJob job = new DarshanJob(rnd.nextInt(100000), start, rnd.nextInt(1_000_000_000), start + rnd.nextInt(10000),
                rnd.nextInt(1_000_000_000), nprocs, rnd.nextLong(1L << 40), "lib_ver=pdla\nh=cb_nodes=" + rnd.nextInt(8) + "\n",
                "java -cp app.jar Main " + rnd.nextInt(), List.of(new Mount("/scratch", "lustre"), new Mount("/", "ext4")));
        Compression comp = Compression.values()[rnd.nextInt(3)];
        byte[] bytes = DarshanWriter.write(new DarshanWriter.Content(job, names, posix, mpiio, dxtP, dxtM), comp);
        DarshanLog log = new DarshanReader().read(bytes);
        assertNull(log.firstError());
        assertEquals("3.41", log.header().version());
        assertEquals(comp, log.header().compression());
        assertEquals(job.exe(), log.job().exe());
        assertEquals(job.nprocs(), log.job().nprocs());
        assertEquals(job.startNsec(), log.job().startNsec());
        assertEquals(job.metadata(), log.job().metadata());
        assertEquals(names, log.names());
        assertCounters(posix, log.module(ModuleId.POSIX));
        assertCounters(mpiio, log.module(ModuleId.MPIIO));
        assertDxt(dxtP, log.module(ModuleId.DXT_POSIX));
        assertDxt(dxtM, log.module(ModuleId.DXT_MPIIO));
    }

    private static CounterRecord counters(CounterLayout l, long id, long rank, SplittableRandom rnd) {
        long[] c = new long[l.intNames.length];
        for (int i = 0; i < c.length; i++) c[i] = rnd.nextInt(3) == 0 ? -1 : rnd.nextLong(1L << 45);
        double[] f = new double[l.floatNames.length];
        for (int i = 0; i < f.length; i++) f[i] = rnd.nextDouble() * 1000;
        return new CounterRecord(id, rank, 0, c, f);
    }

    private static DxtRecord dxt(long id, long rank, SplittableRandom rnd) {
        int w = rnd.nextInt(200), r = rnd.nextInt(200), n = w + r;
        long[] off = new long[n], len = new long[n];
        double[] st = new double[n], en = new double[n];
        for (int i = 0; i < n; i++) {
            off[i] = rnd.nextLong(1L << 40);
            len[i] = rnd.nextLong(1L << 30);
            st[i] = rnd.nextDouble() * 100;
            en[i] = st[i] + rnd.nextDouble();
        }
        return new DxtRecord(id, rank, "node" + rnd.nextInt(100), w, r, off, len, st, en, new long[n]);
    }

    private static void assertCounters(List<CounterRecord> expected, ModuleData m) {
        if (expected.isEmpty()) { assertNull(m); return; }
        List<CounterRecord> got = m.recordsOf(CounterRecord.class);
        assertEquals(expected.size(), got.size());
        for (int i = 0; i < got.size(); i++) {
            assertEquals(expected.get(i).id(), got.get(i).id());
            assertEquals(expected.get(i).rank(), got.get(i).rank());
            assertArrayEquals(expected.get(i).counters(), got.get(i).counters());
            assertArrayEquals(expected.get(i).fcounters(), got.get(i).fcounters());
        }
    }

    private static void assertDxt(List<DxtRecord> expected, ModuleData m) {
        if (expected.isEmpty()) { assertNull(m); return; }
        List<DxtRecord> got = m.recordsOf(DxtRecord.class);
        assertEquals(expected.size(), got.size());
        for (int i = 0; i < got.size(); i++) {
            DxtRecord e = expected.get(i), g = got.get(i);
            assertEquals(e.id(), g.id());
            assertEquals(e.rank(), g.rank());
            assertEquals(e.hostname(), g.hostname());
            assertEquals(e.writeCount(), g.writeCount());
            assertEquals(e.readCount(), g.readCount());
            assertArrayEquals(e.offsets(), g.offsets());
            assertArrayEquals(e.lengths(), g.lengths());
            assertArrayEquals(e.starts(), g.starts());
            assertArrayEquals(e.ends(), g.ends());
        }
    }
}
