package io.pdla.tracer.format;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.tracer.counters.CounterLog;
import io.pdla.tracer.counters.TracedRecord;
import io.pdla.tracer.counters.Module;
import io.pdla.darshan.PosixCounter;
import io.pdla.tracer.testing.TracedJob;
import io.pdla.tracer.testing.Workloads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Truncated and corrupted trace and counter files are rejected naming the file and the byte. */
class DamagedFilesTest {
    @TempDir
    Path tmp;

    private long checkpointEnd;
    private long requestsBeforeCheckpoint;

    private byte[] sampleTrace() {
        ByteArraySink sink = new ByteArraySink();
        sink.putBytes(new TraceHeader(TraceFormat.VERSION, 0, 1, 99, 5, 6, 7).encode());
        TraceEncoder enc = new TraceEncoder(sink);
        enc.file(1, "/x");
        int kind = TraceFormat.kind(IoOp.WRITE, Positioning.EXPLICIT_OFFSET, false);
        for (int i = 0; i < 40; i++) enc.add(kind, 1, i * 8192L, 4096, 100 + i * 37L * (i % 3), 150 + i * 37L * (i % 3) + i);
        enc.checkpoint(0);
        checkpointEnd = sink.size();
        requestsBeforeCheckpoint = enc.requests();
        for (int i = 0; i < 7; i++) enc.add(TraceFormat.kind(IoOp.READ, Positioning.INDIVIDUAL_POINTER, true), 1, 3 * i, 3, 9000 + i, 9100 + 2 * i);
        enc.end(0);
        return sink.toByteArray();
    }

    @Test
    void everyTruncationOfATraceIsRejectedAtItsEndUnlessItEndsAtACheckpoint() throws IOException {
        byte[] full = sampleTrace();
        Path f = tmp.resolve("rank-0.pdlt");
        for (int cut = 0; cut < full.length; cut++) {
            Files.write(f, java.util.Arrays.copyOf(full, cut));
            if (cut == checkpointEnd) {
                assertEquals(requestsBeforeCheckpoint, TraceFileReader.verify(f), "a trace ending at a checkpoint is complete up to it");
                continue;
            }
            int c = cut;
            TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceFileReader.verify(f), "cut at " + cut);
            assertEquals(f, e.file());
            assertEquals(c, e.bytePosition(), e.getMessage());
            assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains("byte " + c), e.getMessage());
        }
        Files.write(f, full);
        assertEquals(47, TraceFileReader.verify(f));
    }

    @Test
    void everyCorruptedByteOfATraceIsDetected() throws IOException {
        byte[] full = sampleTrace();
        Path f = tmp.resolve("rank-0.pdlt");
        for (int p = 0; p < full.length; p++) {
            byte[] bad = full.clone();
            bad[p] ^= (byte) 0x5A;
            Files.write(f, bad);
            TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceFileReader.verify(f), "byte " + p + " flipped");
            assertTrue(e.bytePosition() >= 0 && e.bytePosition() <= full.length, e.getMessage());
            assertTrue(e.getMessage().startsWith(f.toString()), e.getMessage());
        }
    }

    private Path runSmallJob(int nprocs) throws Exception {
        TracedJob job = new TracedJob(Files.createDirectories(tmp.resolve("data")), tmp.resolve("trace"), nprocs, "Small");
        try (job) {
            Workloads.iorStrided(job, "s", 8, 1024);
        }
        return job.traceDir;
    }

    @Test
    void everyTruncationOrCorruptionOfACounterFileIsRejected() throws Exception {
        Path dir = runSmallJob(1);
        Path f = dir.resolve(RankSummary.fileName(0));
        byte[] full = Files.readAllBytes(f);
        RankSummary good = CounterFile.read(f);
        assertEquals(2, good.records().size());
        for (int cut = 0; cut < full.length; cut++) {
            Files.write(f, java.util.Arrays.copyOf(full, cut));
            TraceFormatException e = assertThrows(TraceFormatException.class, () -> CounterFile.read(f), "cut at " + cut);
            assertEquals(cut, e.bytePosition(), e.getMessage());
            assertTrue(e.getMessage().contains(f.toString()), e.getMessage());
        }
        for (int p = 0; p < full.length; p++) {
            byte[] bad = full.clone();
            bad[p] ^= (byte) 0x21;
            Files.write(f, bad);
            TraceFormatException e = assertThrows(TraceFormatException.class, () -> CounterFile.read(f), "byte " + p + " flipped");
            assertTrue(e.getMessage().contains(f.toString()), e.getMessage());
        }
        Files.write(f, full);
        TracedRecord posix = CounterFile.read(f).records().stream().filter(r -> r.module() == Module.POSIX).findFirst().orElseThrow();
        assertEquals(16, posix.get(PosixCounter.POSIX_WRITES) + posix.get(PosixCounter.POSIX_READS));
    }

    @Test
    void aMissingRankIsReportedAsSuch() throws Exception {
        Path dir = runSmallJob(3);
        Files.delete(dir.resolve(TraceFormat.fileName(1)));
        TraceDirectoryException e = assertThrows(TraceDirectoryException.class, () -> TraceDirectory.open(dir));
        assertEquals(List.of(1), e.missingRanks());
        assertTrue(e.getMessage().contains("rank-1.pdlt") && e.getMessage().contains("3-process"), e.getMessage());

        Files.delete(dir.resolve(RankSummary.fileName(2)));
        TraceDirectoryException c = assertThrows(TraceDirectoryException.class, () -> CounterLog.load(dir));
        assertEquals(List.of(2), c.missingRanks());
        assertTrue(c.getMessage().contains("rank-2.pdlc"), c.getMessage());
    }

    @Test
    void ranksThatOpenedNoFileAreMissingUnlessAllowed() throws Exception {
        TracedJob job = new TracedJob(Files.createDirectories(tmp.resolve("data")), tmp.resolve("trace"), 3, "Subset");
        try (job) {
            job.runRanks(rank -> {
                if (rank == 1) return; // rank 1 does no I/O at all
                TracedJob.RankFile f = job.open(rank, "sub", 3);
                f.write(Positioning.EXPLICIT_OFFSET, false, io.pdla.access.ExtentList.of(rank * 100L, 100));
                f.close();
            });
        }
        TraceDirectoryException e = assertThrows(TraceDirectoryException.class, () -> TraceDirectory.open(job.traceDir));
        assertEquals(List.of(1), e.missingRanks());
        TraceDirectory lenient = TraceDirectory.open(job.traceDir, true);
        assertEquals(List.of(1), lenient.missingRanks());
        try (var none = lenient.records(1); var some = lenient.records(2)) {
            assertEquals(0, none.count());
            assertEquals(3, some.count(), "open, write, close");
        }
        assertEquals(2, lenient.summaries().size());
        assertThrows(TraceDirectoryException.class, () -> CounterLog.load(job.traceDir));
        CounterLog log = CounterLog.load(job.traceDir, true);
        assertEquals(4, log.records().size(), "two ranks x two modules, nothing shared");
        assertTrue(log.records().stream().noneMatch(r -> r.rank() == -1));
    }

    @Test
    void anEmptyOrForeignDirectoryIsRejected() throws IOException {
        assertThrows(TraceDirectoryException.class, () -> TraceDirectory.open(tmp));
        Files.writeString(tmp.resolve("rank-0.pdlt"), "hello, not a trace at all");
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceDirectory.open(tmp));
        assertTrue(e.getMessage().contains("bad magic"), e.getMessage());
    }
}
