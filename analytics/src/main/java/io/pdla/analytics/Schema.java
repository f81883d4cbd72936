package io.pdla.analytics;

import io.pdla.darshan.CounterNames;
import io.pdla.darshan.Counter;
import io.pdla.darshan.PosixCounter;
import io.pdla.darshan.SizeBins;
import io.pdla.darshan.ModuleId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.pdla.darshan.MpiioCounter.*;
import static io.pdla.darshan.MpiioFCounter.*;
import static io.pdla.darshan.PosixCounter.*;
import static io.pdla.darshan.PosixFCounter.*;

/**
 * The four tables and their columns. Counter columns carry Darshan's counter names ({@code POSIX_BYTES_READ},
 * {@code MPIIO_COLL_WRITES}, ...); job-level columns are lower case. The same definitions create the ingest's
 * staging tables, the empty views of tables with no Parquet file yet, and check the column names a query uses.
 */
public final class Schema {
    private Schema() {}

    /** A column: its name and its SQL type (BIGINT, DOUBLE, VARCHAR or BOOLEAN). */
    public record Column(String name, String type) {}

    /** A table: its name and columns in order. */
    public record Table(String name, List<Column> columns) {
        /** The column of that name, compared case-insensitively (as SQL does), or null. */
        public Column column(String name) {
            for (Column c : columns) if (c.name().equalsIgnoreCase(name)) return c;
            return null;
        }

        public int index(String name) {
            for (int i = 0; i < columns.size(); i++) if (columns.get(i).name().equalsIgnoreCase(name)) return i;
            return -1;
        }

        /** {@code CREATE TABLE name (...)} with these columns. */
        public String createSql(String tableName) {
            StringBuilder sb = new StringBuilder("CREATE TABLE ").append(quote(tableName)).append(" (");
            for (int i = 0; i < columns.size(); i++) {
                if (i > 0) sb.append(", ");
                sb.append(quote(columns.get(i).name())).append(' ').append(columns.get(i).type());
            }
            return sb.append(')').toString();
        }
    }

    /** Job-level sums of these counters (over every record of the job, -1 "not recorded" counted as 0). */
    public static final List<String> JOB_SUMS;
    /** POSIX request-size bins up to 1 MiB: Drishti's "small request" (as {@code pdla why} counts them). */
    public static final List<String> SMALL_BINS = smallBins();

    private static List<String> names(Counter... counters) {
        return List.of(Counter.names(counters));
    }

    private static List<String> smallBins() {
        int n = SizeBins.binsUpTo(1 << 20);
        List<String> out = new ArrayList<>(SizeBins.names(PosixCounter.POSIX_SIZE_READ_0_100).subList(0, n));
        out.addAll(SizeBins.names(PosixCounter.POSIX_SIZE_WRITE_0_100).subList(0, n));
        return List.copyOf(out);
    }

    public static final Table JOB, FILE, RANK, SEGMENT;
    private static final Map<String, Table> BY_NAME = new LinkedHashMap<>();

