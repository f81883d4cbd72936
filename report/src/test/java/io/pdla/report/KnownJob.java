package io.pdla.report;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.access.TraceRecord;
import io.pdla.patterns.InMemoryTraceSource;
import io.pdla.patterns.TracedJob;

import io.pdla.patterns.rootcause.TraceFileStats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import java.util.TreeMap;

/**
 * A job whose every call is known: {@code ranks} ranks read a shared file in IOR's strided shape ({@code segments}
 * blocks of {@code block} bytes each, rank r's block i at (i*ranks + r)*block), 1 ms per call, back to back; and
 * rank 0 writes a small log file of {@code logWrites} 100-byte records afterwards.
 */
final class KnownJob {
    static final String SHARED = "/data/strided.dat", LOG = "/data/run.log";

    final int ranks, segments, block, logWrites;
    final Map<Integer, List<TraceRecord>> byRank = new TreeMap<>();

    KnownJob(int ranks, int segments, int block, int logWrites) {
        this.ranks = ranks;
        this.segments = segments;
        this.block = block;
        this.logWrites = logWrites;
        long ms = 1_000_000;
        for (int r = 0; r < ranks; r++) {
            List<TraceRecord> l = new ArrayList<>();
            for (int i = 0; i < segments; i++) {
                long off = ((long) i * ranks + r) * block;
                l.add(new TraceRecord(r, 0, IoOp.READ, Positioning.EXPLICIT_OFFSET, false, off, block, i * ms, i * ms + ms - 1000));
            }
            if (r == 0) {
                for (int i = 0; i < logWrites; i++) {
                    long t = (segments + i) * ms;
                    l.add(new TraceRecord(0, 1, IoOp.WRITE, Positioning.INDIVIDUAL_POINTER, false, i * 100L, 100, t, t + ms / 2));
                }
            }
            byRank.put(r, l);
        }
    }

    static KnownJob small() {
        return new KnownJob(4, 64, 16 * 1024, 10);
    }

    TracedJob job() {
        return new TracedJob("KnownJob strided", ranks, Map.of(0, SHARED, 1, LOG), Map.of(), null);
    }

    InMemoryTraceSource source() {
        return InMemoryTraceSource.of(job(), byRank);
    }

    List<TraceRecord> all() {
        List<TraceRecord> all = new ArrayList<>();
        byRank.values().forEach(all::addAll);
        return all;
    }

    TraceFileStats.Result stats() {
        return TraceFileStats.collect(source(), TraceFileStats.DEFAULT_SMALL_BYTES);
    }

    /** The report with everything but replicas and counters. */
    JobReport report() {
        TraceFileStats.Result s = stats();
        return new JobReport("known job").fact("application", job().app().command())
                .segments(source()).fileStats(s.files(), s.bytesByRank());
    }

}
