package io.pdla.cli;

import io.pdla.access.IoOp;
import io.pdla.access.TraceRecord;
import io.pdla.cli.programs.HelloShim;
import io.pdla.tracer.format.TraceDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `pdla run --trace` under real MPJ ranks: every rank's write is in its own trace, with the job identity. */
class TracedRunTest {
    @TempDir
    Path dir;

    @Test
    void eachRanksWriteIsTracedUnderItsWorldRank() throws Exception {
        Path data = dir.resolve("hello.dat");
        Path traces = dir.resolve("traces");
        int code = PdlaCommand.commandLine().execute("run", "-np", "3", "--trace", traces.toString(), "--timeout", "120",
                "--", HelloShim.class.getName(), data.toString());
        assertEquals(0, code);
        assertEquals("ABC", Files.readString(data), "tracing left the application's data intact");
        {
            TraceDirectory td = TraceDirectory.open(traces);
            assertEquals(3, td.job().app().processes());
            assertTrue(td.job().app().command().contains(HelloShim.class.getName()), td.job().app().command());
            for (int rank = 0; rank < 3; rank++) {
                List<TraceRecord> writes;
                try (var s = td.records(rank)) {
                    writes = s.filter(r -> r.op() == IoOp.WRITE).collect(Collectors.toList());
                }
                assertEquals(1, writes.size(), "rank " + rank + ": " + writes);
                assertEquals(rank, writes.get(0).offset());
                assertEquals(1, writes.get(0).length());
                assertTrue(writes.get(0).collective(), "writeAtAll is recorded as collective");
            }
        }
    }
}
