package io.pdla.tracer.format;

import io.pdla.access.TraceRecord;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A job's trace directory: one trace and one summary per rank, plus {@code job.json}. Opening checks that
 * every rank 0..nprocs-1 has a trace; records are streamed per rank, aligned to the job's start. A rank
 * that never opened a file writes nothing (the tracer starts at a rank's first open), so a job where only
 * some ranks do I/O is opened with {@link #open(Path, boolean) open(dir, true)}, which lists the missing
 * ranks instead of failing.
 *
 * <pre>{@code
 * TraceDirectory dir = TraceDirectory.open(path);
 * try (Stream<TraceRecord> s = dir.records(0)) { s.forEach(...); }
 * }</pre>
 */
public final class TraceDirectory {
    private static final Pattern TRACE = TraceLayer.APPLICATION.files();
    private static final Pattern SUMMARY = Pattern.compile("rank-(\\d+)\\.pdlc");

    private final Path dir;
    private final int nprocs;
    private final Map<Integer, TraceHeader> headers;
    private final List<RankClock> clocks;
    private final List<Integer> missingRanks;

    private TraceDirectory(Path dir, int nprocs, Map<Integer, TraceHeader> headers, List<Integer> missingRanks) {
        this.missingRanks = List.copyOf(missingRanks);
        this.dir = dir;
        this.nprocs = nprocs;
        this.headers = headers;
        this.clocks = headers.values().stream().map(h -> new RankClock(h.originEpochNanos(), h.originNanoTime(), h.clockDomain())).toList();
    }

    /** Opens a directory that must hold every rank's trace. */
    public static TraceDirectory open(Path dir) throws IOException {
        return open(dir, false);
    }

    /** With {@code allowMissingRanks}, ranks without a trace are listed by {@link #missingRanks()}. */
    public static TraceDirectory open(Path dir, boolean allowMissingRanks) throws IOException {
        if (!Files.isDirectory(dir)) throw new TraceDirectoryException(dir, List.of(), "not a directory");
        Map<Integer, TraceHeader> headers = new TreeMap<>();
        for (Map.Entry<Integer, Path> e : rankFiles(dir, TRACE).entrySet()) {
            TraceHeader h = TraceFileReader.readHeader(e.getValue());
            if (h.rank() != e.getKey()) {
                throw new TraceFormatException(e.getValue(), 12, "header says rank " + h.rank() + ", file name says rank " + e.getKey());
            }
            headers.put(e.getKey(), h);
        }
        if (headers.isEmpty()) throw new TraceDirectoryException(dir, List.of(), "no trace files (rank-<r>.pdlt)");
        int nprocs = headers.values().iterator().next().nprocs();
        for (TraceHeader h : headers.values()) {
            if (h.nprocs() != nprocs) {
                throw new TraceDirectoryException(dir, List.of(), "ranks disagree on the number of processes: " + nprocs + " and " + h.nprocs()
                        + " (rank " + h.rank() + ")");
            }
        }
        List<Integer> missing = missing(headers.keySet(), nprocs);
        if (!missing.isEmpty() && !allowMissingRanks) {
            throw new TraceDirectoryException(dir, missing, "missing trace of rank(s) " + howMany(headers.keySet(), nprocs, missing) + " of a " + nprocs
                    + "-process job (expected " + TraceFormat.fileName(missing.get(0)) + "; a rank that opened no file"
                    + " writes none: allow missing ranks if that is the case)");
        }
        return new TraceDirectory(dir, nprocs, headers, missing);
    }

    /** Missing ranks listed at most (a damaged header's process count must not make a list of 2^31 ranks). */
    static final int MAX_LISTED = 64;

    /** The first {@link #MAX_LISTED} ranks in 0..nprocs-1 without a file, in time proportional to those listed and present. */
    private static List<Integer> missing(java.util.Set<Integer> present, int nprocs) {
        List<Integer> missing = new ArrayList<>();
        for (int r = 0; r < nprocs && missing.size() < MAX_LISTED; r++) if (!present.contains(r)) missing.add(r);
        return missing;
    }

    private static String howMany(java.util.Set<Integer> present, int nprocs, List<Integer> listed) {
        long count = nprocs - present.stream().filter(r -> r < nprocs).count();
        return count > listed.size() ? count + " ranks, the first " + listed : listed.toString();
    }

    static Map<Integer, Path> rankFiles(Path dir, Pattern p) throws IOException {
        Map<Integer, Path> out = new TreeMap<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path f : ds) {
                Matcher m = p.matcher(f.getFileName().toString());
                if (!m.matches()) continue;
                int rank;
                try {
                    rank = Integer.parseInt(m.group(1));
                } catch (NumberFormatException e) {
                    throw new TraceFormatException(f, 0, "file name says rank " + m.group(1) + ", beyond any job's size (not a pdla file)");
                }
                Path other = out.put(rank, f);
                if (other != null) {
                    throw new TraceFormatException(f, 0, "a second file for rank " + rank + " besides " + other.getFileName() + " (not a pdla file)");
                }
            }
        }
        return out;
    }

    public Path dir() {
        return dir;
    }

    /** Ranks without a trace (empty unless opened with missing ranks allowed), at most the first {@value #MAX_LISTED}. */
    public List<Integer> missingRanks() {
        return missingRanks;
    }

    /** The ranks that have a trace, ascending (walk these, not 0..nprocs: a process count may be large). */
    public List<Integer> ranks() {
        return List.copyOf(headers.keySet());
    }

    public boolean hasRank(int rank) {
        return headers.containsKey(rank);
    }

    public int nprocs() {
        return nprocs;
    }

    public TraceHeader header(int rank) {
        return headers.get(rank);
    }

    public long jobStartEpochNanos() {
        return RankClock.jobStartEpochNanos(clocks);
    }

    /** Nanoseconds added to this rank's trace times to make them relative to the job's start. */
    public long shiftNanos(int rank) {
        TraceHeader h = header(rank);
        return new RankClock(h.originEpochNanos(), h.originNanoTime(), h.clockDomain()).shiftNanos(clocks);
    }

    /** A streaming reader of one rank's trace; the caller closes it. */
    public TraceFileReader reader(int rank) throws IOException {
        if (!headers.containsKey(rank)) throw new IllegalArgumentException("rank " + rank + " not in 0.." + (nprocs - 1));
        return TraceFileReader.open(dir.resolve(TraceFormat.fileName(rank)), shiftNanos(rank));
    }

    /** One rank's records in issue order (none for a missing rank); close the stream to close the file. */
    public Stream<TraceRecord> records(int rank) {
        return records(rank, TraceLayer.APPLICATION);
    }

    /**
     * Whether a rank has a trace of that layer: every traced rank has the application layer; the aggregator
     * layer only ranks that were collective-buffering aggregators of a two-phase call.
     */
    public boolean hasLayer(int rank, TraceLayer layer) {
        return headers.containsKey(rank) && (layer == TraceLayer.APPLICATION || Files.isRegularFile(dir.resolve(layer.fileName(rank))));
    }

    /** The ranks with a trace of that layer, ascending. */
    public List<Integer> ranksWith(TraceLayer layer) {
        List<Integer> out = new ArrayList<>();
        for (int r : headers.keySet()) if (hasLayer(r, layer)) out.add(r);
        return out;
    }

    /** A streaming reader of one rank's trace of one layer, aligned like the application layer; the caller closes it. */
    public TraceFileReader reader(int rank, TraceLayer layer) throws IOException {
        if (layer == TraceLayer.APPLICATION) return reader(rank);
        if (!hasLayer(rank, layer)) {
            throw new IllegalArgumentException("rank " + rank + " has no " + layer.label() + " trace (" + layer.fileName(rank) + ")");
        }
        Path file = dir.resolve(layer.fileName(rank));
        TraceHeader h = TraceFileReader.readHeader(file);
        if (h.rank() != rank || h.originNanoTime() != header(rank).originNanoTime()) {
            throw new TraceFormatException(file, 12, "header is not rank " + rank + "'s (rank " + h.rank()
                    + "; a layer's trace shares its rank's origin)");
        }
        return TraceFileReader.open(file, shiftNanos(rank));
    }

    /** One rank's records of one layer in issue order (none where the rank has no such trace). */
    public Stream<TraceRecord> records(int rank, TraceLayer layer) {
        if (!hasLayer(rank, layer)) return Stream.empty();
        try {
            return reader(rank, layer).stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** All ranks' summaries; a missing one is a {@link TraceDirectoryException} naming the ranks. */
    public List<RankSummary> summaries() throws IOException {
        return readSummaries(dir, !missingRanks.isEmpty());
    }

    public static List<RankSummary> readSummaries(Path dir) throws IOException {
        return readSummaries(dir, false);
    }

    /** All summaries present; unless {@code allowMissingRanks}, every rank must have one. */
    public static List<RankSummary> readSummaries(Path dir, boolean allowMissingRanks) throws IOException {
        if (!Files.isDirectory(dir)) throw new TraceDirectoryException(dir, List.of(), "not a directory");
        Map<Integer, Path> files = rankFiles(dir, SUMMARY);
        if (files.isEmpty()) throw new TraceDirectoryException(dir, List.of(), "no counter files (rank-<r>.pdlc)");
        List<RankSummary> out = new ArrayList<>();
        for (Map.Entry<Integer, Path> e : files.entrySet()) {
            RankSummary s = CounterFile.read(e.getValue());
            if (s.rank() != e.getKey()) {
                throw new TraceFormatException(e.getValue(), 12, "header says rank " + s.rank() + ", file name says rank " + e.getKey());
            }
            out.add(s);
        }
        int n = out.get(0).nprocs();
        for (RankSummary s : out) {
            if (s.nprocs() != n) {
                throw new TraceDirectoryException(dir, List.of(), "ranks disagree on the number of processes: " + n + " and " + s.nprocs());
            }
        }
        List<Integer> missing = missing(files.keySet(), n);
        if (!missing.isEmpty() && !allowMissingRanks) {
            throw new TraceDirectoryException(dir, missing, "missing counters of rank(s) " + howMany(files.keySet(), n, missing) + " of a " + n
                    + "-process job (expected " + RankSummary.fileName(missing.get(0)) + ")");
        }
        return out;
    }

    public JobInfo job() throws IOException {
        return JobInfo.merge(dir, summaries());
    }
}
