package io.pdla.tracer.runtime;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.access.TraceRecord;
import io.pdla.intercept.InterceptorChain;
import io.pdla.tracer.counters.CounterLog;
import io.pdla.tracer.counters.TracedRecord;
import io.pdla.tracer.counters.Module;
import io.pdla.darshan.MpiioCounter;
import io.pdla.darshan.PosixCounter;
import io.pdla.tracer.format.TraceDirectory;
import io.pdla.tracer.format.TraceLayer;
import io.pdla.tracer.format.TraceText;
import io.pdla.tracer.testing.TracedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The aggregator layer, driven through core's chain with a terminal that acts as a collective-buffering
 * engine: rank 0 aggregates, writing the whole strided region in windows and telling the chain of each
 * window; the other ranks hand their data over and write nothing. The application's calls stay in the
 * application layer (collective, counted as MPIIO_COLL_WRITES); the windows go to rank 0's aggregator
 * trace and AGG-POSIX record only.
 */
class AggregatorLayerTest {
    @TempDir
    Path tmp;

    @Test
    void aggregatorRequestsAreALayerApartFromTheApplicationsCalls() throws Exception {
        long seed = new Random().nextLong();
        Random rnd = new Random(seed);
        int nprocs = 2 + rnd.nextInt(3), block = 512 * (1 + rnd.nextInt(8)), segments = 1 + rnd.nextInt(12);
        long window = (long) block * (1 + rnd.nextInt(2 * nprocs));
        String why = "seed " + seed + " (nprocs " + nprocs + ", block " + block + ", segments " + segments + ", window " + window + ")";
        long region = (long) nprocs * block * segments;
        TracedJob job = new TracedJob(Files.createDirectories(tmp.resolve("data")), tmp.resolve("trace"), nprocs, "Aggregated");
        try (job) {
            job.runRanks(rank -> {
                TracedJob.RankFile f = job.open(rank, "strided.dat", nprocs);
                ExtentList.Builder mine = ExtentList.builder();
                for (int s = 0; s < segments; s++) mine.add(((long) s * nprocs + rank) * block, block);
                InterceptorChain.Terminal engine = call -> {
                    if (rank == 0) aggregateWrite(f, region, window);
                    return call.extents().totalBytes();
                };
                f.writeThrough(Positioning.EXPLICIT_OFFSET, mine.build(), engine);
                f.close();
            });
        }
        byte[] data = Files.readAllBytes(job.dataDir.resolve("strided.dat"));
        assertEquals(region, data.length, why);
        for (int o = 0; o < data.length; o++) if (data[o] != TracedJob.content(o)) throw new AssertionError("byte " + o + ", " + why);

        TraceDirectory dir = TraceDirectory.open(job.traceDir);
        for (int r = 0; r < nprocs; r++) {
            List<TraceRecord> writes;
            try (var s = dir.records(r)) {
                writes = s.filter(x -> x.op() == IoOp.WRITE).collect(Collectors.toList());
            }
            assertEquals(segments, writes.size(), "rank " + r + "'s application layer holds its own extents, " + why);
            for (int s = 0; s < segments; s++) {
                assertTrue(writes.get(s).collective(), "collective flag, " + why);
                assertEquals(((long) s * nprocs + r) * block, writes.get(s).offset(), why);
            }
            assertEquals(r == 0, dir.hasLayer(r, TraceLayer.AGGREGATOR), "only the aggregator has an aggregator layer, " + why);
        }
        assertEquals(List.of(0), dir.ranksWith(TraceLayer.AGGREGATOR), why);
        List<TraceRecord> agg;
        try (var s = dir.records(0, TraceLayer.AGGREGATOR)) {
            agg = s.collect(Collectors.toList());
        }
        assertEquals((region + window - 1) / window, agg.size(), "one request per window, " + why);
        assertEquals(region, agg.stream().mapToLong(TraceRecord::length).sum(), "the aggregator wrote every byte, " + why);
        assertTrue(agg.stream().allMatch(x -> x.op() == IoOp.WRITE && x.collective() && x.positioning() == Positioning.EXPLICIT_OFFSET), why);
        assertTrue(agg.stream().allMatch(x -> x.startNanos() >= 0 && x.endNanos() >= x.startNanos()), "aligned to the job start: " + agg);

        CounterLog log = CounterLog.load(job.traceDir);
        List<TracedRecord> aggPosix = log.records(Module.AGG_POSIX);
        assertEquals(1, aggPosix.size(), "one aggregator: " + aggPosix);
        assertEquals(0, aggPosix.get(0).rank());
        assertEquals(region, aggPosix.get(0).get(PosixCounter.POSIX_BYTES_WRITTEN), why);
        assertEquals(agg.size(), aggPosix.get(0).get(PosixCounter.POSIX_WRITES), why);
        assertEquals(0, aggPosix.get(0).get(PosixCounter.POSIX_READS), why);
        TracedRecord mpiio = log.records(Module.MPIIO).stream().filter(x -> x.rank() == -1).findFirst().orElseThrow();
        assertEquals(nprocs, mpiio.get(MpiioCounter.MPIIO_COLL_WRITES), "one collective write per rank, " + why);
        assertEquals(0, mpiio.get(MpiioCounter.MPIIO_INDEP_WRITES), why);
        assertEquals(region, mpiio.get(MpiioCounter.MPIIO_BYTES_WRITTEN), why);

        StringWriter text = new StringWriter();
        long printed = TraceText.dump(dir, TraceLayer.AGGREGATOR, false, new PrintWriter(text));
        assertEquals(agg.size(), printed, text.toString());
        assertTrue(text.toString().contains("# layer: aggregator"), text.toString());
        StringWriter app = new StringWriter();
        TraceText.dump(dir, false, new PrintWriter(app));
        assertFalse(app.toString().contains("layer: aggregator"), app.toString());
    }

    /** What an aggregator does: one contiguous write per window, each told to the chain as the engine does. */
    private static void aggregateWrite(TracedJob.RankFile f, long region, long window) throws java.io.IOException {
        for (long from = 0; from < region; from += window) {
            ExtentList w = ExtentList.of(from, Math.min(window, region - from));
            long t0 = System.nanoTime();
            f.ctx.file().writev(w, ByteBuffer.wrap(TracedJob.contentOf(w)));
            f.chain().aggregated(f.ctx, IoOp.WRITE, w, t0, System.nanoTime());
        }
    }

    @Test
    void layerNamesParseAndBadOnesAreNamed() {
        assertEquals(TraceLayer.AGGREGATOR, TraceLayer.parse("Aggregator"));
        assertEquals("rank-3.agg.pdlt", TraceLayer.AGGREGATOR.fileName(3));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> TraceLayer.parse("posix"));
        assertTrue(e.getMessage().contains("'posix'"), e.getMessage());
    }
}
