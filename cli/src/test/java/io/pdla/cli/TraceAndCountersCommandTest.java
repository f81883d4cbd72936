package io.pdla.cli;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.AppIdentity;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.IoCall;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.posix.PosixDriver;
import io.pdla.tracer.runtime.TraceSettings;
import io.pdla.tracer.runtime.Tracing;
import io.pdla.tracer.runtime.TracingInterceptor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceAndCountersCommandTest {
    private static final int RANKS = 2, WRITES = 6, SIZE = 1000;

    @TempDir
    Path tmp;
    private Path traceDir;

    private record Run(int exitCode, String out, String err) {
        List<String> lines() {
            return Arrays.asList(out.strip().split("\\R"));
        }
    }

    private static Run run(Object command, String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cmd = new CommandLine(command);
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        int code = cmd.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    /** A two-rank strided write of a shared file, traced through the interceptor chain of core. */
    @BeforeEach
    void tracedJob() throws Exception {
        traceDir = tmp.resolve("trace");
        Path data = tmp.resolve("shared.dat");
        PosixDriver driver = new PosixDriver();
        for (int rank = 0; rank < RANKS; rank++) {
            FileContext ctx = new FileContext("shared.dat", data.toUri(), 9, rank, RANKS, new AppIdentity("StridedApp", RANKS),
                    Map.of(), driver, driver.open(data.toUri(), OpenOptions.createReadWrite()));
            InterceptorChain chain = new InterceptorChain(List.of(new TracingInterceptor(Map.of(TraceSettings.HINT_DIR, traceDir.toString()))));
            chain.opened(ctx);
            for (int i = 0; i < WRITES; i++) {
                long off = ((long) i * RANKS + rank) * SIZE;
                chain.execute(IoCall.data(ctx, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(off, SIZE), ByteBuffer.allocate(SIZE)));
            }
            chain.closing(ctx);
            ctx.file().close();
        }
        Tracing.finishAll();
    }

    @Test
    void dumpPrintsOneLinePerRequestInIssueOrder() {
        Run r = run(new TraceCommand(), "dump", traceDir.toString());
        assertEquals(0, r.exitCode(), r.err());
        List<String> requests = r.lines().stream().filter(l -> !l.startsWith("#")).toList();
        assertEquals(RANKS * (WRITES + 2), requests.size(), "open, writes and close per rank");
        List<String> rank1Writes = requests.stream().filter(l -> l.startsWith("1 ") && l.contains(" WRITE ")).toList();
        for (int i = 0; i < WRITES; i++) {
            String[] f = rank1Writes.get(i).split(" ");
            assertEquals("EXPLICIT_OFFSET", f[4]);
            assertEquals("indep", f[5]);
            assertEquals(Long.toString(((long) i * RANKS + 1) * SIZE), f[6]);
            assertEquals(Integer.toString(SIZE), f[7]);
            assertTrue(Long.parseLong(f[9]) >= Long.parseLong(f[8]));
        }
        assertTrue(r.out().contains("shared.dat"), "file table names the path");
    }

    @Test
    void dumpAsCsv() {
        Run r = run(new TraceCommand(), "dump", traceDir.toString(), "--csv");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("rank,pid,file_id,op,positioning,mode,offset,length,start_ns,end_ns", r.lines().get(0));
        assertEquals(1 + RANKS * (WRITES + 2), r.lines().size());
        assertEquals(10, r.lines().get(1).split(",").length);
    }

    @Test
    void countersInDarshanParserLayoutWithTotalAndPerf() {
        Run r = run(new CountersCommand(), traceDir.toString(), "--total", "--perf");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("# nprocs: " + RANKS + "\n"), r.out());
        String written = r.lines().stream().filter(l -> l.startsWith("POSIX\t-1\t") && l.contains("\tPOSIX_BYTES_WRITTEN\t")).findFirst().orElseThrow();
        assertEquals(Integer.toString(RANKS * WRITES * SIZE), written.split("\t")[4]);
        assertTrue(r.out().contains("total_MPIIO_INDEP_WRITES: " + RANKS * WRITES + "\n"), r.out());
        assertTrue(r.out().contains("# total_bytes: " + RANKS * WRITES * SIZE + "\n"), r.out());
    }

    @Test
    void missingRankAndDamagedFilesAreBadInput() throws Exception {
        Files.delete(traceDir.resolve("rank-1.pdlt"));
        Run dump = run(new TraceCommand(), "dump", traceDir.toString());
        assertEquals(2, dump.exitCode());
        assertTrue(dump.err().contains("missing trace of rank(s) [1]"), dump.err());
        Run lenient = run(new TraceCommand(), "dump", traceDir.toString(), "--allow-missing");
        assertEquals(0, lenient.exitCode(), lenient.err());
        assertEquals(WRITES + 2, lenient.lines().stream().filter(l -> !l.startsWith("#")).count(), "rank 0 only");
        assertTrue(lenient.out().contains("# ranks without a trace (no file opened): [1]"), lenient.out());

        Path counters = traceDir.resolve("rank-0.pdlc");
        byte[] b = Files.readAllBytes(counters);
        Files.write(counters, Arrays.copyOf(b, b.length / 2));
        Run c = run(new CountersCommand(), traceDir.toString());
        assertEquals(2, c.exitCode());
        assertTrue(c.err().contains("rank-0.pdlc, byte " + b.length / 2 + ": truncated"), c.err());

        assertEquals(2, run(new CountersCommand(), tmp.resolve("nowhere").toString()).exitCode());
    }
}