    static {
        List<String> sums = new ArrayList<>(names(POSIX_OPENS, POSIX_READS, POSIX_WRITES, POSIX_SEEKS, POSIX_STATS,
                POSIX_FSYNCS, POSIX_BYTES_READ, POSIX_BYTES_WRITTEN, POSIX_CONSEC_READS, POSIX_CONSEC_WRITES, POSIX_SEQ_READS,
                POSIX_SEQ_WRITES, POSIX_RW_SWITCHES));
        sums.addAll(SizeBins.names(POSIX_SIZE_READ_0_100));
        sums.addAll(SizeBins.names(POSIX_SIZE_WRITE_0_100));
        sums.addAll(names(POSIX_F_READ_TIME, POSIX_F_WRITE_TIME, POSIX_F_META_TIME, MPIIO_INDEP_OPENS, MPIIO_COLL_OPENS,
                MPIIO_INDEP_READS, MPIIO_INDEP_WRITES, MPIIO_COLL_READS, MPIIO_COLL_WRITES, MPIIO_SPLIT_READS,
                MPIIO_SPLIT_WRITES, MPIIO_NB_READS, MPIIO_NB_WRITES, MPIIO_BYTES_READ, MPIIO_BYTES_WRITTEN,
                MPIIO_F_READ_TIME, MPIIO_F_WRITE_TIME, MPIIO_F_META_TIME));
        sums.addAll(List.of("STDIO_BYTES_READ", "STDIO_BYTES_WRITTEN"));
        JOB_SUMS = List.copyOf(sums);

        List<Column> job = new ArrayList<>(List.of(
                c("job_key", "BIGINT"), c("source", "VARCHAR"), c("log_path", "VARCHAR"), c("darshan_version", "VARCHAR"),
                c("complete", "BOOLEAN"), c("job_id", "BIGINT"), c("uid", "BIGINT"), c("exe", "VARCHAR"),
                c("app", "VARCHAR"), c("nprocs", "BIGINT"), c("start_time", "DOUBLE"), c("end_time", "DOUBLE"),
                c("run_time", "DOUBLE"), c("io_time", "DOUBLE"), c("read_time", "DOUBLE"), c("write_time", "DOUBLE"),
                c("meta_time", "DOUBLE"), c("bytes_read", "BIGINT"), c("bytes_written", "BIGINT"),
                c("bandwidth", "DOUBLE"), c("n_files", "BIGINT"), c("shared_files", "BIGINT"), c("io_mode", "VARCHAR"),
                c("fs_type", "VARCHAR"), c("mount", "VARCHAR"), c("LUSTRE_STRIPE_WIDTH", "BIGINT"),
                c("LUSTRE_OST_COUNT", "BIGINT"), c("procs_per_ost", "DOUBLE")));
        for (String s : JOB_SUMS) job.add(c(s, s.contains("_F_") ? "DOUBLE" : "BIGINT"));
        JOB = new Table("job", List.copyOf(job));

        List<Column> file = new ArrayList<>(List.of(c("job_key", "BIGINT"), c("file_id", "BIGINT"), c("rank", "BIGINT"),
                c("file_name", "VARCHAR"), c("mount", "VARCHAR"), c("fs_type", "VARCHAR"), c("processes", "BIGINT")));
        for (ModuleId m : List.of(ModuleId.POSIX, ModuleId.MPIIO)) {
            for (String n : CounterNames.counters(m)) file.add(c(n, "BIGINT"));
            for (String n : CounterNames.fcounters(m)) file.add(c(n, "DOUBLE"));
        }
        file.addAll(List.of(c("LUSTRE_STRIPE_SIZE", "BIGINT"), c("LUSTRE_STRIPE_WIDTH", "BIGINT"),
                c("LUSTRE_OST_COUNT", "BIGINT")));
        FILE = new Table("file", List.copyOf(file));

        RANK = new Table("rank", List.of(c("job_key", "BIGINT"), c("rank", "BIGINT"), c("files", "BIGINT"),
                c("reads", "BIGINT"), c("writes", "BIGINT"), c("bytes_read", "BIGINT"), c("bytes_written", "BIGINT"),
                c("read_time", "DOUBLE"), c("write_time", "DOUBLE"), c("meta_time", "DOUBLE"), c("io_time", "DOUBLE")));
        SEGMENT = new Table("segment", List.of(c("job_key", "BIGINT"), c("file_id", "BIGINT"), c("rank", "BIGINT"),
                c("module", "VARCHAR"), c("op", "VARCHAR"), c("file_offset", "BIGINT"), c("length", "BIGINT"),
                c("start_time", "DOUBLE"), c("end_time", "DOUBLE")));
        for (Table t : List.of(JOB, FILE, RANK, SEGMENT)) BY_NAME.put(t.name(), t);
    }

    private static Column c(String n, String t) { return new Column(n, t); }

    /** The four tables, in order job, file, rank, segment. */
    public static List<Table> tables() { return List.copyOf(BY_NAME.values()); }

    /** The table of that name (job, file, rank, segment), or null. */
    public static Table table(String name) { return name == null ? null : BY_NAME.get(name.toLowerCase(Locale.ROOT)); }

    /** An SQL identifier in double quotes. */
    public static String quote(String id) { return '"' + id.replace("\"", "\"\"") + '"'; }
}
