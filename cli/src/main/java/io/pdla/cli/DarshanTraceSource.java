package io.pdla.cli;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.access.TraceRecord;
import io.pdla.darshan.DarshanLog;
import io.pdla.darshan.DxtRecord;
import io.pdla.darshan.ModuleData;
import io.pdla.darshan.ModuleId;
import io.pdla.patterns.TraceSource;
import io.pdla.patterns.TracedJob;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongPredicate;

/**
 * A Darshan log's DXT segments as the analyzer's trace: one record per segment, per rank in start-time order,
 * keyed by the log's executable and process count. DXT_MPIIO is the application's view and is used when its
 * offsets are known (DXT_MPIIO v1 and some MPI builds record -1); otherwise DXT_POSIX. Times are nanoseconds from
 * each process's Darshan start.
 */
final class DarshanTraceSource implements TraceSource {
    private final TracedJob job;
    private final Map<Integer, List<TraceRecord>> byRank = new TreeMap<>();
    private final List<String> warnings = new ArrayList<>();
    final ModuleId used;

    DarshanTraceSource(DarshanLog log) {
        this(log, wholeLogChoice(log), id -> true);
    }

    /** DXT_MPIIO when every one of its segments has an offset, else DXT_POSIX (null when the log has neither). */
    private static ModuleData wholeLogChoice(DarshanLog log) {
        ModuleData mpi = log.module(ModuleId.DXT_MPIIO);
        ModuleData posix = log.module(ModuleId.DXT_POSIX);
        if (mpi != null && !mpi.records().isEmpty() && mpi.recordsOf(DxtRecord.class).stream()
                .allMatch(d -> java.util.Arrays.stream(d.offsets()).allMatch(o -> o >= 0))) {
            return mpi;
        }
        return posix;
    }

    /**
     * The segments of {@code chosen} (a DXT module of {@code log}, or null for none) of the records whose file id
     * {@code keep} accepts; {@code pdla what-if} makes one such source per file, from the module it chose for it.
     */
    DarshanTraceSource(DarshanLog log, ModuleData chosen, LongPredicate keep) {
        used = chosen == null ? null : chosen.module();
        Map<Long, Integer> fileIds = new HashMap<>();
        Map<Integer, String> files = new TreeMap<>();
        if (chosen != null) {
            if (chosen.partial()) warnings.add(chosen.module().label() + " is incomplete in the log (trace buffers overflowed)");
            for (DxtRecord d : chosen.recordsOf(DxtRecord.class)) {
                if (d.rank() < 0 || !keep.test(d.id())) continue;
                int fid = fileIds.computeIfAbsent(d.id(), k -> fileIds.size());
                String name = log.name(d.id());
                files.put(fid, name == null || name.isEmpty() ? "record-" + Long.toUnsignedString(d.id()) : name);
                List<TraceRecord> list = byRank.computeIfAbsent((int) d.rank(), k -> new ArrayList<>());
                for (int i = 0; i < d.segmentCount(); i++) {
                    if (d.offsets()[i] < 0 || d.lengths()[i] < 0) continue;
                    long s = Math.round(Math.max(0, d.starts()[i]) * 1e9);
                    long e = Math.max(s, Math.round(d.ends()[i] * 1e9));
                    list.add(new TraceRecord((int) d.rank(), fid, d.isWrite(i) ? IoOp.WRITE : IoOp.READ,
                            Positioning.EXPLICIT_OFFSET, false, d.offsets()[i], d.lengths()[i], s, e));
                }
            }
        }
        byRank.values().forEach(l -> l.sort(Comparator.comparingLong(TraceRecord::startNanos)));
        String exe = log.job().exe().isBlank() ? "unknown-darshan-exe" : log.job().exe();
        Map<String, String> hints = new HashMap<>();
        for (String line : log.job().metadata().split("\n")) {
            if (line.startsWith("h=")) {
                for (String kv : line.substring(2).split(";")) {
                    int eq = kv.indexOf('=');
                    if (eq > 0) hints.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
            }
        }
        job = new TracedJob(exe, (int) Math.max(1, Math.min(Integer.MAX_VALUE, log.job().nprocs())), files, hints, null);
    }

    boolean hasDxt() { return used != null && byRank.values().stream().anyMatch(l -> !l.isEmpty()); }

    @Override
    public TracedJob job() { return job; }

    @Override
    public SortedSet<Integer> ranks() { return new TreeSet<>(byRank.keySet()); }

    @Override
    public Iterator<TraceRecord> records(int rank) { return byRank.getOrDefault(rank, List.of()).iterator(); }

    @Override
    public List<String> warnings() { return warnings; }
}
