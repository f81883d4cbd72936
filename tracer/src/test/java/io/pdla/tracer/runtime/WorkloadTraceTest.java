package io.pdla.tracer.runtime;

import io.pdla.access.IoOp;
import io.pdla.access.TraceRecord;
import io.pdla.tracer.format.JobInfo;
import io.pdla.tracer.format.TraceDirectory;
import io.pdla.tracer.format.TraceFileReader;
import io.pdla.tracer.format.TraceFormat;
import io.pdla.tracer.format.TraceText;
import io.pdla.tracer.testing.TracedJob;
import io.pdla.tracer.testing.Workloads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Traces of known workloads hold exactly the issued requests, in order, per rank, after compression. */
class WorkloadTraceTest {
    @TempDir
    Path tmp;

    private TracedJob job(int nprocs) throws IOException {
        return new TracedJob(Files.createDirectories(tmp.resolve("data")), tmp.resolve("trace"), nprocs, "IorLike -a mpiio");
    }

    /** Compares every rank's trace with the requests the workload issued; returns stats for ratio checks. */
    private static Stats checkTrace(TracedJob job) throws IOException {
        TraceDirectory dir = TraceDirectory.open(job.traceDir);
        assertEquals(job.nprocs, dir.nprocs());
        JobInfo info = dir.job();
        assertEquals("IorLike -a mpiio", info.app().command());
        assertEquals(job.nprocs, info.app().processes());
        assertEquals(info, JobInfo.read(job.traceDir.resolve(JobInfo.FILE_NAME)), "job.json written by the last rank");
        StringWriter log = new StringWriter();
        io.pdla.tracer.counters.DarshanText.print(io.pdla.tracer.counters.CounterLog.load(job.traceDir), true, true, new PrintWriter(log));
        assertEquals(log.toString(), Files.readString(job.traceDir.resolve(io.pdla.tracer.counters.CounterLog.TEXT_FILE)),
                "counter log written by the last rank");
        Stats stats = new Stats();
        for (int r = 0; r < job.nprocs; r++) {
            List<TracedJob.Expected> want = job.expected(r);
            List<TraceRecord> got = new ArrayList<>();
            try (TraceFileReader reader = dir.reader(r)) {
                reader.forEachRemaining(got::add);
                assertTrue(reader.ended(), "rank " + r + " trace sealed by an end record");
                assertEquals(0, reader.droppedRequests());
            }
            assertEquals(want.size(), got.size(), "rank " + r + " request count");
            long previousStart = Long.MIN_VALUE;
            for (int i = 0; i < want.size(); i++) {
                TracedJob.Expected w = want.get(i);
                TraceRecord g = got.get(i);
                String at = "rank " + r + " request " + i;
                assertEquals(r, g.rank(), at);
                assertEquals(w.path(), info.files().get(g.fileId()), at + " file");
                assertEquals(w.op(), g.op(), at);
                assertEquals(w.positioning(), g.positioning(), at);
                assertEquals(w.collective(), g.collective(), at);
                assertEquals(w.offset(), g.offset(), at);
                assertEquals(w.length(), g.length(), at);
                assertTrue(g.startNanos() >= previousStart, at + " starts in issue order");
                assertTrue(g.startNanos() >= 0, at + " after the job start");
                previousStart = g.startNanos();
            }
            stats.requests += got.size();
            stats.bytes += Files.size(dir.dir().resolve(TraceFormat.fileName(r)));
            StringWriter text = new StringWriter();
            try (PrintWriter pw = new PrintWriter(text)) {
                long pid = dir.header(r).pid();
                for (TraceRecord g : got) pw.println(TraceText.line(g, pid, false));
            }
            stats.textBytes += text.toString().getBytes().length;
        }
        for (int r = 0; r < job.nprocs; r++) {
            try (TraceFileReader reader = dir.reader(r)) {
                reader.forEachRemaining(x -> { });
                stats.entries += reader.entriesRead();
            }
        }
        return stats;
    }

