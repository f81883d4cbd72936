package io.pdla.patterns.db;

import io.pdla.pattern.PatternKey;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * Pattern entries handed in by running jobs (online PDLA) on their way into the pattern database: one small file per
 * hand-off in {@code <database>/online-spool/}, written under a temporary name and renamed, so a reader sees whole
 * files only. The ranks of a job never open the Berkeley DB environment (one process at a time may write it, and
 * under MPJ's multicore device each rank would load and run its own copy of JE); the process that follows the
 * database (the replicator daemon) {@link #drainInto stores} the entries exactly as {@link PatternDatabase#storeReport}
 * does: each new or changed entry is put and queued for replication in one transaction.
 *
 * <p>A file is {@code "PDLASPL1"}, the entry count, then per entry the key ({@link KeyTuples}) and the value
 * ({@link EntryCodec}) each length-prefixed, then a CRC-32C of all that. A file that fails any check is renamed
 * {@code .bad} and reported, never stored.
 */
public final class PatternSpool {
    public static final String DIR = "online-spool";
    private static final byte[] MAGIC = "PDLASPL1".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final String SUFFIX = ".entries";
    /** Bounds every length read from a spool file: entries are a few KiB. */
    private static final int MAX_ENTRIES = 1024, MAX_BYTES = 1 << 20;

    private PatternSpool() {
    }

    public static Path dirOf(Path database) {
        return database.resolve(DIR);
    }

    /** The entries as one spool file's bytes; also what a job's warm-up runs to load the codec ahead of its store. */
    public static byte[] encode(List<PatternEntry> entries) {
        if (entries.size() > MAX_ENTRIES) throw new IllegalArgumentException("at most " + MAX_ENTRIES + " entries per hand-off, was " + entries.size());
        try {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(buf);
            out.write(MAGIC);
            out.writeInt(entries.size());
            for (PatternEntry e : entries) {
                byte[] k = KeyTuples.encode(e.key()), v = EntryCodec.encode(e);
                out.writeInt(k.length);
                out.write(k);
                out.writeInt(v.length);
                out.write(v);
            }
            CRC32C crc = new CRC32C();
            crc.update(buf.toByteArray());
            out.writeInt((int) crc.getValue());
            return buf.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode a spool file in memory", e);
        }
    }

    /** Writes one hand-off into the database's spool; returns the file. */
    public static Path write(Path database, List<PatternEntry> entries) throws IOException {
        Path dir = dirOf(database);
        Files.createDirectories(dir);
        String name = String.format("%019d-%s", System.currentTimeMillis(), UUID.randomUUID());
        Path tmp = dir.resolve("." + name + ".tmp"), done = dir.resolve(name + SUFFIX);
        Files.write(tmp, encode(entries));
        try {
            Files.move(tmp, done, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, done);
        }
        return done;
    }

    /** Whether the spool holds hand-offs not yet stored (a directory listing: what a short poll may afford). */
    public static boolean pending(Path database) {
        Path dir = dirOf(database);
        if (!Files.isDirectory(dir)) return false;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
            return s.iterator().hasNext();
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Stores every spooled hand-off into {@code db}, oldest first, each file in one transaction, and removes it.
     *
     * @return entries stored (new or changed, hence queued)
     */
    public static int drainInto(PatternDatabase db, Consumer<String> problems) throws IOException {
        Path dir = dirOf(db.directory());
        if (!Files.isDirectory(dir)) return 0;
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
            s.forEach(files::add);
        }
        files.sort(null);
        int stored = 0;
        for (Path f : files) {
            List<PatternEntry> entries;
            try {
                entries = decode(Files.readAllBytes(f));
            } catch (IllegalArgumentException | PatternDatabaseException e) {
                problems.accept("spool file " + f + " is damaged, not stored (kept as .bad): " + e.getMessage());
                Files.move(f, f.resolveSibling(f.getFileName() + ".bad"), StandardCopyOption.REPLACE_EXISTING);
                continue;
            }
            stored += db.putAll(entries);
            Files.delete(f);
        }
        return stored;
    }

    static List<PatternEntry> decode(byte[] data) {
        if (data.length < MAGIC.length + 8) throw new IllegalArgumentException("only " + data.length + " bytes");
        for (int i = 0; i < MAGIC.length; i++) {
            if (data[i] != MAGIC[i]) throw new IllegalArgumentException("not a pdla spool file (magic)");
        }
        CRC32C crc = new CRC32C();
        crc.update(data, 0, data.length - 4);
        if ((int) crc.getValue() != ByteBuffer.wrap(data, data.length - 4, 4).getInt()) throw new IllegalArgumentException("checksum mismatch");
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(data, MAGIC.length, data.length - MAGIC.length - 4))) {
            int n = in.readInt();
            if (n < 1 || n > MAX_ENTRIES) throw new IllegalArgumentException("entry count " + n + " outside 1.." + MAX_ENTRIES);
            List<PatternEntry> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                PatternKey key = KeyTuples.decode(field(in, "key of entry " + i));
                out.add(EntryCodec.decode(key, field(in, "value of entry " + i)));
            }
            if (in.available() != 0) throw new IllegalArgumentException(in.available() + " bytes after the last entry");
            return out;
        } catch (IOException e) {
            throw new IllegalArgumentException("cut short: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            if (e instanceof IllegalArgumentException || e instanceof PatternDatabaseException) throw e;
            throw new IllegalArgumentException(e.toString(), e);
        }
    }

    private static byte[] field(DataInputStream in, String what) throws IOException {
        int len = in.readInt();
        if (len < 0 || len > MAX_BYTES || len > in.available()) throw new IllegalArgumentException(what + ": length " + len + " exceeds the bytes left");
        byte[] b = new byte[len];
        in.readFully(b);
        return b;
    }
}
