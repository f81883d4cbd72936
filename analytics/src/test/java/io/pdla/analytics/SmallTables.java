package io.pdla.analytics;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * A hand-checkable tables directory, written through DuckDB as ingest writes it (Parquet per table):
 * <pre>
 * job_key app nprocs bandwidth bytes_written io_mode mount
 *   1      a    4      10         100         N-1    /a
 *   2      a    8      20         200         N-N    /a
 *   3      b    4      30         300         N-1    /b
 *   4      b   16      40         400         N-M    /b
 *   5      c    4      50         500         N-1    /c
 *   6      c    8      NULL         0         none   /c
 * file: (1, 11, rank 0, 60 B written) (1, 12, rank 1, 40 B) (2, 21, rank 0, 200 B) (3, 31, rank -1, 300 B)
 * rank: (1, 0, 60 B) (1, 1, 40 B) (2, 0, 200 B)
 * </pre>
 */
final class SmallTables {
    private SmallTables() {}

    static Tables write(Path dir) throws Exception {
        Tables t = Tables.create(dir);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute(Schema.JOB.createSql("job"));
            st.execute(Schema.FILE.createSql("file"));
            st.execute(Schema.RANK.createSql("rank"));
            st.execute("INSERT INTO job (job_key, app, nprocs, bandwidth, bytes_written, io_mode, mount) VALUES "
                    + "(1, 'a', 4, 10, 100, 'N-1', '/a'), (2, 'a', 8, 20, 200, 'N-N', '/a'), (3, 'b', 4, 30, 300, 'N-1', '/b'), "
                    + "(4, 'b', 16, 40, 400, 'N-M', '/b'), (5, 'c', 4, 50, 500, 'N-1', '/c'), (6, 'c', 8, NULL, 0, 'none', '/c')");
            st.execute("INSERT INTO file (job_key, file_id, rank, mount, \"POSIX_BYTES_WRITTEN\") VALUES "
                    + "(1, 11, 0, '/a', 60), (1, 12, 1, '/a', 40), (2, 21, 0, '/a', 200), (3, 31, -1, '/b', 300)");
            st.execute("INSERT INTO rank (job_key, rank, bytes_written) VALUES (1, 0, 60), (1, 1, 40), (2, 0, 200)");
            for (String n : new String[] {"job", "file", "rank"}) {
                st.execute("COPY " + n + " TO '" + t.folder(n).resolve("b1.parquet") + "' (FORMAT parquet)");
            }
        }
        return t;
    }
}
