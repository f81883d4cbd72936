package io.pdla.tracer.format;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.pdla.intercept.AppIdentity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The per-job description ({@code job.json}): the application's identity (core's {@link AppIdentity}: command and
 * number of processes, the first half of every pattern key), start and end
 * (epoch nanoseconds), the hints of rank 0's first open, and the map from file ids to paths, merged from
 * all ranks' summaries. Also says how many requests the tracer dropped and which ranks lost tracing.
 */
public record JobInfo(AppIdentity app, long startEpochNanos, long endEpochNanos, Map<String, String> hints,
                      Map<Integer, String> files, long requestsTraced, long droppedRequests, List<Integer> ranksWithFailedTracing) {
    public static final String FILE_NAME = "job.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public JobInfo {
        java.util.Objects.requireNonNull(app, "job.json: application identity");
        hints = Map.copyOf(hints);
        files = Map.copyOf(files);
        ranksWithFailedTracing = List.copyOf(ranksWithFailedTracing);
    }

    public double runTimeSeconds() {
        return (endEpochNanos - startEpochNanos) / 1e9;
    }

    /** Merges the summaries of all ranks (they must be complete: see {@link TraceDirectory}). */
    public static JobInfo merge(Path dir, Collection<RankSummary> ranks) throws TraceDirectoryException {
        RankSummary first = ranks.stream().filter(r -> r.rank() == 0).findFirst().orElse(ranks.iterator().next());
        Map<Integer, String> files = new TreeMap<>();
        long start = Long.MAX_VALUE, end = Long.MIN_VALUE, traced = 0, dropped = 0;
        List<Integer> failed = new ArrayList<>();
        for (RankSummary r : ranks) {
            for (Map.Entry<Integer, String> f : r.files().entrySet()) {
                String other = files.putIfAbsent(f.getKey(), f.getValue());
                if (other != null && !other.equals(f.getValue())) {
                    throw new TraceDirectoryException(dir, List.of(), "file id " + f.getKey() + " names both " + other
                            + " and " + f.getValue() + " (hash collision; rank " + r.rank() + ")");
                }
            }
            start = Math.min(start, r.startEpochNanos());
            end = Math.max(end, r.endEpochNanos());
            traced += r.requestsTraced();
            dropped += r.droppedRequests();
            if (r.tracingFailed()) failed.add(r.rank());
        }
        return new JobInfo(new AppIdentity(first.command(), first.nprocs()), start, end, first.hints(), files, traced, dropped, failed);
    }

    /** Writes atomically; {@code writer} makes the temporary name unique when several ranks race. */
    public void write(Path dir, String writer) throws IOException {
        Path tmp = dir.resolve(FILE_NAME + ".tmp-" + writer);
        JSON.writeValue(tmp.toFile(), this);
        Files.move(tmp, dir.resolve(FILE_NAME), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Reads a job.json; one that is not valid JSON or lacks a field is an IOException naming the file and where. */
    public static JobInfo read(Path file) throws IOException {
        try {
            return JSON.readValue(file.toFile(), JobInfo.class);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null || at.getLineNr() < 0 ? "" : ", line " + at.getLineNr() + ", column " + at.getColumnNr();
            throw new IOException(file + where + ": not a valid " + FILE_NAME + ": " + e.getOriginalMessage(), e);
        } catch (java.io.CharConversionException e) {
            throw new IOException(file + ": not a valid " + FILE_NAME + " (not text in a Unicode encoding): " + e.getMessage(), e);
        }
    }
}
