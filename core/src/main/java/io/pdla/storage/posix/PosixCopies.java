package io.pdla.storage.posix;

import io.pdla.storage.CopyOwnership;
import io.pdla.storage.FileOwnership;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The POSIX store's {@link CopyOwnership}: every component of a copy's path read without following symbolic links
 * (a link anywhere below the original's directory or the root is refused), the copy's folder really inside the
 * original's directory, the copy and its directory the original's owner's, the folder root's, this user's or the
 * owner's, and no directory on the way writable by anyone but its owner. Owners are given through java.nio's POSIX
 * attribute views, never through a link; only root or the owner itself can give a file to the owner.
 */
final class PosixCopies implements CopyOwnership {
    static final PosixCopies INSTANCE = new PosixCopies();
    private static final Set<PosixFilePermission> GROUP_OTHER_WRITE = EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

    private PosixCopies() {
    }

    /** The original's attributes as java.nio reads them. */
    private record PosixOwner(PosixFileAttributes attributes) implements Owner {
        @Override
        public FileOwnership ownership() {
            return new FileOwnership(attributes.owner().getName(), attributes.group().getName(), attributes.permissions());
        }
    }

    @Override
    public Optional<Owner> ownerOf(URI original) throws IOException {
        try {
            return Optional.of(new PosixOwner(Files.readAttributes(Path.of(original), PosixFileAttributes.class)));
        } catch (UnsupportedOperationException none) {
            return Optional.empty();
        }
    }

    @Override
    public String reasonCannotOwn(Owner owner, URI uri) {
        PosixFileAttributes original = attributes(owner);
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

    @Override
    public void prepareDirectory(Owner owner, URI keyDirUri) throws IOException {
        PosixFileAttributes original = attributes(owner);
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
        if (!Collections.disjoint(d.permissions(), GROUP_OTHER_WRITE)) {
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

    @Override
    public void secureFile(Owner owner, URI fileUri) throws IOException {
        PosixFileAttributes original = attributes(owner);
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

    @Override
    public String reasonRefused(URI original, URI replica, String besideName) {
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
            String inside = inside(Path.of(original), folder, besideName);
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
                return "replica " + file + " is writable by group " + f.group().getName() + ", its original " + original.getPath()
                        + " belongs to group " + o.group().getName();
            }
            if (!Collections.disjoint(k.permissions(), GROUP_OTHER_WRITE) || !Collections.disjoint(d.permissions(), GROUP_OTHER_WRITE)) {
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

    @Override
    public String reasonNotDeletable(URI uri, String besideName) {
        try {
            Path p = Path.of(uri);
            PosixFileAttributes a = noLink(p, "replica");
            if (!a.isRegularFile()) return uri + " is not a regular file";
            noLink(p.getParent(), "replica key directory");
            Path folder = p.getParent().getParent();
            noLink(folder, "replica folder");
            if (folder.getFileName().toString().equals(besideName)) {
                String inside = inside(folder.getParent().resolve("x"), folder, besideName);
                if (inside != null) return inside;
            }
            return null;
        } catch (NoSuchFileException gone) {
            return null;    // nothing to delete
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    private static PosixFileAttributes attributes(Owner owner) {
        if (owner instanceof PosixOwner p) return p.attributes();
        throw new IllegalArgumentException("not an owner the POSIX store read: " + owner);
    }

    private static PosixFileAttributes noLink(Path p, String what) throws IOException {
        PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isSymbolicLink()) throw new Refused(what + " " + p + " is a symbolic link: refusing to follow it");
        return a;
    }

    /** The folder beside the original must really be there (a recorded root is checked by name by the caller). */
    private static String inside(Path original, Path folder, String besideName) throws IOException {
        if (!folder.getFileName().toString().equals(besideName)) return null;
        Path realDir = original.toAbsolutePath().getParent().toRealPath();
        Path realFolder = folder.toRealPath();
        if (!realFolder.equals(realDir.resolve(besideName))) {
            return "replica folder " + folder + " resolves to " + realFolder + ", outside the original's directory " + realDir;
        }
        return null;
    }

    private static boolean isRootOrSelf(UserPrincipal owner, Path at) throws IOException {
        long uid = ((Number) Files.getAttribute(at, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
        return uid == 0 || uid == selfUid();
    }

    /** This process's user id (the owner of /proc/self), -1 where unknown. */
    private static long selfUid() {
        try {
            return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue();
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return -1;
        }
    }

    private static String bits(Set<PosixFilePermission> p) {
        return PosixFilePermissions.toString(p);
    }
}
