package io.pdla.catalog;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;

/**
 * Writers of files no replica was ever built for ({@link ReplicatedOriginals} says so), registered by a marker
 * file beside the catalog instead of a catalog transaction, so that writing an unreplicated file costs two file
 * operations rather than Berkeley DB environment opens. The builder must not publish a replica while such a
 * writer has the original open, and the two meet like Dekker's protocol: the writer creates its marker, then
 * reads the index; the builder adds the original to the index, then looks for markers. Whatever the
 * interleaving, one of them sees the other: either the writer finds the original indexed and takes the catalog
 * path, or the builder finds the marker and defers. Markers of processes that are gone are ignored and removed.
 */
public final class UnreplicatedWriters {
    static final String DIR = "writers.d";

    private UnreplicatedWriters() {
    }

    /** Creates this process's marker for {@code original}, durably; the caller deletes it with {@link #release}. */
    public static Path register(Path catalogDir, URI original) throws IOException {
        Path dir = catalogDir.resolve(DIR).resolve(hash(original));
        Files.createDirectories(dir);
        Path marker = dir.resolve(WriterSession.thisHost() + "@" + ProcessHandle.current().pid() + "@" + UUID.randomUUID());
        try (FileChannel ch = FileChannel.open(marker, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap((original + "\n").getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        syncDirectory(dir);
        return marker;
    }

    public static void release(Path marker) throws IOException {
        Files.deleteIfExists(marker);
    }

    /** How many live processes have {@code original} open for writing without the catalog; removes dead ones' markers. */
    public static int alive(Path catalogDir, URI original) throws IOException {
        Path dir = catalogDir.resolve(DIR).resolve(hash(original));
        int alive = 0;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path m : s) {
                String[] p = m.getFileName().toString().split("@");
                boolean dead = p.length == 3 && p[0].equals(WriterSession.thisHost()) && !isAlive(p[1]);
                if (dead) Files.deleteIfExists(m);
                else alive++;
            }
        } catch (NoSuchFileException none) {
            return 0;
        }
        return alive;
    }

    private static boolean isAlive(String pid) {
        try {
            return ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
        } catch (NumberFormatException e) {
            return true;   // not ours to judge
        }
    }

    private static String hash(URI original) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(original.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }

    private static void syncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException ignored) {
            // not every file system lets a directory be opened for sync
        }
    }
}