    static final class Stats {
        long requests, entries, bytes, textBytes;

        double recordRatio() {
            return (double) requests / entries;
        }

        double sizeRatio() {
            return (double) textBytes / bytes;
        }

        @Override
        public String toString() {
            return String.format("%d requests in %d trace entries (%.1fx), %d bytes binary vs %d bytes text (%.1fx)",
                    requests, entries, recordRatio(), bytes, textBytes, sizeRatio());
        }
    }

    @Test
    void iorSegmentedSharedFile() throws Exception {
        TracedJob job = job(4);
        try (job) {
            Workloads.iorSegmented(job, "ior-seg", 4, 256 * 1024, 4096);
        }
        Stats s = checkTrace(job);
        System.out.println("IOR segmented, 4 ranks, 4 segments, 256 KiB blocks, 4 KiB transfers: " + s);
        assertTrue(s.recordRatio() >= 10, "at least 10x fewer records than requests: " + s);
        assertTrue(s.sizeRatio() >= 10, "binary at least 10x smaller than text: " + s);
    }

    @Test
    void iorStridedCollective() throws Exception {
        TracedJob job = job(4);
        try (job) {
            Workloads.iorStrided(job, "ior-strided", 256, 4096);
        }
        Stats s = checkTrace(job);
        System.out.println("IOR strided, 4 ranks, 256 transfers of 4 KiB each way: " + s);
        assertTrue(s.recordRatio() >= 10, "at least 10x fewer records than requests: " + s);
        assertTrue(s.sizeRatio() >= 10, "binary at least 10x smaller than text: " + s);
    }

    @Test
    void filePerProcess() throws Exception {
        TracedJob job = job(3);
        try (job) {
            Workloads.filePerProcess(job, "fpp", 512 * 1024, 8192);
        }
        Stats s = checkTrace(job);
        System.out.println("IOR file per process, 3 ranks, 512 KiB in 8 KiB transfers: " + s);
        assertEquals(3, TraceDirectory.open(job.traceDir).job().files().size(), "one file per rank");
    }

    @Test
    void tileIoViewReadAsMultiExtentCalls() throws Exception {
        TracedJob job = job(4);
        try (job) {
            Workloads.tileRead(job, "tiles", 2, 64, 32, 8, 4);
        }
        Stats s = checkTrace(job);
        System.out.println("Tile-IO 2x2 tiles of 64x32 8-byte elements, 4 collective reads per rank: " + s);
        // every read call's 16 rows share the call's times
        try (var records = TraceDirectory.open(job.traceDir).records(1)) {
            List<TraceRecord> reads = records.filter(t -> t.op() == IoOp.READ).toList();
            assertEquals(64, reads.size());
            for (int c = 0; c < 4; c++) {
                for (int k = 1; k < 16; k++) {
                    assertEquals(reads.get(c * 16).startNanos(), reads.get(c * 16 + k).startNanos());
                    assertEquals(reads.get(c * 16).endNanos(), reads.get(c * 16 + k).endNanos());
                }
            }
        }
    }

    @Test
    void traceDirectoryFromHintPropertyOrDefault() {
        Path viaHint = TraceSettings.traceDir(Map.of(TraceSettings.HINT_DIR, tmp.resolve("h").toString()));
        assertEquals(tmp.resolve("h"), viaHint);
        String before = System.getProperty(TraceSettings.PROPERTY_DIR);
        System.setProperty(TraceSettings.PROPERTY_DIR, tmp.resolve("p").toString());
        try {
            assertEquals(tmp.resolve("p"), TraceSettings.traceDir(Map.of()));
            assertEquals(tmp.resolve("h"), TraceSettings.traceDir(Map.of(TraceSettings.HINT_DIR, tmp.resolve("h").toString())));
        } finally {
            if (before == null) System.clearProperty(TraceSettings.PROPERTY_DIR);
            else System.setProperty(TraceSettings.PROPERTY_DIR, before);
        }
    }
}
