package io.pdla.analytics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * A tables directory as {@code pdla logs ingest} writes it: {@code job/}, {@code file/}, {@code rank/},
 * {@code segment/} with one Parquet file per ingest batch each ({@code *.parquet}, read as a glob), and
 * {@code manifest.json}, the logs already ingested.
 */
public final class Tables {
    public static final String MANIFEST = "manifest.json";
    private final Path dir;

    private Tables(Path dir) { this.dir = dir; }

    /** Opens an existing tables directory; a clear error when it is not one. */
    public static Tables open(Path dir) {
        if (!Files.isDirectory(dir)) throw new QueryException("tables directory " + dir + " does not exist (make it with pdla logs ingest)");
        boolean any = Files.exists(dir.resolve(MANIFEST));
        for (Schema.Table t : Schema.tables()) any |= Files.isDirectory(dir.resolve(t.name()));
        if (!any) throw new QueryException(dir + " is not a tables directory: no " + MANIFEST + " and no job/ file/ rank/ segment/ folders");
        return new Tables(dir.toAbsolutePath().normalize());
    }

    /** Where tables are made (created if missing). */
    public static Tables create(Path dir) throws IOException {
        try {
            Files.createDirectories(dir);
            for (Schema.Table t : Schema.tables()) Files.createDirectories(dir.resolve(t.name()));
        } catch (IOException e) {
            throw new IOException("cannot create the tables directory " + dir + ": " + describe(e), e);
        }
        return new Tables(dir.toAbsolutePath().normalize());
    }

    /** An I/O error in words (a FileSystemException's message alone is often just the path). */
    static String describe(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException n) return "no such file or directory: " + n.getFile();
        if (e instanceof java.nio.file.AccessDeniedException a) return "permission denied: " + a.getFile();
        if (e instanceof java.nio.file.FileAlreadyExistsException f) return "exists and is not a directory: " + f.getFile();
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) return f.getReason() + ": " + f.getFile();
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    public Path dir() { return dir; }

    public Path folder(String table) { return dir.resolve(table); }

    /** The glob of a table's Parquet files. */
    public String glob(String table) { return folder(table).resolve("*.parquet").toString(); }

    /** Whether a table has at least one Parquet file. */
    public boolean hasData(String table) {
        Path f = folder(table);
        if (!Files.isDirectory(f)) return false;
        try (Stream<Path> s = Files.list(f)) {
            return s.anyMatch(p -> p.getFileName().toString().endsWith(".parquet"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
