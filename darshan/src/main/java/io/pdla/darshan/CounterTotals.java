package io.pdla.darshan;

/**
 * darshan-parser's per-module summaries of counter records (POSIX, MPI-IO, STDIO): the {@code --total} record, the
 * {@code --file} categories and the {@code --perf} figures, computed by darshan-util's accumulator ({@link Accumulator})
 * and printed in its text. The one place records are totalled and those blocks printed, for Darshan logs and for
 * the tracer's counter logs alike.
 */
public final class CounterTotals {
    /** The numbers of darshan-parser's {@code --perf} block. */
    public record Perf(long totalBytes, double slowestRankIoTime, double slowestRankMetaOnlyTime, double slowestRankRwOnlyTime,
                       int slowestRank, double sharedTimeBySlowest) {
        public double aggTimeBySlowest() {
            return slowestRankIoTime + sharedTimeBySlowest;
        }

        /** MiB/s over the slowest rank's time; 0 when no time was spent (as darshan-parser prints it). */
        public double aggPerfBySlowestMiBs() {
            double t = aggTimeBySlowest();
            return t != 0 ? (totalBytes / 1048576.0) / t : 0;
        }
    }

    private final CounterLayout layout;
    private final Accumulator acc;

    /** Totals of {@code module}'s records in a job of {@code nprocs} processes. */
    public CounterTotals(ModuleId module, long nprocs) {
        if (!accumulates(module)) throw new IllegalArgumentException(module + " records have no darshan-parser totals");
        this.layout = CounterLayout.of(module);
        this.acc = new Accumulator(module, nprocs);
    }

    /** Whether darshan-parser prints totals, file counts and performance for {@code module}'s records. */
    public static boolean accumulates(ModuleId module) {
        return module == ModuleId.POSIX || module == ModuleId.MPIIO || module == ModuleId.STDIO;
    }

    /** Adds one record, in the module's layout. */
    public CounterTotals add(CounterRecord r) {
        acc.inject(r);
        return this;
    }

    /** The total record's integer counters (a copy). */
    public long[] counters() {
        return acc.agg.clone();
    }

    /** The total record's floating-point counters (a copy). */
    public double[] fcounters() {
        return acc.fagg.clone();
    }

    public Perf perf() {
        double[] s = acc.slowestUnique();
        return new Perf(acc.totalBytes, s[0], s[1], s[2], (int) s[3], acc.sharedTimeBySlowest);
    }

    /** The {@code total_<counter>: <value>} lines. */
    public void appendTotal(StringBuilder out) {
        for (int i = 0; i < layout.intNames.length; i++) out.append("total_").append(layout.intNames[i]).append(": ").append(acc.agg[i]).append('\n');
        for (int i = 0; i < layout.floatNames.length; i++) out.append("total_").append(layout.floatNames[i]).append(": ").append(CFormat.f6(acc.fagg[i])).append('\n');
    }

    /** The {@code --file} block: file counts by kind of access. */
    public void appendFileCounts(StringBuilder out) {
        long[][] c = acc.categories();
        out.append("\n# Total file counts\n");
        out.append("# -----\n");
        out.append("# <file_type>: type of file access:\n");
        out.append("#    *read_only: file was only read\n");
        out.append("#    *write_only: file was only written\n");
        out.append("#    *read_write: file was read and written\n");
        out.append("#    *unique: file was opened by a single process only\n");
        out.append("#    *shared: file was accessed by a group of processes (maybe all processes)\n");
        out.append("# <file_count> total number of files of this type\n");
        out.append("# <total_bytes> total number of bytes moved to/from files of this type\n");
        out.append("# <max_byte_offset> maximum byte offset accessed for a file of this type\n");
        out.append("\n# <file_type> <file_count> <total_bytes> <max_byte_offset>\n");
        String[] labels = {"total", "read_only", "write_only", "read_write", "unique"};
        for (int i = 0; i < labels.length; i++) {
            out.append("# ").append(labels[i]).append(": ").append(c[i][0]).append(' ').append(c[i][1]).append(' ').append(c[i][2]).append('\n');
        }
        out.append("# shared: ").append(c[5][0] + c[6][0]).append(' ').append(c[5][1] + c[6][1]).append(' ')
                .append(c[5][2] + c[6][2]).append('\n');
    }

    /** The {@code --perf} block. */
    public void appendPerf(StringBuilder out) {
        Perf p = perf();
        out.append("\n# performance\n");
        out.append("# -----------\n");
        out.append("# total_bytes: ").append(p.totalBytes()).append('\n');
        out.append("#\n");
        out.append("# I/O timing for unique files (seconds):\n");
        out.append("# ...........................\n");
        out.append("# unique files: slowest_rank_io_time: ").append(CFormat.f6(p.slowestRankIoTime())).append('\n');
        out.append("# unique files: slowest_rank_meta_only_time: ").append(CFormat.f6(p.slowestRankMetaOnlyTime())).append('\n');
        out.append("# unique files: slowest_rank_rw_only_time: ").append(CFormat.f6(p.slowestRankRwOnlyTime())).append('\n');
        out.append("# unique files: slowest_rank: ").append(p.slowestRank()).append('\n');
        out.append("#\n");
        out.append("# I/O timing for shared files (seconds):\n");
        out.append("# ...........................\n");
        out.append("# shared files: time_by_slowest: ").append(CFormat.f6(p.sharedTimeBySlowest())).append('\n');
        out.append("#\n");
        out.append("# Aggregate performance, including both shared and unique files:\n");
        out.append("# ...........................\n");
        out.append("# agg_time_by_slowest: ").append(CFormat.f6(p.aggTimeBySlowest())).append(" # seconds\n");
        out.append("# agg_perf_by_slowest: ").append(CFormat.f6(p.aggPerfBySlowestMiBs())).append(" # MiB/s\n");
    }
}
