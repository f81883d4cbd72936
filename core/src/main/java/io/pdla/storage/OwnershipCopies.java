package io.pdla.storage;

import java.io.IOException;
import java.net.URI;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * {@link CopyOwnership#byOwnership}: a store's answers from its driver's {@code ownership}/{@code setOwnership}
 * alone, for stores whose names hold no symbolic links (HDFS, sim-pfs's namespace).
 */
final class OwnershipCopies implements CopyOwnership {
    private static final Set<PosixFilePermission> GROUP_OTHER_WRITE = EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

    private final StorageDriver driver;

    OwnershipCopies(StorageDriver driver) {
        this.driver = driver;
    }

    @Override
    public Optional<Owner> ownerOf(URI original) throws IOException {
        return driver.ownership(original).map(o -> () -> o);
    }

    /** Such a store tells only by trying: {@link #prepareDirectory} and {@link #secureFile} refuse with {@link CannotOwn}. */
    @Override
    public String reasonCannotOwn(Owner owner, URI original) {
        return null;
    }

    @Override
    public void prepareDirectory(Owner owner, URI dir) throws IOException {
        FileOwnership original = owner.ownership();
        driver.mkdirs(dir);
        Set<PosixFilePermission> p = EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);
        if (original.permissions().contains(PosixFilePermission.GROUP_READ)) p.addAll(EnumSet.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_EXECUTE));
        if (original.permissions().contains(PosixFilePermission.OTHERS_READ)) p.addAll(EnumSet.of(PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_EXECUTE));
        handOver(dir, new FileOwnership(original.owner(), original.group(), p));
    }

    @Override
    public void secureFile(Owner owner, URI file) throws IOException {
        handOver(file, owner.ownership().withoutExecute());
    }

    private void handOver(URI uri, FileOwnership o) throws IOException {
        try {
            driver.setOwnership(uri, o);
        } catch (StorageException e) {
            if (e.reason() == StorageException.Reason.ACCESS_DENIED || e.reason() == StorageException.Reason.UNSUPPORTED) {
                throw new CannotOwn("cannot give the replica at " + uri + " its original's owner " + o.owner() + ": " + e.getMessage());
            }
            throw e;
        }
    }

    /**
     * Where the original's store keeps owners, the copy and its directory must have the original's owner, the copy
     * no permission the original lacks and group write only for the original's group, the directory no group or
     * other write. Where the store keeps no owners, where the copy lies is all there is to check.
     */
    @Override
    public String reasonRefused(URI original, URI copy, String besideName) {
        try {
            Optional<FileOwnership> o = driver.ownership(original);
            if (o.isEmpty()) return null;
            Optional<FileOwnership> f = driver.ownership(copy);
            if (f.isEmpty()) return "replica " + copy + " reports no owner, its original " + original + " belongs to " + o.get().owner();
            if (!f.get().owner().equals(o.get().owner())) {
                return "replica " + copy + " belongs to " + f.get().owner() + ", its original " + original.getPath() + " to " + o.get().owner();
            }
            if (!o.get().permissions().containsAll(f.get().permissions())) {
                return "replica " + copy + " has permissions " + f.get().bits() + ", wider than its original's " + o.get().bits();
            }
            if (f.get().permissions().contains(PosixFilePermission.GROUP_WRITE) && !f.get().group().equals(o.get().group())) {
                return groupWriters(copy.toString(), f.get().group(), original.getPath(), o.get().group());
            }
            URI keyDir = copy.resolve(".");
            Optional<FileOwnership> k = driver.ownership(keyDir);
            if (k.isPresent()) {
                if (!k.get().owner().equals(o.get().owner())) {
                    return "replica directory " + keyDir + " belongs to " + k.get().owner() + ", not to the original's owner " + o.get().owner();
                }
                if (!Collections.disjoint(k.get().permissions(), GROUP_OTHER_WRITE)) {
                    return "replica directory " + keyDir + " is writable by others than its owner (" + k.get().bits() + ")";
                }
            }
            return null;
        } catch (NoSuchFileException gone) {
            return "replica " + copy + " or its original does not exist (" + gone.getMessage() + ")";
        } catch (StorageException e) {
            if (e.reason() == StorageException.Reason.NO_SUCH_FILE) return "replica " + copy + " or its original does not exist (" + e.getMessage() + ")";
            return "replica " + copy + " cannot be checked: " + e.getMessage();
        } catch (IOException | RuntimeException e) {
            return "replica " + copy + " cannot be checked: " + e;
        }
    }

    /** No symbolic links and no real paths apart from names here: where a copy lies (checked by the caller) is enough. */
    @Override
    public String reasonNotDeletable(URI copy, String besideName) {
        return null;
    }

    /** Who may write the copy must be able to write the original: otherwise a write-back would let them. */
    static String groupWriters(String copy, String copyGroup, String original, String originalGroup) {
        return "replica " + copy + " is writable by group " + copyGroup + ", its original " + original + " belongs to group " + originalGroup;
    }
}
