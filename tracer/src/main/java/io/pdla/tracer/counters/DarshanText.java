package io.pdla.tracer.counters;

import io.pdla.darshan.CounterFields;
import io.pdla.darshan.CounterTotals;
import io.pdla.tracer.format.JobInfo;

import java.io.PrintWriter;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Prints a {@link CounterLog} in darshan-parser's text layout: {@code #} header lines from the job, then each module's
 * records, {@code --total} and {@code --perf} blocks as the darshan module prints a Darshan log's
 * ({@link CounterFields}, {@link CounterTotals}: one printer and one accumulator for both). AGG-POSIX records are
 * printed as POSIX ones under their own module name.
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
        for (TracedRecord r : log.records()) mounts.add(r.mountPoint() + "\t" + r.fsType());
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
            List<TracedRecord> records = log.records(m);
            if (records.isEmpty()) continue;
            out.println();
            out.println(STARS);
            out.println("# " + m.label() + " module data");
            out.println(STARS);
            out.println();
            out.println("#<module>\t<rank>\t<record id>\t<counter>\t<value>\t<file name>\t<mount pt>\t<fs type>");
            StringBuilder text = new StringBuilder();
            for (TracedRecord r : records) {
                String tail = "\t" + r.fileName() + "\t" + r.mountPoint() + "\t" + r.fsType() + "\n";
                CounterFields.of(m.layout(), r.counters(),
                        (name, value) -> CounterFields.line(text, m.label(), r.rank(), r.recordId(), name, value, tail));
            }
            if (total || perf) {
                CounterTotals totals = totals(m, records, log.job().app().processes());
                if (total) {
                    text.append('\n');
                    totals.appendTotal(text);
                }
                if (perf) totals.appendPerf(text);
            }
            out.print(text);
        }
        out.flush();
    }

    private static String ctime(long epochSeconds) {
        return CTIME.format(Instant.ofEpochSecond(epochSeconds).atZone(ZoneId.systemDefault()));
    }

    private static CounterTotals totals(Module m, List<TracedRecord> records, long nprocs) {
        CounterTotals t = new CounterTotals(m.layout(), nprocs);
        for (TracedRecord r : records) t.add(r.counters());
        return t;
    }

    /**
     * The numbers of darshan-parser's {@code --perf} block for one module's records. Every rank counts: the job's process
     * count only bounds which ranks darshan-util believes, and these records come from the job itself.
     */
    public static CounterTotals.Perf perf(Module m, List<TracedRecord> records) {
        return totals(m, records, Integer.MAX_VALUE).perf();
    }
}
