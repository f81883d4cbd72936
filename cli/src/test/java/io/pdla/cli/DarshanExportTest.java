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
import static org.junit.jupiter.api.Assertions.*;
import io.pdla.darshan.DarshanLog;
import io.pdla.darshan.DarshanReader;
import io.pdla.darshan.DxtRecord;
import io.pdla.darshan.ModuleId;
import io.pdla.tracer.counters.DarshanHash;
import io.pdla.tracer.counters.DarshanLogExport;
import java.nio.file.Files;

/** A traced run written as a Darshan log (pdla counters --darshan, and the tracer at finalize) and read back. */
class DarshanExportTest {
    private static final int RANKS = 2, WRITES = 6, SIZE = 1000;

    @TempDir
    Path tmp;
    private Path traceDir;
    private Path data;

    @BeforeEach
    void tracedJob() throws Exception {
        traceDir = tmp.resolve("trace");
        data = tmp.resolve("shared.dat");
        PosixDriver driver = new PosixDriver();
        // " TRUE ": the boolean is read trimmed and in any case, not as a file named " TRUE " in the working directory
        Map<String, String> hints = Map.of(TraceSettings.HINT_DIR, traceDir.toString(), DarshanLogExport.HINT, " TRUE ");
        for (int rank = 0; rank < RANKS; rank++) {
            FileContext ctx = new FileContext("shared.dat", data.toUri(), 9, rank, RANKS, new AppIdentity("StridedApp", RANKS),
                    Map.of(), driver, driver.open(data.toUri(), OpenOptions.createReadWrite()));
            InterceptorChain chain = new InterceptorChain(List.of(new TracingInterceptor(hints)));
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
    void countersDarshanWritesALogThatReadsBackToTheSameCounterLines() throws Exception {
        Path out = tmp.resolve("run.darshan");
        AnalyzeCommandTest.Run w = AnalyzeCommandTest.run(new CountersCommand(), traceDir.toString(), "--darshan", out.toString());
        assertEquals(0, w.code(), w.err());
        DarshanLog log = new DarshanReader().read(out);
        assertEquals("3.41", log.header().version());
        assertEquals(RANKS, log.job().nprocs());
        assertEquals("StridedApp", log.job().exe());
        String path = data.toAbsolutePath().normalize().toString();
        long id = DarshanHash.of(path);
        assertEquals(path, log.name(id));
        for (ModuleId module : List.of(ModuleId.DXT_MPIIO, ModuleId.DXT_POSIX)) {
            List<DxtRecord> dxt = log.module(module).recordsOf(DxtRecord.class);
            assertEquals(RANKS, dxt.size(), module.label());
            for (DxtRecord d : dxt) {
                assertEquals(id, d.id());
                assertEquals(WRITES, d.writeCount());
                for (int i = 0; i < WRITES; i++) assertEquals(((long) i * RANKS + d.rank()) * SIZE, d.offsets()[i], module.label());
            }
        }
        // DXT_POSIX lists the operations the POSIX counters count (one per flattened extent)
        long posixOps = log.module(ModuleId.POSIX).recordsOf(io.pdla.darshan.CounterRecord.class).stream()
                .mapToLong(r -> r.counters()[io.pdla.darshan.PosixCounter.POSIX_WRITES.ordinal()]
                        + r.counters()[io.pdla.darshan.PosixCounter.POSIX_READS.ordinal()]).sum();
        assertEquals(RANKS * WRITES, posixOps);
        assertEquals(posixOps, log.module(ModuleId.DXT_POSIX).recordsOf(DxtRecord.class).stream()
                .mapToLong(DxtRecord::segmentCount).sum());
        // the tracer's own darshan-parser-layout text and our parse of the exported log agree line by line
        AnalyzeCommandTest.Run text = AnalyzeCommandTest.run(new CountersCommand(), traceDir.toString());
        AnalyzeCommandTest.Run parsed = AnalyzeCommandTest.run(new DarshanCommand(), "parse", out.toString());
        assertEquals(0, parsed.code(), parsed.err());
        List<String> fromTracer = text.out().lines().filter(l -> l.startsWith("POSIX\t") || l.startsWith("MPI-IO\t")).toList();
        List<String> fromLog = parsed.out().lines().filter(l -> l.startsWith("POSIX\t") || l.startsWith("MPI-IO\t")).toList();
        assertFalse(fromTracer.isEmpty());
        assertEquals(fromTracer, fromLog);
    }

    @Test
    void theTracerWritesTheLogAtFinalizeWhenTheHintAsksForIt() throws Exception {
        Path log = traceDir.resolve(DarshanLogExport.DEFAULT_NAME);
        assertTrue(Files.isRegularFile(log), "finalize with " + DarshanLogExport.HINT + "=true writes " + log);
        DarshanLog read = new DarshanReader().read(log);
        assertNull(read.firstError());
        for (ModuleId module : List.of(ModuleId.DXT_MPIIO, ModuleId.DXT_POSIX)) {
            assertEquals(RANKS * WRITES, read.module(module).recordsOf(DxtRecord.class).stream()
                    .mapToInt(DxtRecord::segmentCount).sum(), module.label());
        }
    }
}
