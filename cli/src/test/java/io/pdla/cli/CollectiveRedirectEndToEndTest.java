package io.pdla.cli;

import io.pdla.mpiio.launch.MpjJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PDLA loop for a collective reader with collective buffering forced on (romio_cb_read=enable), under
 * real MPJ ranks: run 1 of a strided readAll through a file view is traced; `pdla analyze` learns from the
 * application layer (the rank's own view, not the aggregators' windows); `pdla daemon --once` builds the
 * replicas; run 2 of the same command through redirect reads, and the program verifies, exactly the bytes
 * written, and says what served them: redirect's replicas, with nothing left for two-phase to move (the
 * chain still brings every rank to the collective engine, which then has nothing to do).
 */
class CollectiveRedirectEndToEndTest {
    @TempDir
    Path dir;

    @Test
    void runTwoOfACollectiveReaderIsServedFromReplicas() throws Exception {
        int np = 4, cbNodes = 2, block = 16384, segments = 16, more = 8;
        String data = dir.resolve("coll.dat").toString();
        Path traces = dir.resolve("traces"), patterns = dir.resolve("patterns"), catalog = dir.resolve("catalog");
        // run 0 writes the file (another command: not the application being optimised)
        CollectiveJobs.run(np, CollectiveJobs.args(data, block, segments + more, "write", cbNodes), Map.of("PDLA_INTERCEPTORS", "none"));
        List<String> reader = CollectiveJobs.args(data, block, segments, "read", cbNodes);

        MpjJob.Result run1 = CollectiveJobs.run(np, reader, Map.of("PDLA_INTERCEPTORS", "tracer", "PDLA_TRACE_DIR", traces.toString()));
        for (CollectiveJobs.Coll c : CollectiveJobs.coll(run1, np).values()) {
            assertEquals(1, c.twoPhase(), "run 1 reads through two-phase on rank " + c.rank() + ":\n" + run1.output());
        }
        assertEquals(0, PdlaCommand.commandLine().execute("analyze", traces.toString(), "--db", patterns.toString()));
        assertEquals(0, PdlaCommand.commandLine().execute("daemon", "--once", "--db", catalog.toString(), "--patterns", patterns.toString()));

        MpjJob.Result run2 = CollectiveJobs.run(np, reader, Map.of("PDLA_INTERCEPTORS", "redirect", "PDLA_CATALOG", catalog.toString()));
        assertTrue(!run2.output().contains("differs"), run2.output());
        for (CollectiveJobs.Redirected r : CollectiveJobs.redirected(run2, np).values()) {
            assertTrue(r.fromReplica() > 0, "rank " + r.rank() + "'s collective read served from its replica:\n" + run2.output());
            assertEquals(0, r.fromOriginal(), "rank " + r.rank() + " read nothing from the original:\n" + run2.output());
            assertEquals((long) block * segments, r.bytesFromReplica(), "every byte of rank " + r.rank() + " from its replica:\n" + run2.output());
        }
        for (CollectiveJobs.Coll c : CollectiveJobs.coll(run2, np).values()) {
            assertEquals(0, c.aggregatorBytes(), "nothing left for the aggregators on rank " + c.rank() + ":\n" + run2.output());
        }

        // The same application reading further than its replicas reach: each rank's replica serves what it
        // covers, the rest of every rank's request goes through two-phase together.
        String app = io.pdla.cli.programs.CollectiveStrided.class.getName() + " " + String.join(" ", reader);
        MpjJob.Result longer = CollectiveJobs.run(np, CollectiveJobs.args(data, block, segments + more, "read", cbNodes),
                Map.of("PDLA_INTERCEPTORS", "redirect", "PDLA_CATALOG", catalog.toString(), "PDLA_APP", app));
        assertTrue(!longer.output().contains("differs"), longer.output());
        for (CollectiveJobs.Redirected r : CollectiveJobs.redirected(longer, np).values()) {
            assertEquals((long) block * segments, r.bytesFromReplica(), "rank " + r.rank() + "'s replica served what it covers:\n" + longer.output());
        }
        long aggregated = 0;
        for (CollectiveJobs.Coll c : CollectiveJobs.coll(longer, np).values()) {
            assertEquals(1, c.twoPhase(), "the rest went through two-phase on rank " + c.rank() + ":\n" + longer.output());
            aggregated += c.aggregatorBytes();
        }
        assertEquals((long) np * block * more, aggregated, "the aggregators read exactly what no replica covers:\n" + longer.output());
    }
}
