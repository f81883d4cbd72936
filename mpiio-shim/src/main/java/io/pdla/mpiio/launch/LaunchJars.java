package io.pdla.mpiio.launch;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;

/**
 * Where the launcher keeps the jars it writes for rank JVMs ({@link DelegateAgentJar}, {@link SharedClassesJar}): one
 * file per content, named by its SHA-256, in {@code <java.io.tmpdir>/pdla-jars-<user>}, a directory only this user
 * may enter, kept across jobs. Why: the jars must outlive the launcher's start of the ranks (the ranks open them
 * while they start, through MPJ's daemons, and the launcher cannot tell when the last has), so each used to be a new
 * temporary file deleted on the launcher's exit, and every launcher that was killed or halted left its two jars behind
 * (17 in one day's /tmp here). Now a job reuses the jar an earlier job of the same pdla build wrote: the files grow
 * with the builds used, not with the jobs run, and a build's jars unused for {@link #KEEP_UNUSED} are removed when
 * another build writes its own.
 *
 * <p>The jars become code in the ranks (one is a {@code -javaagent}), so the directory is trusted only when it is a
 * real directory (not a link) owned by this user with no access for others: anything else, such as a directory
 * another user made in a shared /tmp first, is refused and this launcher writes its jars into a new private temporary
 * directory instead, deleted on exit as before. A jar is written under a temporary name and renamed into place, so a
 * concurrent launcher, or one killed mid-write, never leaves a partial jar under a content name.
 */
final class LaunchJars {
    /** Writes a jar's entries; the bytes it writes are what the name's digest is taken over. */
    interface Contents {
        /** Writes the jar to {@code out}; returns false to say it holds nothing worth writing. */
        boolean writeTo(OutputStream out) throws IOException;
    }

    private static final Set<PosixFilePermission> OWNER_ONLY = EnumSet.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

    private LaunchJars() {
    }

    /** The jar named {@code prefix-<sha256>.jar} holding what {@code contents} writes, or null when it writes nothing. */
    static Path store(String prefix, Contents contents) throws IOException {
        return store(defaultDirectory(), prefix, contents);
    }

    static Path store(Path dir, String prefix, Contents contents) throws IOException {
        Path into = trusted(dir) ? dir : fallbackDirectory();
        Path tmp = Files.createTempFile(into, "." + prefix, ".part");
        boolean moved = false;
        try {
            MessageDigest sha;
            try {
                sha = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IOException("SHA-256 is not available in this JVM", e);
            }
            boolean any;
            try (OutputStream out = new DigestOutputStream(new java.io.BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16), sha)) {
                any = contents.writeTo(out);
            }
            if (!any) return null;
            Path jar = into.resolve(prefix + "-" + HexFormat.of().formatHex(sha.digest()) + ".jar");
            if (Files.isRegularFile(jar, LinkOption.NOFOLLOW_LINKS)) {
                Files.setLastModifiedTime(jar, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()));   // in use
                return jar;
            }
            // a later job trusts the name for the bytes: they are on the device before the name is (a crash in between must
            // not leave an empty file under a content name in a temporary directory that survives reboots)
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            try {
                Files.move(tmp, jar, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
                // another launcher put the same bytes there first
            }
            moved = !Files.exists(tmp);
            pruneUnused(into, prefix, jar);
            return jar;
        } finally {
            if (!moved) Files.deleteIfExists(tmp);
        }
    }

    /** Jars unused this long (no job reused them) are removed when another is written: other builds' jars. */
    static final java.time.Duration KEEP_UNUSED = java.time.Duration.ofDays(7);

    /**
     * Removes {@code prefix}'s jars last used before {@link #KEEP_UNUSED} (each reuse sets the time). A job that still
     * runs from one keeps its open copy: the ranks opened their jars when they started.
     */
    static void pruneUnused(Path dir, String prefix, Path keep) {
        long before = System.currentTimeMillis() - KEEP_UNUSED.toMillis();
        try (var files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String n = f.getFileName().toString();
                if (f.equals(keep) || !n.startsWith(prefix + "-") || !n.endsWith(".jar")) continue;
                if (Files.getLastModifiedTime(f, LinkOption.NOFOLLOW_LINKS).toMillis() < before) Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            // a jar left for the next launcher to remove
        }
    }

    static Path defaultDirectory() {
        String user = System.getProperty("user.name", "unknown").replaceAll("[^A-Za-z0-9._-]", "_");
        return Path.of(System.getProperty("java.io.tmpdir"), "pdla-jars-" + user);
    }

    /**
     * Whether {@code dir} may hold jars the ranks load: created here owner-only when absent; an existing one must be a
     * directory, not a link, owned by this process's user, with no permission for group or others.
     */
    static boolean trusted(Path dir) {
        try {
            if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                try {
                    Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                } catch (FileAlreadyExistsException raced) {
                    // made meanwhile, by another launcher or another user: checked below like any existing one
                }
            }
            PosixFileAttributes a = Files.getFileAttributeView(dir, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes();
            if (!a.isDirectory() || a.isSymbolicLink()) return false;
            Path probe = Files.createTempFile("pdla-owner", ".probe");
            try {
                if (!a.owner().equals(Files.getOwner(probe))) return false;
            } finally {
                Files.deleteIfExists(probe);
            }
            return a.permissions().equals(OWNER_ONLY);
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /** A new private directory for this launcher's jars; it and they are deleted at its exit. */
    private static Path fallbackDirectory() throws IOException {
        Path dir = Files.createTempDirectory("pdla-jars");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (var files = Files.list(dir)) {
                files.forEach(f -> f.toFile().delete());
            } catch (IOException ignored) {
                // best effort at exit, as deleteOnExit is
            }
            dir.toFile().delete();
        }, "pdla-launch-jars-cleanup"));
        return dir;
    }
}
