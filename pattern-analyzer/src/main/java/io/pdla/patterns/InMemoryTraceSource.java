package io.pdla.patterns;

import io.pdla.access.TraceRecord;

import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.IntFunction;

/**
 * A {@link TraceSource} held in memory or generated on demand (tests, benchmarks, synthetic traces).
 * Records of a rank come from a supplier so that a generated trace need not be materialized.
 */
public final class InMemoryTraceSource implements TraceSource {
    private final TracedJob job;
    private final SortedSet<Integer> ranks;
    private final IntFunction<Iterator<TraceRecord>> records;
    private final Map<Integer, TracedJob> jobByRank = new HashMap<>();

    public InMemoryTraceSource(TracedJob job, SortedSet<Integer> ranks, IntFunction<Iterator<TraceRecord>> records) {
        this.job = job;
        this.ranks = Collections.unmodifiableSortedSet(new TreeSet<>(ranks));
        this.records = records;
    }

    public static InMemoryTraceSource of(TracedJob job, Map<Integer, List<TraceRecord>> byRank) {
        Map<Integer, List<TraceRecord>> copy = Map.copyOf(byRank);
        return new InMemoryTraceSource(job, new TreeSet<>(copy.keySet()), r -> copy.get(r).iterator());
    }

    /** Marks one rank's trace as written by another job (to test mixed-job detection). */
    public InMemoryTraceSource withJobOf(int rank, TracedJob other) {
        jobByRank.put(rank, other);
        return this;
    }

    @Override
    public TracedJob job() {
        return job;
    }

    @Override
    public TracedJob jobOf(int rank) {
        return jobByRank.getOrDefault(rank, job);
    }

    @Override
    public SortedSet<Integer> ranks() {
        return ranks;
    }

    @Override
    public Iterator<TraceRecord> records(int rank) {
        if (!ranks.contains(rank)) throw new IllegalArgumentException("no trace for rank " + rank);
        return records.apply(rank);
    }
}
