package io.pdla.simpfs;

import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.ServerClass;
import io.pdla.simpfs.store.RecordedStreams;
import io.pdla.simpfs.store.SimPfs;
import io.pdla.simpfs.timing.SimResult;
import io.pdla.simpfs.timing.TimingEngine;
import io.pdla.simpfs.workload.IorWorkload;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeterminismTest {
    @TempDir
    Path dir;

    @Test
    void theSameGeneratedWorkloadTwiceGivesIdenticalVirtualTimes() {
        IorWorkload ior = new IorWorkload(64, 4L << 20, 256 << 10, 2, false, true, false, 1, Layout.twoD(ServerClass.HDD, 2, 64 << 10, 4L << 20));
        SimResult a = new TimingEngine(SimPfsConfig.DEFAULT).run(ior);
        SimResult b = new TimingEngine(SimPfsConfig.DEFAULT).run(ior);
        assertEquals(a, b);
        assertTrue(a.elapsedSeconds() > 0 && a.lockConflicts() > 0, "shared-file writes by 64 ranks conflict on extent locks");
    }

    /**
     * Eight threads play eight ranks writing and re-reading an IOR-strided file through the driver, with
     * random pauses so the interleaving differs between the two runs; the replayed virtual times must not.
     */
    @Test
    void liveRanksRunningConcurrentlyGiveIdenticalVirtualTimes() throws Exception {
        SimResult first = liveRun(dir.resolve("run1"), 11);
        SimResult second = liveRun(dir.resolve("run2"), 99);
        assertEquals(first.elapsedSeconds(), second.elapsedSeconds());
        assertEquals(first.rankCompletionSeconds(), second.rankCompletionSeconds());
        assertEquals(first.servers(), second.servers());
        assertEquals(8 * 16 * 2, first.requests());
    }

    private SimResult liveRun(Path root, long jitterSeed) throws Exception {
        SimPfs fs = SimPfs.open(root, SimPfsConfig.builder().defaultLayout("1dh,stripe=16k,space=both").build());
        SimPfsDriver driver = new SimPfsDriver(root);
        URI uri = URI.create("simpfs:///job/shared");
        int ranks = 8, transfers = 16, size = 8192;
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                int rank = r;
                Random jitter = new Random(jitterSeed * 31 + r);
                done.add(pool.submit(() -> {
                    OpenOptions o = OpenOptions.createReadWrite().withHints(Map.of(
                            SimPfsDriver.HINT_RANK, Integer.toString(rank), SimPfsDriver.HINT_SESSION, "live"));
                    try (StorageFile f = driver.open(uri, o)) {
                        for (int i = 0; i < transfers; i++) {
                            long off = ((long) i * ranks + rank) * size;
                            f.write(off, ByteBuffer.wrap(bytes(size, off)));
                            LockSupport.parkNanos(jitter.nextInt(200_000));
                        }
                        for (int i = 0; i < transfers; i++) {
                            long off = ((long) i * ranks + rank) * size;
                            ByteBuffer back = ByteBuffer.allocate(size);
                            assertEquals(size, f.read(off, back));
                            assertArrayEquals(bytes(size, off), back.array());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) f.get();
        } finally {
            pool.shutdown();
        }
        driver.closeRecorders();
        return new TimingEngine(fs.config()).run(RecordedStreams.load(fs, "live"));
    }

    private static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }
}
