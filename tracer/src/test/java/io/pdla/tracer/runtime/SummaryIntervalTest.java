package io.pdla.tracer.runtime;

import io.pdla.access.ExtentList;
import io.pdla.access.Positioning;
import io.pdla.tracer.format.CounterFile;
import io.pdla.tracer.format.RankSummary;
import io.pdla.tracer.testing.TracedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.LongPredicate;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The rank's summary file is rewritten when the rank has no open file, at most once per
 * {@value TraceSettings#HINT_SUMMARY_INTERVAL} (a job that opens and closes a file per phase would otherwise
 * pay a file write and rename per phase), and always at shutdown.
 */
class SummaryIntervalTest {
    @TempDir
    Path tmp;

    private static long requests(Path summary) throws Exception {
        return CounterFile.read(summary).requestsTraced();
    }

    /** Waits up to 5 s for the summary to exist and satisfy {@code ok}; returns its request count. */
    private static long await(Path summary, LongPredicate ok) throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        long last = -1;
        while (System.nanoTime() < deadline) {
            if (Files.exists(summary)) {
                last = requests(summary);
                if (ok.test(last)) return last;
            }
            Thread.sleep(10);
        }
        return fail("summary " + summary + " never reached the expected state (last request count " + last + ")");
    }

    private static void phase(TracedJob job, String name, Map<String, String> hints) throws Exception {
        TracedJob.RankFile f = job.open(0, name, 1, hints);
        for (int i = 0; i < 8; i++) f.write(Positioning.EXPLICIT_OFFSET, false, ExtentList.of(i * 4096L, 4096));
        f.close();
    }

    @Test
    void closesWithinTheIntervalDoNotRewriteTheSummaryAndShutdownWritesTheLast() throws Exception {
        Path trace = tmp.resolve("trace");
        TracedJob job = new TracedJob(Files.createDirectories(tmp.resolve("data")), trace, 1, "Interval");
        Path summary = trace.resolve(RankSummary.fileName(0));
        long first;
        try (job) {
            phase(job, "a", Map.of(TraceSettings.HINT_SUMMARY_INTERVAL, "60000"));
            first = await(summary, n -> n > 0);
            phase(job, "b", Map.of());
            Thread.sleep(500);   // the writer thread would have rewritten it by now
            assertEquals(first, requests(summary), "the second close, within the interval, must not rewrite the summary");
        }
        assertTrue(requests(summary) > first, "shutdown writes the summary of both files");
    }

    @Test
    void intervalZeroRewritesAtEveryClose() throws Exception {
        Path trace = tmp.resolve("trace");
        TracedJob job = new TracedJob(Files.createDirectories(tmp.resolve("data")), trace, 1, "EveryClose");
        Path summary = trace.resolve(RankSummary.fileName(0));
        try (job) {
            phase(job, "a", Map.of(TraceSettings.HINT_SUMMARY_INTERVAL, "0"));
            long first = await(summary, n -> n > 0);
            phase(job, "b", Map.of());
            await(summary, n -> n > first);
        }
    }

    @Test
    void aBadIntervalIsReportedNamingTheHintAndTheDefaultIsUsed() throws Exception {
        java.util.List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        Logger logger = Logger.getLogger(RankTracer.class.getName());
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                warnings.add(r.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(capture);
        try {
            Path trace = tmp.resolve("trace");
            TracedJob job = new TracedJob(Files.createDirectories(tmp.resolve("data")), trace, 1, "BadInterval");
            try (job) {
                phase(job, "a", Map.of(TraceSettings.HINT_SUMMARY_INTERVAL, "soon"));
            }
            assertTrue(Files.exists(trace.resolve(RankSummary.fileName(0))), "tracing goes on with the default");
        } finally {
            logger.removeHandler(capture);
        }
        assertTrue(warnings.stream().anyMatch(w -> w.contains(TraceSettings.HINT_SUMMARY_INTERVAL) && w.contains("'soon'")), warnings.toString());
        assertEquals(1000, TraceSettings.DEFAULT_SUMMARY_INTERVAL_MILLIS);
        assertEquals(0, TraceSettings.summaryIntervalNanos(Map.of(TraceSettings.HINT_SUMMARY_INTERVAL, "0"), w -> fail(w)));
    }
}
