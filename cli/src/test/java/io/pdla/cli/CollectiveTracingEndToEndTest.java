package io.pdla.cli;

import io.pdla.access.IoOp;
import io.pdla.access.TraceRecord;
import io.pdla.cli.programs.CollectiveStrided;
import io.pdla.mpiio.launch.MpjJob;
import io.pdla.patterns.TraceSource;
import io.pdla.tracer.counters.CounterLog;
import io.pdla.tracer.counters.TracedRecord;
import io.pdla.tracer.counters.Module;
import io.pdla.darshan.MpiioCounter;
import io.pdla.darshan.PosixCounter;
import io.pdla.tracer.format.TraceDirectory;
import io.pdla.tracer.format.TraceLayer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tracer under real MPJ ranks (multicore, 4 ranks) with two-phase collective buffering forced on: a
 * strided writeAll through a file view leaves, on every rank, the application's own extents flagged
 * collective and counted as MPIIO_COLL_WRITES; and, only on the aggregator ranks, the aggregator layer
 * (rank-N.agg.pdlt, AGG-POSIX counters) whose bytes add up to the bytes written. The pattern analyzer's
 * trace source sees the application layer only; `pdla trace dump --layer aggregator` shows the other.
 */
class CollectiveTracingEndToEndTest {
    @TempDir
    Path dir;

    @Test
    void collectiveWriteIsTracedAsCollectiveAndAggregatorsAsTheirOwnLayer() throws Exception {
        int np = 4, cbNodes = 2;
        int block = 1024 * ThreadLocalRandom.current().nextInt(1, 9), segments = ThreadLocalRandom.current().nextInt(4, 24);
        String why = "block " + block + ", segments " + segments;
        long total = (long) np * block * segments;
        Path data = dir.resolve("coll.dat"), traces = dir.resolve("traces");
        MpjJob.Result r = CollectiveJobs.run(np, CollectiveJobs.args(data.toString(), block, segments, "write", cbNodes),
                Map.of("PDLA_INTERCEPTORS", "tracer", "PDLA_TRACE_DIR", traces.toString()));
        Map<Integer, CollectiveJobs.Coll> coll = CollectiveJobs.coll(r, np);
        List<Integer> aggregators = coll.get(0).aggregators();
        assertEquals(cbNodes, aggregators.size(), r.output());
        for (CollectiveJobs.Coll c : coll.values()) assertEquals(1, c.twoPhase(), "two-phase on rank " + c.rank() + ":\n" + r.output());

        byte[] bytes = Files.readAllBytes(data);
        assertEquals(total, bytes.length, why);
        for (int o = 0; o < bytes.length; o++) if (bytes[o] != CollectiveStrided.value(o)) throw new AssertionError("byte " + o + " wrong, " + why);

        TraceDirectory td = TraceDirectory.open(traces);
        long aggregatorBytes = 0;
        for (int rank = 0; rank < np; rank++) {
            List<TraceRecord> writes;
            try (var s = td.records(rank)) {
                writes = s.filter(x -> x.op() == IoOp.WRITE).collect(Collectors.toList());
            }
            assertEquals(segments, writes.size(), "rank " + rank + ": one record per block of its view, " + why);
            for (int s = 0; s < segments; s++) {
                assertTrue(writes.get(s).collective(), "rank " + rank + " writeAll is collective: " + writes.get(s));
                assertEquals(((long) s * np + rank) * block, writes.get(s).offset(), why);
                assertEquals(block, writes.get(s).length(), why);
            }
            boolean aggregator = aggregators.contains(rank);
            assertEquals(aggregator, td.hasLayer(rank, TraceLayer.AGGREGATOR), "rank " + rank + " aggregator layer iff aggregator " + aggregators);
            List<TraceRecord> agg;
            try (var s = td.records(rank, TraceLayer.AGGREGATOR)) {
                agg = s.collect(Collectors.toList());
            }
            long mine = agg.stream().mapToLong(TraceRecord::length).sum();
            assertEquals(coll.get(rank).aggregatorBytes(), mine, "rank " + rank + "'s aggregator layer is what the engine says it sent, " + why);
            assertTrue(agg.stream().allMatch(x -> x.op() == IoOp.WRITE && x.collective()), agg.toString());
            aggregatorBytes += mine;
        }
        assertEquals(total, aggregatorBytes, "the aggregators wrote every byte once, " + why);

        CounterLog log = CounterLog.load(traces);
        TracedRecord mpiio = log.records(Module.MPIIO).stream().filter(x -> x.rank() == -1).findFirst().orElseThrow();
        assertEquals(np, mpiio.get(MpiioCounter.MPIIO_COLL_WRITES), "one collective write per rank");
        assertEquals(0, mpiio.get(MpiioCounter.MPIIO_INDEP_WRITES));
        assertEquals(np, mpiio.get(MpiioCounter.MPIIO_COLL_OPENS));
        assertEquals(total, mpiio.get(MpiioCounter.MPIIO_BYTES_WRITTEN));
        List<TracedRecord> aggPosix = log.records(Module.AGG_POSIX);
        assertEquals(aggregators, aggPosix.stream().map(TracedRecord::rank).sorted().toList(), "AGG-POSIX records of the aggregators");
        assertEquals(total, aggPosix.stream().mapToLong(x -> x.get(PosixCounter.POSIX_BYTES_WRITTEN)).sum());
        assertEquals(coll.values().stream().mapToLong(CollectiveJobs.Coll::aggregatorCalls).sum(),
                aggPosix.stream().mapToLong(x -> x.get(PosixCounter.POSIX_WRITES)).sum(), "one POSIX write per aggregator storage call (no stripe-size I/O here)");

        // what the pattern analyzer reads: the application's calls only, not the aggregators' windows on top
        TraceSource src = new TracerTraceSources().open(traces);
        for (int rank = 0; rank < np; rank++) {
            long written = 0;
            for (Iterator<TraceRecord> it = src.records(rank); it.hasNext(); ) {
                TraceRecord x = it.next();
                if (x.op() == IoOp.WRITE) written += x.length();
            }
            assertEquals((long) block * segments, written, "analyzer input of rank " + rank);
        }

        StringWriter out = new StringWriter(), err = new StringWriter();
        picocli.CommandLine dump = PdlaCommand.commandLine();
        dump.setOut(new PrintWriter(out));
        dump.setErr(new PrintWriter(err));
        assertEquals(0, dump.execute("trace", "dump", traces.toString(), "--layer", "aggregator"), err.toString());
        long lines = out.toString().lines().filter(l -> !l.startsWith("#")).count();
        assertEquals(aggPosix.stream().mapToLong(x -> x.get(PosixCounter.POSIX_WRITES)).sum(), lines, out.toString());
        assertTrue(out.toString().contains("layer: aggregator"), out.toString());
        StringWriter bad = new StringWriter();
        picocli.CommandLine wrong = PdlaCommand.commandLine();
        wrong.setErr(new PrintWriter(bad));
        assertFalse(wrong.execute("trace", "dump", traces.toString(), "--layer", "posix") == 0);
        assertTrue(bad.toString().contains("unknown trace layer 'posix'"), bad.toString());
    }
}
