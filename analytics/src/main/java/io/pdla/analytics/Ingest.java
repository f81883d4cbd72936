package io.pdla.analytics;

import io.pdla.darshan.Compression;
import io.pdla.darshan.DarshanLog;
import io.pdla.darshan.DarshanReader;
import io.pdla.darshan.DarshanWriter;
import io.pdla.tracer.counters.DarshanLogExport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * {@code pdla logs ingest}: Darshan logs ({@code *.darshan}) and pdla trace directories (a folder holding
 * {@code rank-*.pdlc} summaries; read through the tracer's Darshan export, so both kinds give the same columns)
 * into the job/file/rank/segment tables. Rows go through DuckDB's appender into an in-memory database and out
 * as one Parquet file per table per batch ({@code COPY ... TO (FORMAT parquet)}, written under a temporary name
 * and renamed, so a reader never sees half a file); the manifest is saved after the batch's files.
 * Logs are read on a few threads; rows are appended in path order.
 */
public final class Ingest {
    /** Logs per Parquet batch (bounds the in-memory staging database). */
    static final int BATCH_LOGS = 20_000;
    /** Rows per Parquet batch, about (a DXT-heavy log can hold millions of segments). */
    static final long BATCH_ROWS = 20_000_000;

    /** A log that could not be read, or was read only in part. */
    public record Problem(Path path, String error, boolean skipped) {}

    public record Result(int found, int alreadyIngested, int ingested, List<Problem> problems, Map<String, Long> rows,
                         double seconds) {
        public long skippedCount() { return problems.stream().filter(Problem::skipped).count(); }
    }

    /** Progress callbacks (the CLI's progress bar). */
    public interface Progress {
        void start(int logs);

        void step();

        Progress NONE = new Progress() {
            @Override public void start(int logs) {}

            @Override public void step() {}
        };
    }

    private final Tables tables;
    private final int threads;
    private final int batchLogs;
    private final long batchRows;

    public Ingest(Tables tables) { this(tables, Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()))); }

    public Ingest(Tables tables, int threads) { this(tables, threads, BATCH_LOGS, BATCH_ROWS); }

    Ingest(Tables tables, int threads, int batchLogs, long batchRows) {
        this.tables = tables;
        this.threads = threads;
        this.batchLogs = batchLogs;
        this.batchRows = batchRows;
    }

    /** One log's rows, made on a reader thread, appended in path order. */
    private static final class Rows implements RowSink {
        final DarshanLog log;
        long jobKey;
        final List<Schema.Table> tables = new ArrayList<>();
        final List<Object[]> values = new ArrayList<>();

        Rows(DarshanLog log) { this.log = log; }

        @Override
        public void row(Schema.Table table, Object[] v) {
            tables.add(table);
            values.add(v);
            if (table == Schema.JOB) jobKey = (Long) v[0];
        }
    }

    /** A log or trace directory found under the inputs. */
    record Source(Path path, boolean traceDir, long size, long mtime) {
        String key() { return path.toString(); }
    }

    /** Every {@code *.darshan} file and trace directory under the inputs (a file or directory each), sorted. */
    public static List<Path> discover(List<Path> inputs) throws IOException {
        TreeSet<Path> out = new TreeSet<>();
        for (Path in : inputs) {
            Path p = in.toAbsolutePath().normalize();
            if (!Files.exists(p)) throw new IOException(in + " does not exist");
            if (Files.isRegularFile(p)) {
                out.add(p);
                continue;
            }
            Map<Path, Boolean> traceDirs = new java.util.HashMap<>();
            try (Stream<Path> s = Files.walk(p)) {
                s.forEach(f -> {
                    if (Files.isDirectory(f)) {
                        if (traceDirs.computeIfAbsent(f, Ingest::isTraceDir)) out.add(f);
                    } else if (f.getFileName().toString().endsWith(".darshan")
                            && !traceDirs.computeIfAbsent(f.getParent(), Ingest::isTraceDir)) {
                        out.add(f); // not a trace dir's own Darshan export: that is the same run as the directory
                    }
                });
            }
        }
        return new ArrayList<>(out);
    }

    static boolean isTraceDir(Path dir) {
        if (dir == null || !Files.isDirectory(dir)) return false;
        try (Stream<Path> s = Files.list(dir)) {
            return s.anyMatch(f -> {
                String n = f.getFileName().toString();
                return n.startsWith("rank-") && n.endsWith(".pdlc");
            });
        } catch (IOException e) {
            return false;
        }
    }

    static Source source(Path p) throws IOException {
        if (Files.isDirectory(p)) {
            long size = 0, mtime = 0;
            try (Stream<Path> s = Files.list(p)) {
                for (Path f : (Iterable<Path>) s::iterator) {
                    BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
                    if (!a.isRegularFile()) continue;
                    size += a.size();
                    mtime = Math.max(mtime, a.lastModifiedTime().toMillis());
                }
            }
            return new Source(p, true, size, mtime);
        }
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        return new Source(p, false, a.size(), a.lastModifiedTime().toMillis());
    }

    /** Reads a Darshan log, or a trace directory as the Darshan log the tracer would export. */
    static DarshanLog read(Source s) throws Exception {
        DarshanReader reader = new DarshanReader();
        if (!s.traceDir()) return reader.read(s.path());
        return reader.read(DarshanWriter.write(DarshanLogExport.content(s.path()), Compression.NONE));
    }

    /** The job key: 64 bits of a name-based UUID of path, size and mtime. */
    static long jobKey(Source s) {
        return UUID.nameUUIDFromBytes((s.key() + '\0' + s.size() + '\0' + s.mtime()).getBytes(StandardCharsets.UTF_8))
                .getMostSignificantBits();
    }

    public Result run(List<Path> inputs, Progress progress) throws IOException {
        long t0 = System.nanoTime();
        List<Path> found = discover(inputs);
        Manifest manifest = Manifest.load(tables.dir());
        List<Source> todo = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        int already = 0;
        for (Path p : found) {
            Source s;
            try {
                s = source(p);
            } catch (IOException e) {
                problems.add(new Problem(p, "cannot stat: " + e.getMessage(), true));
                continue;
            }
            if (manifest.has(s.key(), s.size(), s.mtime())) already++;
            else todo.add(s);
        }
        Map<String, Long> rows = new LinkedHashMap<>();
        for (Schema.Table t : Schema.tables()) rows.put(t.name(), 0L);
        int ingested = 0;
        progress.start(todo.size());
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "pdla-ingest");
            t.setDaemon(true);
            return t;
        });
        Batch batch = null;
        try {
            Deque<Future<Object>> window = new ArrayDeque<>();
            int next = 0;
            for (int i = 0; i < todo.size(); i++) {
                while (next < todo.size() && window.size() < 4 * threads) {
                    Source s = todo.get(next++);
                    window.add(pool.submit(() -> {
                        try {
                            // read, and make the job/file/rank rows, on the pool; appending stays on this thread
                            DarshanLog log = read(s);
                            Rows made = new Rows(log);
                            LogRows.emit(log, jobKey(s), s.traceDir() ? "pdla-trace" : "darshan", s.key(), made);
                            return made;
                        } catch (Exception e) {
                            return e;
                        }
                    }));
                }
                Source s = todo.get(i);
                Object got;
                try {
                    got = window.poll().get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                } catch (ExecutionException e) {
                    got = e.getCause();
                }
                if (got instanceof Rows made) {
                    if (batch == null) batch = new Batch();
                    batch.add(s, made);
                    DarshanLog log = made.log;
                    if (log.firstError() != null) problems.add(new Problem(s.path(), "read in part: " + log.firstError().getMessage(), false));
                    ingested++;
                    if (batch.logs >= batchLogs || batch.rows >= batchRows) {
                        batch.finish(manifest, rows);
                        batch = null;
                    }
                } else {
                    Throwable e = (Throwable) got;
                    problems.add(new Problem(s.path(), e.getMessage() == null ? e.toString() : e.getMessage(), true));
                }
                progress.step();
            }
            if (batch != null) batch.finish(manifest, rows);
            batch = null;
        } finally {
            pool.shutdownNow();
            if (batch != null) batch.abandon();
        }
        return new Result(found.size(), already, ingested, problems, rows, (System.nanoTime() - t0) / 1e9);
    }

    /**
     * The rows of up to {@link #BATCH_LOGS} logs or about {@link #BATCH_ROWS} rows in an in-memory DuckDB, written
     * out as one Parquet file per table; the manifest learns the batch's logs after its files are in place.
     */
    private final class Batch implements RowSink {
        final String name = "batch-" + System.currentTimeMillis() + "-" + UUID.randomUUID().toString().substring(0, 8);
        final Connection conn;
        final Map<Schema.Table, DuckDBAppender> app = new LinkedHashMap<>();
        final Map<Schema.Table, long[]> counts = new LinkedHashMap<>();
        final Map<String, Manifest.Entry> added = new LinkedHashMap<>();
        final DuckDBAppender seg;
        final long[] segCount;
        int logs;
        long rows;

        Batch() throws IOException {
            try {
                conn = DriverManager.getConnection("jdbc:duckdb:");
                DuckDBConnection dc = conn.unwrap(DuckDBConnection.class);
                try (Statement st = conn.createStatement()) {
                    for (Schema.Table t : Schema.tables()) st.execute(t.createSql(t.name()));
                }
                for (Schema.Table t : Schema.tables()) {
                    app.put(t, dc.createAppender(DuckDBConnection.DEFAULT_SCHEMA, t.name()));
                    counts.put(t, new long[1]);
                }
                seg = app.get(Schema.SEGMENT);
                segCount = counts.get(Schema.SEGMENT);
            } catch (SQLException e) {
                throw new IOException("DuckDB: " + e.getMessage(), e);
            }
        }

        void add(Source s, Rows made) throws IOException {
            try {
                for (int k = 0; k < made.tables.size(); k++) row(made.tables.get(k), made.values.get(k));
                rows += made.tables.size();
                rows += LogRows.segments(made.log, made.jobKey, this);
            } catch (Exception e) {
                throw new IOException("appending the rows of " + s.path() + ": " + e.getMessage(), e);
            }
            added.put(s.key(), new Manifest.Entry(s.size(), s.mtime(), made.jobKey, name));
            logs++;
        }

        @Override
        public void row(Schema.Table t, Object[] v) throws SQLException {
            DuckDBAppender a = app.get(t);
            a.beginRow();
            for (Object o : v) {
                if (o == null) a.appendNull();
                else if (o instanceof Long l) a.append(l.longValue());
                else if (o instanceof Double d) a.append(d.doubleValue());
                else if (o instanceof String str) a.append(str);
                else if (o instanceof Boolean b) a.append(b.booleanValue());
                else if (o instanceof Integer i) a.append((long) i);
                else throw new IllegalStateException("value of type " + o.getClass());
            }
            a.endRow();
            counts.get(t)[0]++;
        }

        @Override
        public void segment(long jobKey, long fileId, long rank, String module, String op, long offset, long length,
                            double start, double end) throws SQLException {
            seg.beginRow();
            seg.append(jobKey).append(fileId).append(rank).append(module).append(op).append(offset).append(length)
                    .append(start).append(end);
            seg.endRow();
            segCount[0]++;
        }

        void finish(Manifest manifest, Map<String, Long> totals) throws IOException {
            try (conn) {
                for (DuckDBAppender a : app.values()) a.close();
                try (Statement st = conn.createStatement()) {
                    for (Schema.Table t : Schema.tables()) {
                        long n = counts.get(t)[0];
                        if (n == 0) continue;
                        Path dir = tables.folder(t.name());
                        Files.createDirectories(dir);
                        Path tmp = dir.resolve(name + ".parquet.tmp"), out = dir.resolve(name + ".parquet");
                        st.execute("COPY " + Schema.quote(t.name()) + " TO " + DuckDbEngine.literal(tmp.toString())
                                + " (FORMAT parquet, COMPRESSION zstd)");
                        Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE);
                        totals.merge(t.name(), n, Long::sum);
                    }
                }
            } catch (SQLException e) {
                throw new IOException("DuckDB: " + e.getMessage(), e);
            }
            manifest.logs.putAll(added);
            manifest.save(tables.dir());
        }

        void abandon() {
            try {
                conn.close();
            } catch (SQLException ignored) {
                // the batch is dropped; its logs are not in the manifest, so the next run reads them again
            }
        }
    }
}
