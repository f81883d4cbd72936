package io.pdla.patterns.rootcause;

import io.pdla.access.TraceRecord;
import io.pdla.patterns.TracedJob;
import io.pdla.patterns.TraceSource;
import io.pdla.patterns.TruncatedTraceException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Darshan-like per-file counters computed from a trace, for the root-cause analysis when counters are not
 * given: interval = first start to last end of the file's data operations; small = below a threshold;
 * non-consecutive = not starting where the same rank's previous request on the file ended.
 */
public final class TraceFileStats {
    public static final long DEFAULT_SMALL_BYTES = 1 << 20;

    /** The per-file counters and the bytes each rank moved. */
    public record Result(List<FileIoStats> files, Map<Integer, Long> bytesByRank, List<String> warnings) {
    }

    private static final class Acc {
        long firstNanos = Long.MAX_VALUE, lastNanos = Long.MIN_VALUE, read, written, requests, small, nonConsec, metaNanos;
        boolean collective;
        final Set<Integer> ranks = new HashSet<>();
    }

    private TraceFileStats() {
    }

    public static Result collect(TraceSource source, long smallBytes) {
        TracedJob job = source.job();
        Map<Integer, Acc> byFile = new TreeMap<>();
        Map<Integer, Long> bytesByRank = new TreeMap<>();
        List<String> warnings = new ArrayList<>();
        for (int rank : source.ranks()) {
            Map<Integer, Long> lastEnd = new HashMap<>();
            long rankBytes = 0;
            Iterator<TraceRecord> it = source.records(rank);
            try {
                while (it.hasNext()) {
                    TraceRecord r = it.next();
                    Acc a = byFile.computeIfAbsent(r.fileId(), f -> new Acc());
                    if (!r.op().movesData()) {
                        a.metaNanos += r.endNanos() - r.startNanos();
                        continue;
                    }
                    a.firstNanos = Math.min(a.firstNanos, r.startNanos());
                    a.lastNanos = Math.max(a.lastNanos, r.endNanos());
                    if (r.op() == io.pdla.access.IoOp.READ) a.read += r.length();
                    else a.written += r.length();
                    a.requests++;
                    if (r.length() < smallBytes) a.small++;
                    Long prev = lastEnd.put(r.fileId(), r.end());
                    if (prev != null && prev != r.offset()) a.nonConsec++;
                    a.collective |= r.collective();
                    a.ranks.add(rank);
                    rankBytes += r.length();
                }
            } catch (TruncatedTraceException e) {
                warnings.add("trace of rank " + rank + " is truncated: " + e.getMessage());
            }
            bytesByRank.put(rank, rankBytes);
        }
        List<FileIoStats> files = new ArrayList<>();
        byFile.forEach((id, a) -> {
            if (a.requests == 0) return; // metadata only: no I/O interval
            files.add(new FileIoStats(job.path(id), a.firstNanos / 1e9, a.lastNanos / 1e9, a.read, a.written, a.requests,
                    a.small, a.nonConsec, a.collective, a.ranks, job.runtime().stripeCount(), null, a.metaNanos / 1e9));
        });
        return new Result(files, bytesByRank, warnings);
    }
}
