package io.pdla.tracer.counters;

import io.pdla.darshan.Counter;
import io.pdla.darshan.PosixFCounter;
import io.pdla.darshan.MpiioFCounter;

import io.pdla.tracer.format.JobInfo;

import java.io.PrintWriter;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Prints a {@link CounterLog} in darshan-parser's text layout: {@code #} header lines, then one line per
 * counter {@code <module>\t<rank>\t<record id>\t<counter>\t<value>\t<file name>\t<mount pt>\t<fs type>},
 * integer counters then float counters ({@code %f}), record by record; {@code --total} and {@code --perf}
 * blocks after each module's records, as darshan-parser 3.5 prints them.
 */
public final class DarshanText {
    private static final String STARS = "# *******************************************************";
    private static final DateTimeFormatter CTIME = DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss yyyy", Locale.ROOT);

    private DarshanText() {
    }

    public static void print(CounterLog log, boolean total, boolean perf, PrintWriter out) {
        JobInfo job = log.job();
        out.println("# darshan log version: 3.41");
        out.println("# compression method: NONE");
        out.println("# exe: " + job.app().command());
        out.println("# uid: -1");
        out.println("# jobid: -1");
        long start = job.startEpochNanos() / 1_000_000_000L, end = job.endEpochNanos() / 1_000_000_000L;
        out.println("# start_time: " + start);
        out.println("# start_time_asci: " + ctime(start));
        out.println("# end_time: " + end);
        out.println("# end_time_asci: " + ctime(end));
        out.println("# nprocs: " + job.app().processes());
        out.printf(Locale.ROOT, "# run time: %.4f%n", job.runTimeSeconds());
        out.println("# metadata: lib_ver = pdla-tracer " + io.pdla.tracer.format.TraceFormat.VERSION);
        if (!job.hints().isEmpty()) {
            out.println("# metadata: h = " + new TreeMap<>(job.hints()).entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(";")));
        }
        out.println("# metadata: requests_traced = " + job.requestsTraced());
        out.println("# metadata: dropped_requests = " + job.droppedRequests());
        if (!job.ranksWithFailedTracing().isEmpty()) out.println("# metadata: tracing_failed_ranks = " + job.ranksWithFailedTracing());
        out.println();
        out.println("# mounted file systems (mount point and fs type)");
        out.println("# -------------------------------------------------------");
        Set<String> mounts = new LinkedHashSet<>();
        for (CounterRecord r : log.records()) mounts.add(r.mountPoint() + "\t" + r.fsType());
        for (String m : mounts) out.println("# mount entry:\t" + m);
        out.println();
        out.println("# description of columns:");
        out.println("#   <module>: module responsible for this I/O record.");
        out.println("#   <rank>: MPI rank.  -1 indicates that the file is shared");
        out.println("#      across all processes and statistics are aggregated.");
        out.println("#   <record id>: hash of the record's file path");
        out.println("#   <counter name> and <counter value>: statistical counters.");
        out.println("#   <file name>: full file path for the record.");
        out.println("#   <mount pt>: mount point that the file resides on.");
        out.println("#   <fs type>: type of file system that the file resides on.");
        for (Module m : Module.values()) {
            List<CounterRecord> records = log.records(m);
            if (records.isEmpty()) continue;
            out.println();
            out.println(STARS);
            out.println("# " + m.label() + " module data");
            out.println(STARS);
            out.println();
            out.println("#<module>\t<rank>\t<record id>\t<counter>\t<value>\t<file name>\t<mount pt>\t<fs type>");
            for (CounterRecord r : records) {
                String tail = "\t" + r.fileName() + "\t" + r.mountPoint() + "\t" + r.fsType();
                String head = m.label() + "\t" + r.rank() + "\t" + Long.toUnsignedString(r.recordId()) + "\t";
                for (Counter c : m.counters()) out.println(head + c.name() + "\t" + r.get(c) + tail);
                for (Counter c : m.fcounters()) out.println(head + c.name() + "\t" + String.format(Locale.ROOT, "%f", r.getF(c)) + tail);
            }
            if (total) printTotal(m, records, out);
            if (perf) printPerf(m, records, out);
        }
        out.flush();
    }

    private static String ctime(long epochSeconds) {
        return CTIME.format(Instant.ofEpochSecond(epochSeconds).atZone(ZoneId.systemDefault()));
    }

    /** The module's records folded into one: sums, min/max timestamps, merged tables, last copy values. */
    public static CounterRecord total(Module m, List<CounterRecord> records) {
        CounterRecord acc = records.get(0).copy();
        for (int i = 1; i < records.size(); i++) RecordMerger.mergeInto(acc, records.get(i));
        return acc;
    }

    private static void printTotal(Module m, List<CounterRecord> records, PrintWriter out) {
        CounterRecord t = total(m, records);
        out.println();
        for (Counter c : m.counters()) out.println("total_" + c.name() + ": " + t.get(c));
        for (Counter c : m.fcounters()) out.println("total_" + c.name() + ": " + String.format(Locale.ROOT, "%f", t.getF(c)));
    }

    /** The numbers of darshan-parser's {@code --perf} block for one module. */
    public record Perf(long totalBytes, double slowestRankIoTime, double slowestRankMetaOnlyTime, double slowestRankRwOnlyTime,
                       int slowestRank, double sharedTimeBySlowest) {
        public double aggTimeBySlowest() {
            return slowestRankIoTime + sharedTimeBySlowest;
        }

        public double aggPerfBySlowestMiBs() {
            return totalBytes / 1048576.0 / aggTimeBySlowest();
        }
    }

    public static Perf perf(Module m, List<CounterRecord> records) {
        long bytes = 0;
        double shared = 0;
        Map<Integer, double[]> perRank = new HashMap<>();
        Counter slowestTime = m.posixCounters() ? PosixFCounter.POSIX_F_SLOWEST_RANK_TIME : MpiioFCounter.MPIIO_F_SLOWEST_RANK_TIME;
        Counter meta = m.fcounters().get(10), readT = m.fcounters().get(8), writeT = m.fcounters().get(9);
        for (CounterRecord r : records) {
            bytes += RecordMerger.bytes(r);
            if (r.rank() == -1) {
                shared += r.getF(slowestTime);
            } else {
                double[] t = perRank.computeIfAbsent(r.rank(), k -> new double[3]);
                t[0] += r.getF(meta) + r.getF(readT) + r.getF(writeT);
                t[1] += r.getF(meta);
                t[2] += r.getF(readT) + r.getF(writeT);
            }
        }
        int slowest = 0;
        double[] worst = {0, 0, 0};
        for (Map.Entry<Integer, double[]> e : new TreeMap<>(perRank).entrySet()) {
            if (e.getValue()[0] > worst[0]) {
                worst = e.getValue();
                slowest = e.getKey();
            }
        }
        return new Perf(bytes, worst[0], worst[1], worst[2], slowest, shared);
    }

    private static void printPerf(Module m, List<CounterRecord> records, PrintWriter out) {
        Perf p = perf(m, records);
        out.println();
        out.println("# performance");
        out.println("# -----------");
        out.println("# total_bytes: " + p.totalBytes());
        out.println("#");
        out.println("# I/O timing for unique files (seconds):");
        out.println("# ...........................");
        out.printf(Locale.ROOT, "# unique files: slowest_rank_io_time: %f%n", p.slowestRankIoTime());
        out.printf(Locale.ROOT, "# unique files: slowest_rank_meta_only_time: %f%n", p.slowestRankMetaOnlyTime());
        out.printf(Locale.ROOT, "# unique files: slowest_rank_rw_only_time: %f%n", p.slowestRankRwOnlyTime());
        out.println("# unique files: slowest_rank: " + p.slowestRank());
        out.println("#");
        out.println("# I/O timing for shared files (seconds):");
        out.println("# ...........................");
        out.printf(Locale.ROOT, "# shared files: time_by_slowest: %f%n", p.sharedTimeBySlowest());
        out.println("#");
        out.println("# Aggregate performance, including both shared and unique files:");
        out.println("# ...........................");
        out.printf(Locale.ROOT, "# agg_time_by_slowest: %f # seconds%n", p.aggTimeBySlowest());
        out.printf(Locale.ROOT, "# agg_perf_by_slowest: %f # MiB/s%n", p.aggPerfBySlowestMiBs());
    }
}
