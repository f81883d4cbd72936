package io.pdla.catalog;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The originals a catalog may hold replicas of, as a plain file beside the Berkeley DB environment
 * ({@value #FILE}, one URI a line), so that opening a file no replica was ever built for costs one small file
 * read instead of a catalog transaction (opening a JE environment takes tens to hundreds of milliseconds).
 *
 * <p>It is a superset, and that is what makes it safe: an original is added, durably, before its first entry
 * commits, and never removed; every later state of its entries (VALID, STALE, DIRTY) comes from that first
 * one. So "absent" means "no replica in any state", and a writer that skips the catalog for such a file cannot
 * miss a replica it should have claimed. A catalog without the file (made before it existed) answers "may have".
 */
public final class ReplicatedOriginals {
    public static final String FILE = "originals.idx";
    private static final String LOCK = FILE + ".lock";

    private ReplicatedOriginals() {
    }

    /**
     * The index as this process last read it, per catalog directory, with the file's stamp at that time. Redirect asks
     * at every open of every rank, twice (before the open's meeting and in its {@code opened} hook), and the index only
     * changes when an original is added: an unchanged stamp answers from memory, one stat instead of reading the file.
     * Safe because every change replaces the file by a rename of a new one that has one more line ({@link #add}), so its
     * size grows with each change, and the stamp is taken before the read: what is remembered is never older than its
     * stamp says. Per rank (this class is no shared class); a handful of catalogs at most, so it is simply cleared when
     * a process uses more than {@value #MAX_REMEMBERED}.
     */
    private static final Map<Path, Seen> LAST_READ = new ConcurrentHashMap<>();
    private static final int MAX_REMEMBERED = 16;
    /** How many times this process read an index file: what the stamp saves is visible to tests. */
    private static final AtomicLong READS = new AtomicLong();

    /** The index's originals, read when the file had this stamp. */
    private record Seen(Object fileKey, long size, FileTime modified, Set<String> originals) {
        boolean stampOf(BasicFileAttributes a) {
            return size == a.size() && modified.equals(a.lastModifiedTime()) && java.util.Objects.equals(fileKey, a.fileKey());
        }
    }

    /** Whether the catalog in {@code catalogDir} may hold a replica of {@code original}. */
    public static boolean mayHave(Path catalogDir, URI original) {
        if (!Files.isDirectory(catalogDir)) return false;   // no catalog, no replicas
        Path file = catalogDir.resolve(FILE);
        try {
            BasicFileAttributes stamp = Files.readAttributes(file, BasicFileAttributes.class);
            Seen seen = LAST_READ.get(catalogDir);
            if (seen == null || !seen.stampOf(stamp)) {
                READS.incrementAndGet();
                seen = new Seen(stamp.fileKey(), stamp.size(), stamp.lastModifiedTime(),
                        Set.copyOf(Files.readAllLines(file, StandardCharsets.UTF_8)));
                if (LAST_READ.size() >= MAX_REMEMBERED) LAST_READ.clear();
                LAST_READ.put(catalogDir, seen);
            }
            return seen.originals().contains(original.toString());
        } catch (NoSuchFileException legacy) {
            LAST_READ.remove(catalogDir);
            return Files.exists(catalogDir.resolve("00000000.jdb"));
        } catch (IOException unreadable) {
            return true;   // cannot tell: look in the catalog itself
        }
    }

    /** How many times this process read an index file (not counting answers from an unchanged stamp). */
    static long indexReads() {
        return READS.get();
    }

    /** Creates the empty index of a catalog that has none and holds no replica yet (a new one). */
    static void createIfAbsent(Path catalogDir) throws IOException {
        Path f = catalogDir.resolve(FILE);
        if (!Files.exists(f)) replace(catalogDir, Set.of());
    }

    /** Records {@code original}, durably, before the caller commits its first entry. */
    public static void add(Path catalogDir, URI original) throws IOException {
        Files.createDirectories(catalogDir);
        try (FileChannel lockFile = FileChannel.open(catalogDir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = lock(lockFile)) {
            Set<String> all = new LinkedHashSet<>();
            Path f = catalogDir.resolve(FILE);
            if (Files.exists(f)) all.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
            if (!all.add(original.toString())) return;
            replace(catalogDir, all);
        }
    }

    private static void replace(Path catalogDir, Set<String> lines) throws IOException {
        Path tmp = catalogDir.resolve(FILE + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            StringBuilder b = new StringBuilder();
            for (String l : lines) b.append(l).append('\n');
            ch.write(java.nio.ByteBuffer.wrap(b.toString().getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        Files.move(tmp, catalogDir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel dir = FileChannel.open(catalogDir, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException ignored) {
            // not every file system lets a directory be opened for sync
        }
    }

    /** A cross-process lock; threads of one JVM (MPJ ranks, tests) wait for each other the same way. */
    private static FileLock lock(FileChannel ch) throws IOException {
        for (int attempt = 0; ; attempt++) {
            try {
                return ch.lock();
            } catch (OverlappingFileLockException sameJvm) {
                if (attempt > 2000) throw new IOException("index of replicated originals stays locked in this JVM", sameJvm);
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("waiting for the index of replicated originals");
                }
            }
        }
    }
}
