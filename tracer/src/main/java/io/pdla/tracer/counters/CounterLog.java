package io.pdla.tracer.counters;

import io.pdla.darshan.Counter;

import io.pdla.tracer.format.JobInfo;
import io.pdla.tracer.format.RankClock;
import io.pdla.tracer.format.RankSummary;
import io.pdla.tracer.format.TraceDirectory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The job's counter log, built from all ranks' summaries: timestamps aligned to the job start, and the
 * records of every file that all ranks touched reduced into one rank -1 record (as Darshan does at
 * MPI_Finalize; here the reader does it, since the tracer has no communicator). Files touched by a subset
 * of ranks keep one record per rank. With one process nothing is reduced, as in Darshan.
 */
public record CounterLog(JobInfo job, List<TracedRecord> records) {
    /** The reduced log as darshan-parser text ({@code --total --perf}), written next to the summaries. */
    public static final String TEXT_FILE = "counters.txt";

    /** Writes {@value #TEXT_FILE} atomically; {@code writer} makes the temporary name unique. */
    public void writeText(Path dir, String writer) throws IOException {
        Path tmp = dir.resolve(TEXT_FILE + ".tmp-" + writer);
        try (java.io.PrintWriter out = new java.io.PrintWriter(java.nio.file.Files.newBufferedWriter(tmp))) {
            DarshanText.print(this, true, true, out);
        }
        java.nio.file.Files.move(tmp, dir.resolve(TEXT_FILE), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Loads a directory that must hold every rank's summary. */
    public static CounterLog load(Path dir) throws IOException {
        return load(dir, false);
    }

    /**
     * With {@code allowMissingRanks}, ranks without a summary (ranks that opened no file) are left out; no
     * file can then count as shared, since a shared file is one that every rank opened.
     */
    public static CounterLog load(Path dir, boolean allowMissingRanks) throws IOException {
        List<RankSummary> ranks = TraceDirectory.readSummaries(dir, allowMissingRanks);
        JobInfo job = JobInfo.merge(dir, ranks);
        List<RankClock> clocks = ranks.stream().map(r -> new RankClock(r.originEpochNanos(), r.originNanoTime(), r.clockDomain())).toList();
        List<TracedRecord> perRank = new ArrayList<>();
        for (RankSummary r : ranks) {
            double shift = new RankClock(r.originEpochNanos(), r.originNanoTime(), r.clockDomain()).shiftNanos(clocks) / 1e9;
            for (TracedRecord c : r.records()) perRank.add(aligned(c, shift));
        }
        return new CounterLog(job, reduce(perRank, job.app().processes()));
    }

    private static TracedRecord aligned(TracedRecord c, double shiftSeconds) {
        TracedRecord out = c.copy();
        List<Counter> f = c.module().fcounters();
        for (int i = 0; i < 8; i++) { // the four start and four end timestamps
            if (out.getF(f.get(i)) != 0) out.setF(f.get(i), out.getF(f.get(i)) + shiftSeconds);
        }
        return out;
    }

    /** Shared records (present on every rank) reduced to rank -1; rank -1 records first, then by rank. */
    public static List<TracedRecord> reduce(List<TracedRecord> perRank, int nprocs) {
        Map<String, List<TracedRecord>> byFile = new LinkedHashMap<>();
        for (TracedRecord r : perRank) byFile.computeIfAbsent(r.module() + "/" + r.recordId(), k -> new ArrayList<>()).add(r);
        List<TracedRecord> shared = new ArrayList<>();
        List<TracedRecord> rest = new ArrayList<>();
        for (List<TracedRecord> group : byFile.values()) {
            Set<Integer> ranks = new TreeSet<>();
            for (TracedRecord r : group) ranks.add(r.rank());
            if (nprocs > 1 && ranks.size() == nprocs && group.size() == nprocs) {
                group.sort(Comparator.comparingInt(TracedRecord::rank));
                shared.add(RecordMerger.reduceShared(group));
            } else {
                rest.addAll(group);
            }
        }
        Comparator<TracedRecord> order = Comparator.comparing((TracedRecord r) -> r.module().ordinal())
                .thenComparingInt(TracedRecord::rank).thenComparingLong(TracedRecord::recordId);
        shared.sort(order);
        rest.sort(order);
        List<TracedRecord> out = new ArrayList<>(shared);
        out.addAll(rest);
        out.sort(Comparator.comparing((TracedRecord r) -> r.module().ordinal()));
        return out;
    }

    public List<TracedRecord> records(Module m) {
        return records.stream().filter(r -> r.module() == m).toList();
    }
}
