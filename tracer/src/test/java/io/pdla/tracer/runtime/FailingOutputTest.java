package io.pdla.tracer.runtime;

import io.pdla.tracer.format.TraceDirectory;
import io.pdla.tracer.format.TraceFormat;
import io.pdla.tracer.format.RankSummary;
import io.pdla.tracer.testing.TracedJob;
import io.pdla.tracer.testing.Workloads;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When trace output fails, tracing turns itself off with one warning and the application's I/O is unharmed. */
class FailingOutputTest {
    @TempDir
    Path tmp;

    private final List<LogRecord> warnings = new CopyOnWriteArrayList<>();
    private final Logger logger = Logger.getLogger(RankTracer.class.getName());
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue()) warnings.add(r);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        logger.addHandler(capture);
    }

    @AfterEach
    void stopListening() {
        logger.removeHandler(capture);
    }

    /** The data file holds exactly what the workload wrote, checked without going through pdla. */
    private static void assertDataIntact(Path dataFile, long bytes) throws Exception {
        byte[] all = Files.readAllBytes(dataFile);
        assertEquals(bytes, all.length);
        for (int o = 0; o < all.length; o++) {
            if (all[o] != TracedJob.content(o)) throw new AssertionError(dataFile + " wrong at byte " + o);
        }
    }

    @Test
    void traceDirectoryUnderARegularFile() throws Exception {
        Path plain = Files.writeString(tmp.resolve("plain.txt"), "a file, so no directory can be made under it");
        TracedJob job = new TracedJob(Files.createDirectories(tmp.resolve("data")), plain.resolve("trace"), 2, "Unwritable");
        try (job) {
            // every read inside the workload is checked against what was written
            Workloads.iorSegmented(job, "ior", 2, 32 * 1024, 4096);
            Workloads.iorSegmented(job, "ior2", 1, 8 * 1024, 4096);
        }
        assertDataIntact(job.dataDir.resolve("ior"), 2L * 2 * 32 * 1024);
        assertEquals(2, warnings.size(), "one warning per rank, not one per call or file: " + warnings);
        assertTrue(warnings.get(0).getMessage().contains("tracing is off"), warnings.get(0).getMessage());
        assertFalse(Files.exists(plain.resolve("trace")));
    }

    @Test
    void diskFullOnTheTraceFile() throws Exception {
        Path traceDir = Files.createDirectories(tmp.resolve("trace"));
        Files.createSymbolicLink(traceDir.resolve(TraceFormat.fileName(0)), Path.of("/dev/full"));
        TracedJob job = new TracedJob(Files.createDirectories(tmp.resolve("data")), traceDir, 1, "DiskFull");
        try (job) {
            Workloads.filePerProcess(job, "f", 64 * 1024, 4096);
        }
        assertDataIntact(job.dataDir.resolve("f.0"), 64 * 1024);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).getMessage().contains("No space left"), warnings.get(0).getMessage());
    }

    @Test
    void summaryThatCannotBeWrittenSwitchesTracingOffButKeepsTheTraceReadable() throws Exception {
        Path traceDir = Files.createDirectories(tmp.resolve("trace"));
        Path blocker = Files.createDirectories(traceDir.resolve(RankSummary.fileName(0)));
        Files.writeString(blocker.resolve("x"), "a non-empty directory where the summary should go");
        TracedJob job = new TracedJob(Files.createDirectories(tmp.resolve("data")), traceDir, 1, "NoSummary");
        try (job) {
            Workloads.filePerProcess(job, "f", 32 * 1024, 4096);
            Workloads.filePerProcess(job, "g", 32 * 1024, 4096);
        }
        assertDataIntact(job.dataDir.resolve("g.0"), 32 * 1024);
        assertEquals(1, warnings.size(), warnings.toString());
        // the first file's trace was sealed by its checkpoint before the summary failed
        TraceDirectory dir = TraceDirectory.open(traceDir);
        try (var records = dir.records(0)) {
            assertEquals(job.expected(0).stream().filter(e -> e.path().endsWith("f.0")).count(), records.count());
        }
    }
}
