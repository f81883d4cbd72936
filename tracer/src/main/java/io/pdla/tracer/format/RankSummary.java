package io.pdla.tracer.format;

import io.pdla.tracer.counters.TracedRecord;

import java.util.List;
import java.util.Map;

/**
 * What one rank writes besides its trace: its part of the job description and its counter records. The
 * reader builds the job log from all ranks' summaries (there is no communicator to reduce over at run
 * time). {@code tracingFailed} says that trace output failed and tracing was switched off for the run.
 */
public record RankSummary(int rank, int nprocs, long originEpochNanos, long originNanoTime, long clockDomain,
                          long startEpochNanos, long endEpochNanos, long requestsTraced, long droppedRequests,
                          boolean tracingFailed, String command, Map<String, String> hints, Map<Integer, String> files,
                          List<TracedRecord> records) {
    public RankSummary {
        hints = Map.copyOf(hints);
        files = Map.copyOf(files);
        records = List.copyOf(records);
    }

    public static String fileName(int rank) {
        return "rank-" + rank + ".pdlc";
    }
}
