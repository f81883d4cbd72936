package io.pdla.tracer.runtime;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.access.TraceRecord;
import io.pdla.darshan.MpiioCounter;
import io.pdla.tracer.counters.Module;
import io.pdla.darshan.PosixCounter;
import io.pdla.tracer.counters.TracedRecord;
import io.pdla.tracer.format.TraceDirectory;
import io.pdla.tracer.testing.TracedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Several threads of one rank on one file: every request traced once, counters exact, data correct. */
class ThreadedRankTest {
    @TempDir
    Path tmp;

    @Test
    void concurrentCallsOfOneRank() throws Exception {
        TracedJob job = new TracedJob(Files.createDirectories(tmp.resolve("data")), tmp.resolve("trace"), 1, "Threads");
        int threads = 4, perThread = 500, size = 512;
        try (job) {
            TracedJob.RankFile f = job.open(0, "shared-by-threads", 1);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        long off = ((long) i * threads + thread) * size;
                        writeDirect(f, off, size);
                    }
                    return null;
                }));
            }
            for (Future<?> d : done) d.get();
            pool.shutdown();
            f.close();
        }
        TraceDirectory dir = TraceDirectory.open(job.traceDir);
        Set<Long> offsets = new HashSet<>();
        int writes = 0;
        try (var s = dir.records(0)) {
            for (TraceRecord r : (Iterable<TraceRecord>) s::iterator) {
                if (r.op() != IoOp.WRITE) continue;
                writes++;
                assertEquals(size, r.length());
                assertTrue(offsets.add(r.offset()), "offset " + r.offset() + " traced twice");
            }
        }
        assertEquals(threads * perThread, writes);
        for (long o = 0; o < (long) threads * perThread * size; o += size) assertTrue(offsets.contains(o), "missing " + o);
        List<TracedRecord> recs = dir.summaries().get(0).records();
        TracedRecord posix = recs.stream().filter(r -> r.module() == Module.POSIX).findFirst().orElseThrow();
        TracedRecord mpiio = recs.stream().filter(r -> r.module() == Module.MPIIO).findFirst().orElseThrow();
        assertEquals(threads * perThread, posix.get(PosixCounter.POSIX_WRITES));
        assertEquals((long) threads * perThread * size, posix.get(PosixCounter.POSIX_BYTES_WRITTEN));
        assertEquals(threads * perThread, mpiio.get(MpiioCounter.MPIIO_INDEP_WRITES));
        byte[] data = Files.readAllBytes(job.dataDir.resolve("shared-by-threads"));
        for (int o = 0; o < data.length; o++) if (data[o] != TracedJob.content(o)) throw new AssertionError("data wrong at " + o);
    }

    private static void writeDirect(TracedJob.RankFile f, long off, int size) throws Exception {
        f.writeUnrecorded(Positioning.EXPLICIT_OFFSET, false, ExtentList.of(off, size));
    }
}
