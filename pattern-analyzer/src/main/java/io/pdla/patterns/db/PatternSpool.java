package io.pdla.patterns.db;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Hand-offs of running jobs (online PDLA) on their way into the pattern database: one small record file per
 * hand-off in {@code <database>/online-spool/}, written under a temporary name and renamed, so a reader sees whole
 * files only. The ranks of a job never open the Berkeley DB environment (one process at a time may write it, and
 * under MPJ's multicore device each rank would load and run its own copy of JE), nor encode entries: they write
 * records (the online package's {@code PassRecord}), and the process that follows the database (the replicator
 * daemon) {@link #drainInto turns} each into entries and stores them exactly as {@link PatternDatabase#storeReport}
 * does: each new or changed entry is put and queued for replication in one transaction.
 *
 * <p>Every file in the spool but a hidden one (being written) or a {@code .bad} one is a hand-off; one that is not
 * named {@code *}{@value #SUFFIX}, or that the decoder refuses, is renamed {@code .bad} and reported naming the file,
 * never stored.
 */
public final class PatternSpool {
    public static final String DIR = io.pdla.patterns.online.SpoolWriter.DIR;
    public static final String SUFFIX = io.pdla.patterns.online.SpoolWriter.SUFFIX;
    private static final String BAD = ".bad";
    /** A pass record is a few hundred bytes; anything much larger is not one. */
    private static final long MAX_BYTES = 1 << 20;

    private PatternSpool() {
    }

    public static Path dirOf(Path database) {
        return io.pdla.patterns.online.SpoolWriter.dirOf(database);
    }

    /** Writes one hand-off record into the database's spool; returns the file ({@link io.pdla.patterns.online.SpoolWriter}). */
    public static Path write(Path database, byte[] record) throws IOException {
        return io.pdla.patterns.online.SpoolWriter.write(database, record);
    }

    /** Whether the spool holds hand-offs not yet taken (a directory listing: what a short poll may afford). */
    public static boolean pending(Path database) {
        Path dir = dirOf(database);
        if (!Files.isDirectory(dir)) return false;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, PatternSpool::handOff)) {
            return s.iterator().hasNext();
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether a spool file's name is a hand-off's, complete or not ours: not one being written, not set aside. */
    public static boolean handOff(Path file) {
        String n = file.getFileName().toString();
        return !n.startsWith(".") && !n.endsWith(BAD);
    }

    /**
     * Stores every spooled hand-off into {@code db}, oldest first, each file in one transaction, and removes it.
     * {@code entries} turns a record's bytes into the entries to store, or throws an {@link IllegalArgumentException}
     * saying what is wrong with it.
     *
     * @return entries stored (new or changed, hence queued)
     */
    public static int drainInto(PatternDatabase db, Function<byte[], List<PatternEntry>> entries, Consumer<String> problems) throws IOException {
        Path dir = dirOf(db.directory());
        if (!Files.isDirectory(dir)) return 0;
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, PatternSpool::handOff)) {
            s.forEach(files::add);
        }
        files.sort(null);
        int stored = 0;
        for (Path f : files) {
            List<PatternEntry> list;
            try {
                list = entries.apply(read(f));
            } catch (IllegalArgumentException | PatternDatabaseException e) {
                problems.accept("spool file " + f + " is damaged or foreign, not stored (kept as " + BAD + "): " + e.getMessage());
                Files.move(f, f.resolveSibling(f.getFileName() + BAD), StandardCopyOption.REPLACE_EXISTING);
                continue;
            }
            stored += db.putAll(list);
            Files.delete(f);
        }
        return stored;
    }

    private static byte[] read(Path f) throws IOException {
        if (!f.getFileName().toString().endsWith(SUFFIX)) throw new IllegalArgumentException("not a hand-off record (*" + SUFFIX + ")");
        long size = Files.size(f);
        if (size > MAX_BYTES) throw new IllegalArgumentException(size + " bytes, more than a hand-off record's " + MAX_BYTES);
        return Files.readAllBytes(f);
    }
}
