package io.pdla.cli;

import io.pdla.access.TraceRecord;
import io.pdla.patterns.TracedJob;
import io.pdla.patterns.RuntimeInfo;
import io.pdla.patterns.TraceSource;
import io.pdla.patterns.TraceSourceFactory;
import io.pdla.patterns.TruncatedTraceException;
import io.pdla.storage.StorageDrivers;
import io.pdla.tracer.format.TraceDirectory;
import io.pdla.tracer.format.TraceLayer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The tracer's trace directories as the pattern analyzer's {@link TraceSource}: the one place that sees both
 * modules, so neither depends on the other. Missing ranks are allowed here and reported as warnings; the
 * analyzer marks its results partial. A trace cut short ends its rank's stream with
 * {@link TruncatedTraceException} after the last good record.
 */
public final class TracerTraceSources implements TraceSourceFactory {
    @Override
    public TraceSource open(Path traceDir) throws IOException {
        TraceDirectory td = TraceDirectory.open(traceDir, true);
        io.pdla.tracer.format.JobInfo tj = td.job();
        String scheme = tj.files().values().stream().findFirst().map(p -> StorageDrivers.toUri(p).getScheme()).orElse(null);
        TracedJob job = new TracedJob(tj.app(), tj.files(), tj.hints(),
                new RuntimeInfo(scheme, null, null, null, List.of(), Map.of()));
        List<String> warnings = new ArrayList<>();
        if (!td.missingRanks().isEmpty()) warnings.add(traceDir + ": no trace for ranks " + td.missingRanks());
        if (tj.droppedRequests() > 0) warnings.add(traceDir + ": the tracer dropped " + tj.droppedRequests() + " requests");
        if (!tj.ranksWithFailedTracing().isEmpty()) warnings.add(traceDir + ": tracing failed on ranks " + tj.ranksWithFailedTracing());
        SortedSet<Integer> ranks = new TreeSet<>();
        ranks.addAll(td.ranks());
        return new TraceSource() {
            @Override
            public TracedJob job() {
                return job;
            }

            @Override
            public SortedSet<Integer> ranks() {
                return ranks;
            }

            @Override
            public Iterator<TraceRecord> records(int rank) {
                // The application's own calls only: the aggregator layer (collective buffering) is how the shim
                // served them, not the application's pattern, and changes with hints and process count.
                return new Truncation(td.records(rank, TraceLayer.APPLICATION).iterator(), traceDir, rank);
            }

            @Override
            public List<String> warnings() {
                return warnings;
            }
        };
    }

    /** Turns the tracer's format errors in the middle of a stream into the analyzer's truncation signal. */
    private static final class Truncation implements Iterator<TraceRecord> {
        private final Iterator<TraceRecord> in;
        private final Path dir;
        private final int rank;

        Truncation(Iterator<TraceRecord> in, Path dir, int rank) {
            this.in = in;
            this.dir = dir;
            this.rank = rank;
        }

        @Override
        public boolean hasNext() {
            try {
                return in.hasNext();
            } catch (UncheckedIOException e) {
                throw new TruncatedTraceException(dir + ": trace of rank " + rank + " is damaged: " + e.getCause().getMessage());
            }
        }

        @Override
        public TraceRecord next() {
            if (!hasNext()) throw new NoSuchElementException();
            return in.next();
        }
    }
}
