package io.pdla.tracer.runtime;

import io.pdla.access.ExtentList;
import io.pdla.access.Positioning;
import io.pdla.access.TraceRecord;
import io.pdla.tracer.format.RankSummary;
import io.pdla.tracer.format.TraceDirectory;
import io.pdla.tracer.format.TraceFileReader;
import io.pdla.tracer.format.TraceFormat;
import io.pdla.tracer.testing.TracedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A writer that cannot keep up (the trace file is a pipe nobody reads for a while): calls are not held up
 * for long, records beyond the hard limit are dropped and counted, and what was kept reads back in order.
 */
class BackpressureTest {
    @TempDir
    Path tmp;

    @Test
    void stalledWriterDropsWholeCallsAndCountsThem() throws Exception {
        Path traceDir = Files.createDirectories(tmp.resolve("trace"));
        Path fifo = traceDir.resolve(TraceFormat.fileName(0));
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertEquals(0, mk.waitFor());
        Path copy = tmp.resolve("copy.pdlt");
        CountDownLatch release = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try (InputStream in = Files.newInputStream(fifo); OutputStream out = Files.newOutputStream(copy)) {
                out.write(in.readNBytes(TraceFormat.HEADER_BYTES));
                release.await();
                in.transferTo(out);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        reader.start();

        System.setProperty(TraceSettings.PROPERTY_SOFT_BACKLOG, Long.toString(16 * 1024));
        System.setProperty(TraceSettings.PROPERTY_HARD_BACKLOG, Long.toString(64 * 1024));
        int calls = 40_000;
        long started;
        long elapsed;
        TracedJob job = new TracedJob(Files.createDirectories(tmp.resolve("data")), traceDir, 1, "Stalled");
        try {
            TracedJob.RankFile f = job.open(0, "d", 1);
            started = System.nanoTime();
            // offsets scattered so that runs do not compress: about 8 bytes of trace per call
            for (int i = 0; i < calls; i++) f.write(Positioning.EXPLICIT_OFFSET, false, ExtentList.of((i * 7919L) % 65_521 * 16, 16));
            elapsed = System.nanoTime() - started;
            release.countDown();
            f.close();
        } finally {
            System.clearProperty(TraceSettings.PROPERTY_SOFT_BACKLOG);
            System.clearProperty(TraceSettings.PROPERTY_HARD_BACKLOG);
            release.countDown();
            job.close();
        }
        reader.join(TimeUnit.SECONDS.toMillis(30));
        // one wait of 20 ms at most while the writer was stuck, then drops without waiting
        assertTrue(elapsed < TimeUnit.SECONDS.toNanos(20), "calls were held up for " + elapsed / 1e6 + " ms");

        Path readable = Files.createDirectories(tmp.resolve("readable"));
        Files.copy(copy, readable.resolve(TraceFormat.fileName(0)));
        Files.copy(traceDir.resolve(RankSummary.fileName(0)), readable.resolve(RankSummary.fileName(0)));
        TraceDirectory dir = TraceDirectory.open(readable);
        List<TraceRecord> kept = new ArrayList<>();
        long dropped;
        try (TraceFileReader r = dir.reader(0)) {
            r.forEachRemaining(kept::add);
            dropped = r.droppedRequests();
            assertTrue(r.ended());
        }
        List<TracedJob.Expected> issued = job.expected(0);
        assertTrue(dropped > 0, "the stalled writer must have forced drops");
        assertEquals(issued.size(), kept.size() + dropped, "every request is either in the trace or counted as dropped");
        assertEquals(dropped, dir.job().droppedRequests());
        // what was kept is the issued sequence with whole calls left out, in order
        int j = 0;
        for (TraceRecord k : kept) {
            while (j < issued.size() && !(issued.get(j).op() == k.op() && issued.get(j).offset() == k.offset() && issued.get(j).length() == k.length())) j++;
            assertTrue(j < issued.size(), "kept record " + k + " not in issue order");
            j++;
        }
        // counters are never dropped
        long writes = dir.summaries().get(0).records().stream().filter(r -> r.module() == io.pdla.tracer.counters.Module.MPIIO)
                .mapToLong(r -> r.get(io.pdla.darshan.MpiioCounter.MPIIO_INDEP_WRITES)).sum();
        assertEquals(calls, writes);
    }
}
