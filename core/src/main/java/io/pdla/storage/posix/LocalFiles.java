package io.pdla.storage.posix;

import io.pdla.storage.FileOwnership;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a local file offers the SPI's {@link StorageDriver#ownership}, {@link StorageDriver#mark} and {@link StorageDriver#syncDirectory}: its POSIX
 * owner, group and permission bits, {@code user.pdla.*} extended attributes, a forced directory. Shared by the POSIX driver and
 * by stores that keep their files as local files (sim-pfs).
 */
public final class LocalFiles {
    private LocalFiles() {
    }

    /** Forces a directory, so that the renames into it survive a crash of the machine. */
    public static void syncDirectory(Path dir) throws IOException {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(dir, java.nio.file.StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            throw PosixDriver.translate(e, dir);
        }
    }

    /** Owner, group and permission bits, read without following a symbolic link. */
    public static Optional<FileOwnership> ownership(Path path) throws IOException {
        try {
            java.nio.file.attribute.PosixFileAttributes a = Files.readAttributes(path, java.nio.file.attribute.PosixFileAttributes.class,
                    java.nio.file.LinkOption.NOFOLLOW_LINKS);
            return Optional.of(new FileOwnership(a.owner().getName(), a.group().getName(), a.permissions()));
        } catch (UnsupportedOperationException noPosixView) {
            return Optional.empty();
        } catch (IOException e) {
            throw PosixDriver.translate(e, path);
        }
    }

    /** Permissions first (narrowing before the hand-over), then group and owner; never through a symbolic link. */
    public static void setOwnership(Path path, FileOwnership o) throws IOException {
        try {
            java.nio.file.attribute.PosixFileAttributeView v = Files.getFileAttributeView(path, java.nio.file.attribute.PosixFileAttributeView.class,
                    java.nio.file.LinkOption.NOFOLLOW_LINKS);
            if (v == null) throw new StorageException(StorageException.Reason.UNSUPPORTED, path + ": the file system keeps no POSIX owners");
            java.nio.file.attribute.UserPrincipalLookupService names = path.getFileSystem().getUserPrincipalLookupService();
            v.setPermissions(o.permissions());
            v.setGroup(names.lookupPrincipalByGroupName(o.group()));
            v.setOwner(names.lookupPrincipalByName(o.owner()));
        } catch (java.nio.file.attribute.UserPrincipalNotFoundException e) {
            throw new StorageException(StorageException.Reason.BAD_ARGUMENT, path + ": no such user or group '" + e.getName() + "'", e);
        } catch (java.nio.file.FileSystemException e) {
            if (String.valueOf(e.getReason()).contains("Operation not permitted")) {
                throw new StorageException(StorageException.Reason.ACCESS_DENIED, path + ": cannot give it " + o + ": " + e.getReason(), e);
            }
            throw PosixDriver.translate(e, path);
        } catch (IOException e) {
            throw PosixDriver.translate(e, path);
        }
    }

    /**
     * A mark is the extended attribute {@code user.pdla.NAME}: Linux checks write permission on the file itself
     * before it sets a {@code user.*} attribute (as for a write), so only a process that may write the file sets
     * one. A file system without user attributes (older tmpfs, some NFS) makes {@link #setMark} {@code UNSUPPORTED}.
     */
    public static Optional<byte[]> mark(Path path, String name) throws IOException {
        String attr = MARK_PREFIX + StorageDriver.checkMarkName(name);
        try {
            java.nio.file.attribute.UserDefinedFileAttributeView v = Files.getFileAttributeView(path,
                    java.nio.file.attribute.UserDefinedFileAttributeView.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
            if (v == null || !v.list().contains(attr)) {
                if (!Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) throw new NoSuchFileException(path.toString());
                return Optional.empty();
            }
            int size = v.size(attr);
            if (size > MAX_MARK) throw new StorageException(StorageException.Reason.BAD_ARGUMENT, path + ": mark " + name + " holds " + size + " bytes, more than " + MAX_MARK);
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(size);
            v.read(attr, b);
            return Optional.of(java.util.Arrays.copyOf(b.array(), b.position()));
        } catch (UnsupportedOperationException none) {
            return Optional.empty();
        } catch (java.nio.file.FileSystemException e) {
            if (notSupported(e)) return Optional.empty();
            throw PosixDriver.translate(e, path);
        } catch (IOException e) {
            throw PosixDriver.translate(e, path);
        }
    }

    public static void setMark(Path path, String name, byte[] value) throws IOException {
        String attr = MARK_PREFIX + StorageDriver.checkMarkName(name);
        if (value.length > MAX_MARK) throw new StorageException(StorageException.Reason.BAD_ARGUMENT, path + ": a mark holds at most " + MAX_MARK + " bytes");
        try {
            java.nio.file.attribute.UserDefinedFileAttributeView v = Files.getFileAttributeView(path,
                    java.nio.file.attribute.UserDefinedFileAttributeView.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
            if (v == null) throw new StorageException(StorageException.Reason.UNSUPPORTED, path + ": the file system keeps no user attributes");
            v.write(attr, java.nio.ByteBuffer.wrap(value));
        } catch (UnsupportedOperationException none) {
            throw new StorageException(StorageException.Reason.UNSUPPORTED, path + ": the file system keeps no user attributes");
        } catch (java.nio.file.FileSystemException e) {
            if (notSupported(e)) throw new StorageException(StorageException.Reason.UNSUPPORTED, path + ": the file system keeps no user attributes (" + e.getReason() + ")", e);
            if (String.valueOf(e.getReason()).contains("Operation not permitted")) throw new StorageException(StorageException.Reason.ACCESS_DENIED, path + ": " + e.getReason(), e);
            throw PosixDriver.translate(e, path);
        } catch (IOException e) {
            throw PosixDriver.translate(e, path);
        }
    }

    private static final String MARK_PREFIX = "pdla.";
    private static final int MAX_MARK = 4096;

    private static boolean notSupported(java.nio.file.FileSystemException e) {
        String r = String.valueOf(e.getReason());
        return r.contains("not supported") || r.contains("Operation not supported");
    }

}
