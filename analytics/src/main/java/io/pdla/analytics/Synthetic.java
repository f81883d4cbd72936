package io.pdla.analytics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * Synthetic job and file tables made by DuckDB SQL over {@code range()} ({@code pdla logs synth}), for speed
 * figures and for tests whose answers are known by construction. Job i (0-based, job_key i + 1) has:
 * <ul>
 *   <li>app {@code app<i % 20>}, nprocs {@code 4 << (i % 7)}, io_time {@code 10 + i % 20} s;</li>
 *   <li>slow when {@code i % 4 == 0}: 64 MiB written, else 64 GiB (so the slow quarter is far below the rest);</li>
 *   <li>small I/O when {@code i % 8} is 0 or 1 (all writes 1K-10K, else 1M-4M); non-consecutive when
 *       {@code i % 3 == 0} (10 % of writes consecutive, else all); one OST when {@code i % 5 == 0}, else 8;
 *       metadata half of its I/O time when i is even, else 5 %;</li>
 *   <li>io_mode by {@code i % 5}: 0 N-1, 1 and 2 N-N, 3 N-M, 4 1-1; procs_per_ost = nprocs / OSTs;</li>
 *   <li>F file rows (100 writes each, the job's bytes split evenly; rank -1 shared when {@code i % 5 == 0}); the
 *       job's counter columns are the sums of its files'.</li>
 * </ul>
 */
public final class Synthetic {
    private Synthetic() {}

    /** Writes {@code jobs} jobs with {@code filesPerJob} files each into {@code out} (a tables directory). */
    public static void generate(Path out, long jobs, int filesPerJob) throws IOException {
        if (jobs <= 0 || filesPerJob <= 0) throw new IllegalArgumentException("jobs and files per job must be positive");
        Tables tables = Tables.create(out);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute(Schema.FILE.createSql("file"));
            st.execute(Schema.JOB.createSql("job"));
            long f = filesPerJob;
            st.execute(String.format(Locale.ROOT, """
                    INSERT INTO file (job_key, file_id, rank, file_name, mount, fs_type, processes, "POSIX_OPENS", "POSIX_WRITES",
                      "POSIX_BYTES_WRITTEN", "POSIX_CONSEC_WRITES", "POSIX_SEQ_WRITES", "POSIX_SIZE_WRITE_1K_10K",
                      "POSIX_SIZE_WRITE_1M_4M", "POSIX_F_WRITE_TIME", "POSIX_F_META_TIME", "LUSTRE_STRIPE_WIDTH", "LUSTRE_OST_COUNT")
                    SELECT i + 1, x, CASE WHEN i %% 5 = 0 THEN -1 ELSE k %% np END,
                      '/scratch/job' || i || '/file' || k, '/scratch', 'lustre', CASE WHEN i %% 5 = 0 THEN np ELSE 1 END,
                      1, 100, bytes // %1$d, CASE WHEN i %% 3 = 0 THEN 10 ELSE 100 END, 100,
                      CASE WHEN i %% 8 < 2 THEN 100 ELSE 0 END, CASE WHEN i %% 8 < 2 THEN 0 ELSE 100 END,
                      io * np * CASE WHEN i %% 2 = 0 THEN 0.5 ELSE 0.95 END / %1$d,
                      io * np * CASE WHEN i %% 2 = 0 THEN 0.5 ELSE 0.05 END / %1$d,
                      osts, osts
                    FROM (SELECT x, x // %1$d AS i, x %% %1$d AS k, 4 << ((x // %1$d) %% 7) AS np,
                            10.0 + (x // %1$d) %% 20 AS io, CASE WHEN (x // %1$d) %% 5 = 0 THEN 1 ELSE 8 END AS osts,
                            CASE WHEN (x // %1$d) %% 4 = 0 THEN 67108864 ELSE 68719476736 END AS bytes
                          FROM range(%2$d) r(x))""", f, jobs * f));
            StringBuilder sumCols = new StringBuilder(), inner = new StringBuilder(), outer = new StringBuilder();
            for (String s : Schema.JOB_SUMS) {
                sumCols.append(", ").append(Schema.quote(s));
                if (Schema.FILE.column(s) == null) {
                    outer.append(", 0"); // a counter the file table has no column for (STDIO)
                    continue;
                }
                inner.append(", coalesce(sum(").append(Schema.quote(s)).append("), 0) AS ").append(Schema.quote(s));
                outer.append(", s.").append(Schema.quote(s));
            }
            st.execute(String.format(Locale.ROOT, """
                    INSERT INTO job (job_key, source, complete, job_id, uid, exe, app, nprocs, start_time, end_time, run_time,
                      io_time, read_time, write_time, meta_time, bytes_read, bytes_written, bandwidth, n_files, shared_files,
                      io_mode, fs_type, mount, "LUSTRE_STRIPE_WIDTH", "LUSTRE_OST_COUNT", procs_per_ost%1$s)
                    SELECT a.job_key, 'synthetic', true, 1000000 + a.i, 1000 + a.i %% 50, '/apps/app' || (a.i %% 20) || '/bin/app' || (a.i %% 20),
                      'app' || (a.i %% 20), a.np, 1.7e9 + a.i * 60, 1.7e9 + a.i * 60 + 2 * a.io, 2 * a.io, a.io, 0,
                      a.io * CASE WHEN a.i %% 2 = 0 THEN 0.5 ELSE 0.95 END, a.io * CASE WHEN a.i %% 2 = 0 THEN 0.5 ELSE 0.05 END,
                      0, s.written, s.written / a.io / 1048576, %2$d, CASE WHEN a.i %% 5 = 0 THEN %2$d ELSE 0 END,
                      CASE a.i %% 5 WHEN 0 THEN 'N-1' WHEN 1 THEN 'N-N' WHEN 2 THEN 'N-N' WHEN 3 THEN 'N-M' ELSE '1-1' END,
                      'lustre', '/scratch', a.osts, a.osts, a.np / a.osts%3$s
                    FROM (SELECT x AS i, x + 1 AS job_key, 4 << (x %% 7) AS np, 10.0 + x %% 20 AS io,
                            CASE WHEN x %% 5 = 0 THEN 1 ELSE 8 END AS osts FROM range(%4$d) r(x)) a
                    JOIN (SELECT job_key, sum("POSIX_BYTES_WRITTEN") AS written%5$s FROM file GROUP BY job_key) s USING (job_key)""",
                    sumCols, f, outer, jobs, inner));
            String name = "synthetic-" + System.currentTimeMillis();
            for (String t : new String[] {"job", "file"}) {
                Path tmp = tables.folder(t).resolve(name + ".parquet.tmp");
                st.execute("COPY " + Schema.quote(t) + " TO " + DuckDbEngine.literal(tmp.toString()) + " (FORMAT parquet, COMPRESSION zstd)");
                Files.move(tmp, tables.folder(t).resolve(name + ".parquet"), StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (SQLException e) {
            throw new IOException("DuckDB: " + e.getMessage(), e);
        }
    }
}
