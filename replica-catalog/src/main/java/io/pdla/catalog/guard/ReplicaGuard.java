package io.pdla.catalog.guard;

import io.pdla.storage.FileOwnership;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageException;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules that keep replicas from leaking one user's data to another and from being planted (see
 * {@code replicator/README.md}, "Security"). Catalog and pattern contents are data written by whoever can
 * write the catalog: a path from them is opened, written or deleted only after these checks.
 *
 * <p>Where a replica may live: {@code <dir of the original>/.pdla-replicas/<hash of its key>/replica-<id>}, or
 * {@code <root>/<hash>/replica-<id>} under a replica root the daemon was given (listed in the catalog's
 * {@value #ROOTS_FILE}). On POSIX (file: URIs) moreover:
 * <ul>
 * <li>no symbolic link on the path below the original's directory (or the root), each component read with
 * {@code NOFOLLOW_LINKS}, and the replica directory's real path inside the original's real directory;</li>
 * <li>the replica file and its key directory belong to the original's owner (the daemon gives them that owner
 * and the original's group), the replica's permission bits are a subset of the original's, and no
 * directory on the way is writable by anyone but its owner;</li>
 * <li>the replica folder ({@code .pdla-replicas}) belongs to root, the daemon's user or the original's owner.</li>
 * </ul>
 * Other stores, through the storage SPI ({@link StorageDriver#ownership}): where the store keeps owners (HDFS,
 * sim-pfs), the same owner, permission and group rules on the replica and its key directory; where it keeps none,
 * the containment rule on the URI's path alone. Everywhere: a replica's group write is accepted only for its
 * original's group, so that whoever may write a replica may write its original.
 */
public final class ReplicaGuard {
    /** The folder beside each original that holds its replicas when no replica root is given. */
    public static final String DEFAULT_DIR_NAME = ".pdla-replicas";
    /** File in the catalog directory listing the replica roots daemons were given, one URI a line. */
    public static final String ROOTS_FILE = "replica-roots";
    private static final Pattern NAME = Pattern.compile("replica-[0-9]{1,19}-[0-9a-f]{8}(\\.tmp)?");
    private static final Pattern KEY_DIR = Pattern.compile("[0-9a-f]{20}");
    private static final Set<PosixFilePermission> GROUP_OTHER_WRITE = EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

    /** Thrown when a replica cannot be built or used safely; the message says what and where. */
    public static class Refused extends IOException {
        public Refused(String message) {
            super(message);
        }
    }

    private final List<URI> roots;

    private ReplicaGuard(List<URI> roots) {
        this.roots = List.copyOf(roots);
    }

    /** The guard of a catalog: the default location plus the replica roots recorded in it. */
    public static ReplicaGuard forCatalog(Path catalogDir) {
        List<URI> roots = new ArrayList<>();
        Path f = catalogDir.resolve(ROOTS_FILE);
        try {
            for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                String s = line.strip();
                if (s.isEmpty()) continue;
                try {
                    roots.add(directoryUri(URI.create(s)));
                } catch (IllegalArgumentException bad) {
                    // a bad line is ignored: it can only narrow where replicas are accepted
                }
            }
        } catch (IOException none) {
            // no roots recorded
        }
        return new ReplicaGuard(roots);
    }

    /** Records a daemon's replica root in the catalog (idempotent), so that redirect accepts replicas under it. */
    public static void recordRoot(Path catalogDir, URI root) throws IOException {
        URI r = directoryUri(root);
        if (forCatalog(catalogDir).roots.contains(r)) return;
        Files.createDirectories(catalogDir);
        Files.writeString(catalogDir.resolve(ROOTS_FILE), r + "\n", StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.SYNC);
    }

    static URI directoryUri(URI u) {
        if (u.getScheme() == null) u = Path.of(u.getPath()).toAbsolutePath().toUri();
        String s = u.normalize().toString();
        return URI.create(s.endsWith("/") ? s : s + "/");
    }

    // ---- where a replica may be ---------------------------------------------------------------------------

    /**
     * Null when {@code replica} is where a replica of {@code original} under key directory {@code keyDir} may be
     * (name, key directory, replica folder or a recorded root, no {@code ..}); otherwise the reason.
     */
    public String reasonMisplaced(URI original, String keyDir, URI replica) {
        URI n = replica.normalize();
        if (!n.equals(replica) || replica.getPath() == null || replica.getPath().contains("/../") || replica.getRawQuery() != null
                || replica.getRawFragment() != null) {
            return "replica path " + replica + " is not in normal form";
        }
        if (original != null && (!same(original.getScheme(), replica.getScheme()) || !same(original.getAuthority(), replica.getAuthority()))) {
            return "replica " + replica + " is not on the store of its original " + original;
        }
        String path = replica.getPath();
        int slash = path.lastIndexOf('/');
        if (slash <= 0 || !NAME.matcher(path.substring(slash + 1)).matches()) return "replica " + replica + " is not named replica-<id>";
        String dir = path.substring(0, slash);
        int s2 = dir.lastIndexOf('/');
        if (s2 < 0) return "replica " + replica + " has no key directory";
        String key = dir.substring(s2 + 1);
        if (keyDir != null ? !key.equals(keyDir) : !KEY_DIR.matcher(key).matches()) {
            return "replica " + replica + " is not in its key's directory " + (keyDir != null ? keyDir : "(20 hex digits)");
        }
        String folder = dir.substring(0, s2 + 1);
        if (original != null) {
            String op = original.getPath();
            String def = op.substring(0, op.lastIndexOf('/') + 1) + DEFAULT_DIR_NAME + "/";
            if (folder.equals(def)) return null;
        } else if (folder.endsWith("/" + DEFAULT_DIR_NAME + "/")) {
            return null;
        }
        for (URI r : roots) {
            if (same(r.getScheme(), replica.getScheme()) && same(r.getAuthority(), replica.getAuthority()) && folder.equals(r.getPath())) return null;
        }
        return "replica " + replica + " leaves the replica folder beside its original and every recorded replica root";
    }

    private static boolean same(String a, String b) {
        return a == null ? b == null || b.isEmpty() : a.equals(b) || (b == null && a.isEmpty());
    }

    /**
     * Null when {@code replica} may be served to this process, or written back into {@code original} by the
     * daemon, as the replica of {@code original}: {@link #reasonMisplaced}, and on POSIX no symbolic link,
     * the original's owner, no permission the original lacks (see the class comment). Otherwise the reason.
     */
    public String reasonRefused(URI original, String keyDir, URI replica) {
        String misplaced = reasonMisplaced(original, keyDir, replica);
        if (misplaced != null) return misplaced;
        if (!"file".equals(replica.getScheme())) return reasonRefusedByStore(original, replica);
        try {
            Path file = Path.of(replica);
            Path keyPath = file.getParent();
            Path folder = keyPath.getParent();
            PosixFileAttributes o = Files.readAttributes(Path.of(original), PosixFileAttributes.class);
            PosixFileAttributes f = noLink(file, "replica");
            PosixFileAttributes k = noLink(keyPath, "replica key directory");
            PosixFileAttributes d = noLink(folder, "replica folder");
            if (!f.isRegularFile()) return "replica " + file + " is not a regular file";
            if (!k.isDirectory() || !d.isDirectory()) return "replica " + file + ": its directories are not directories";
            String inside = inside(Path.of(original), folder);
            if (inside != null) return inside;
            if (!f.owner().equals(o.owner())) return "replica " + file + " belongs to " + f.owner().getName() + ", its original " + original.getPath() + " to " + o.owner().getName();
            if (!k.owner().equals(o.owner())) return "replica directory " + keyPath + " belongs to " + k.owner().getName() + ", not to the original's owner " + o.owner().getName();
            if (!d.owner().equals(o.owner()) && !isRootOrSelf(d.owner(), folder)) {
                return "replica folder " + folder + " belongs to " + d.owner().getName() + ", neither root, this user nor the original's owner";
            }
            if (!o.permissions().containsAll(f.permissions())) {
                return "replica " + file + " has permissions " + bits(f.permissions()) + ", wider than its original's " + bits(o.permissions());
            }
            if (f.permissions().contains(PosixFilePermission.GROUP_WRITE) && !f.group().equals(o.group())) {
                return groupWriters(file.toString(), f.group().getName(), original.getPath(), o.group().getName());
            }
            if (!java.util.Collections.disjoint(k.permissions(), GROUP_OTHER_WRITE) || !java.util.Collections.disjoint(d.permissions(), GROUP_OTHER_WRITE)) {
                return "replica directory " + keyPath + " or " + folder + " is writable by others than its owner";
            }
            return null;
        } catch (Refused r) {
            return r.getMessage();
        } catch (NoSuchFileException gone) {
            return "replica " + replica + " or its original does not exist (" + gone.getMessage() + ")";
        } catch (IOException | UnsupportedOperationException e) {
            return "replica " + replica + " cannot be checked: " + e;
        }
    }

    /** Who may write the replica must be able to write the original: otherwise a write-back would let them. */
    private static String groupWriters(String replica, String replicaGroup, String original, String originalGroup) {
        return "replica " + replica + " is writable by group " + replicaGroup + ", its original " + original + " belongs to group " + originalGroup;
    }

    /**
     * Stores other than POSIX, through the storage SPI ({@link StorageDriver#ownership}): where the original's store
     * keeps owners, the replica and its key directory must have the original's owner, the replica no permission the
     * original lacks and group write only for the original's group, the key directory no group or other write.
     * Where the store keeps no owners, the containment rule ({@link #reasonMisplaced}) is all there is to check.
     */
    private static String reasonRefusedByStore(URI original, URI replica) {
        try {
            StorageDrivers drivers = StorageDrivers.installed();
            Optional<FileOwnership> o = drivers.forUri(original).ownership(original);
            if (o.isEmpty()) return null;
            StorageDriver rd = drivers.forUri(replica);
            Optional<FileOwnership> f = rd.ownership(replica);
            if (f.isEmpty()) return "replica " + replica + " reports no owner, its original " + original + " belongs to " + o.get().owner();
            if (!f.get().owner().equals(o.get().owner())) {
                return "replica " + replica + " belongs to " + f.get().owner() + ", its original " + original.getPath() + " to " + o.get().owner();
            }
            if (!o.get().permissions().containsAll(f.get().permissions())) {
                return "replica " + replica + " has permissions " + f.get().bits() + ", wider than its original's " + o.get().bits();
            }
            if (f.get().permissions().contains(PosixFilePermission.GROUP_WRITE) && !f.get().group().equals(o.get().group())) {
                return groupWriters(replica.toString(), f.get().group(), original.getPath(), o.get().group());
            }
            URI keyDir = replica.resolve(".");
            Optional<FileOwnership> k = rd.ownership(keyDir);
            if (k.isPresent()) {
                if (!k.get().owner().equals(o.get().owner())) {
                    return "replica directory " + keyDir + " belongs to " + k.get().owner() + ", not to the original's owner " + o.get().owner();
                }
                if (!java.util.Collections.disjoint(k.get().permissions(), GROUP_OTHER_WRITE)) {
                    return "replica directory " + keyDir + " is writable by others than its owner (" + k.get().bits() + ")";
                }
            }
            return null;
        } catch (NoSuchFileException gone) {
            return "replica " + replica + " or its original does not exist (" + gone.getMessage() + ")";
        } catch (StorageException e) {
            if (e.reason() == StorageException.Reason.NO_SUCH_FILE) return "replica " + replica + " or its original does not exist (" + e.getMessage() + ")";
            return "replica " + replica + " cannot be checked: " + e.getMessage();
        } catch (IOException | RuntimeException e) {
            return "replica " + replica + " cannot be checked: " + e;
        }
    }

    /**
     * Null when the daemon may delete {@code file} as a leftover replica (journal rows name no original): it is
     * where some replica may be, is not a symbolic link and has none on its way; otherwise the reason.
     */
    public String reasonNotDeletable(URI file) {
        String misplaced = reasonMisplaced(null, null, file);
        if (misplaced != null) return misplaced;
        if (!"file".equals(file.getScheme())) return null;
        try {
            Path p = Path.of(file);
            PosixFileAttributes a = noLink(p, "replica");
            if (!a.isRegularFile()) return file + " is not a regular file";
            noLink(p.getParent(), "replica key directory");
            Path folder = p.getParent().getParent();
            noLink(folder, "replica folder");
            if (folder.getFileName().toString().equals(DEFAULT_DIR_NAME)) {
                String inside = inside(folder.getParent().resolve("x"), folder);
                if (inside != null) return inside;
            }
            return null;
        } catch (NoSuchFileException gone) {
            return null;    // nothing to delete
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    // ---- making replicas right -----------------------------------------------------------------------------

    /** The original's owner, group and permissions, or null when the store has none (not POSIX). */
    public static PosixFileAttributes ownerOf(URI original) throws IOException {
        if (!"file".equals(original.getScheme())) return null;
        try {
            return Files.readAttributes(Path.of(original), PosixFileAttributes.class);
        } catch (UnsupportedOperationException none) {
            return null;
        }
    }

    /** Thrown when a store refuses to give a replica its original's owner: the daemon then refuses to replicate. */
    public static final class CannotOwn extends Refused {
        public CannotOwn(String message) {
            super(message);
        }
    }

    /** The original's ownership on a store other than POSIX, or empty where that store keeps no owners. */
    public static Optional<FileOwnership> storeOwnerOf(StorageDriver driver, URI original) throws IOException {
        if ("file".equals(original.getScheme())) return Optional.empty();
        return driver.ownership(original);
    }

    /**
     * A store other than POSIX: makes the key directory and gives it the original's owner and group, {@code rwx}
     * for the owner and {@code r-x} for group and others only where they may read the original. A store that
     * refuses (the daemon's user may not hand files to another user there) makes it {@link CannotOwn}.
     */
    public static void prepareStoreDirectory(StorageDriver rd, FileOwnership original, URI keyDir) throws IOException {
        rd.mkdirs(keyDir);
        Set<PosixFilePermission> p = EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);
        if (original.permissions().contains(PosixFilePermission.GROUP_READ)) p.addAll(EnumSet.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_EXECUTE));
        if (original.permissions().contains(PosixFilePermission.OTHERS_READ)) p.addAll(EnumSet.of(PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_EXECUTE));
        handOver(rd, keyDir, new FileOwnership(original.owner(), original.group(), p));
    }

    /** A store other than POSIX: the new, still empty replica gets the original's owner, group and permissions without execute. */
    public static void secureStoreFile(StorageDriver rd, FileOwnership original, URI file) throws IOException {
        handOver(rd, file, original.withoutExecute());
    }

    private static void handOver(StorageDriver rd, URI uri, FileOwnership o) throws IOException {
        try {
            rd.setOwnership(uri, o);
        } catch (StorageException e) {
            if (e.reason() == StorageException.Reason.ACCESS_DENIED || e.reason() == StorageException.Reason.UNSUPPORTED) {
                throw new CannotOwn("cannot give the replica at " + uri + " its original's owner " + o.owner() + ": " + e.getMessage());
            }
            throw e;
        }
    }

    /** Null when this process can give a replica {@code owner}'s ownership (root, or the owner itself). */
    public static String reasonCannotOwn(PosixFileAttributes original, URI uri) {
        if (original == null) return null;
        long self = selfUid();
        if (self == 0) return null;
        try {
            long uid = ((Number) Files.getAttribute(Path.of(uri), "unix:uid")).longValue();
            if (uid == self) return null;
            return "cannot give a replica of " + uri.getPath() + " its owner " + original.owner().getName() + " (uid " + uid
                    + "): the daemon runs as uid " + self + ", not root";
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "cannot read the owner of " + uri.getPath() + ": " + e;
        }
    }

    /**
     * Makes the replica directory {@code keyDir} under the replica folder (or root), refusing symbolic links
     * and folders of other users; the key directory gets the original's owner and group, {@code rwx} for the
     * owner and {@code r-x} for group and others only where they may read the original.
     */
    public static void prepareDirectory(PosixFileAttributes original, URI keyDirUri) throws IOException {
        Path keyDir = Path.of(keyDirUri);
        Path folder = keyDir.getParent();
        if (!Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(folder.getParent());
            try {
                Files.createDirectory(folder);
                Files.setPosixFilePermissions(folder, EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_EXECUTE,
                        PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_EXECUTE));
            } catch (FileAlreadyExistsException raced) {
                // checked below like any existing folder
            }
        }
        PosixFileAttributes d = noLink(folder, "replica folder");
        if (!d.isDirectory()) throw new Refused("replica folder " + folder + " is not a directory");
        if (!d.owner().equals(original.owner()) && !isRootOrSelf(d.owner(), folder)) {
            throw new Refused("replica folder " + folder + " belongs to " + d.owner().getName() + ", neither root, the daemon's user nor "
                    + original.owner().getName() + " who owns the original: refusing to put a replica where another user controls the names");
        }
        if (!java.util.Collections.disjoint(d.permissions(), GROUP_OTHER_WRITE)) {
            throw new Refused("replica folder " + folder + " is writable by others than " + d.owner().getName() + " (" + bits(d.permissions()) + ")");
        }
        if (!Files.exists(keyDir, LinkOption.NOFOLLOW_LINKS)) {
            try {
                Files.createDirectory(keyDir);
            } catch (FileAlreadyExistsException raced) {
                // checked below
            }
        }
        PosixFileAttributes k = noLink(keyDir, "replica key directory");
        if (!k.isDirectory()) throw new Refused("replica key directory " + keyDir + " is not a directory");
        PosixFileAttributeView v = Files.getFileAttributeView(keyDir, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        v.setOwner(original.owner());
        v.setGroup(original.group());
        Set<PosixFilePermission> p = EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);
        if (original.permissions().contains(PosixFilePermission.GROUP_READ)) {
            p.add(PosixFilePermission.GROUP_READ);
            p.add(PosixFilePermission.GROUP_EXECUTE);
        }
        if (original.permissions().contains(PosixFilePermission.OTHERS_READ)) {
            p.add(PosixFilePermission.OTHERS_READ);
            p.add(PosixFilePermission.OTHERS_EXECUTE);
        }
        v.setPermissions(p);
    }

    /**
     * Gives a new (still empty) replica file the original's owner, group and permissions without execute bits,
     * before any byte of the original goes into it.
     */
    public static void secureFile(PosixFileAttributes original, URI fileUri) throws IOException {
        Path file = Path.of(fileUri);
        PosixFileAttributes f = noLink(file, "replica");
        if (!f.isRegularFile()) throw new Refused("replica " + file + " is not a regular file");
        PosixFileAttributeView v = Files.getFileAttributeView(file, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        Set<PosixFilePermission> p = EnumSet.noneOf(PosixFilePermission.class);
        p.addAll(original.permissions());
        p.removeAll(EnumSet.of(PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_EXECUTE));
        v.setPermissions(p);    // narrow first, then hand over
        v.setGroup(original.group());
        v.setOwner(original.owner());
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    private static PosixFileAttributes noLink(Path p, String what) throws IOException {
        PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isSymbolicLink()) throw new Refused(what + " " + p + " is a symbolic link: refusing to follow it");
        return a;
    }

    /** The replica folder's real path must be inside the original's real directory (or be a recorded root). */
    private String inside(Path original, Path folder) throws IOException {
        if (!folder.getFileName().toString().equals(DEFAULT_DIR_NAME)) return null;   // a recorded root: checked by name
        Path realDir = original.toAbsolutePath().getParent().toRealPath();
        Path realFolder = folder.toRealPath();
        if (!realFolder.equals(realDir.resolve(DEFAULT_DIR_NAME))) {
            return "replica folder " + folder + " resolves to " + realFolder + ", outside the original's directory " + realDir;
        }
        return null;
    }

    private static boolean isRootOrSelf(UserPrincipal owner, Path at) throws IOException {
        long uid = ((Number) Files.getAttribute(at, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
        return uid == 0 || uid == selfUid();
    }

    /** This process's user id (the owner of /proc/self), -1 where unknown. */
    public static long selfUid() {
        try {
            return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue();
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return -1;
        }
    }

    static String bits(Set<PosixFilePermission> p) {
        return java.nio.file.attribute.PosixFilePermissions.toString(p);
    }
}
