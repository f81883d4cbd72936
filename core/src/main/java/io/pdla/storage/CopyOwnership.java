package io.pdla.storage;

import java.io.IOException;
import java.net.URI;
import java.util.Optional;

/**
 * How a store gives copies of a file its owner, and judges a copy found on it: the capability a driver answers
 * with {@link StorageDriver#copyOwnership()}. The replicator's copies (replicas) are taken from data anyone who
 * may write a shared catalog can write, so before one is served, written back or deleted someone must check that
 * no symbolic link leads elsewhere, that it belongs to its original's owner and that it grants nobody more than
 * the original does. Only the store knows what it keeps (owners, permission bits, symbolic links, real paths), so
 * each driver answers for itself: POSIX from its file system's attributes read without following links, sim-pfs
 * from its namespace entries', HDFS from the NameNode's ({@link #byOwnership}); a store that keeps no owners says
 * so by an empty {@link #ownerOf}, and then only where a copy lies can be checked (by the caller).
 *
 * <p>A copy lives in a directory of its own (one per original and pattern) inside a folder: either a folder of the
 * name given as {@code besideName} in its original's directory, or a root configured elsewhere.
 */
public interface CopyOwnership {
    /** Thrown when a copy cannot be made or used safely; the message says what and where. */
    class Refused extends IOException {
        public Refused(String message) {
            super(message);
        }
    }

    /** Thrown when the store refuses to give a copy its original's owner: the copy must then not be made. */
    final class CannotOwn extends Refused {
        public CannotOwn(String message) {
            super(message);
        }
    }

    /** An original's owner, group and permission bits as the store keeps them, to give its copies. */
    interface Owner {
        FileOwnership ownership();
    }

    /** Whose the copies of {@code original} must be, or empty where the store keeps no owners. */
    Optional<Owner> ownerOf(URI original) throws IOException;

    /**
     * Null when this process can give a copy of {@code original} the owner (as far as the store can tell before
     * trying; a store that can only tell by trying refuses later with {@link CannotOwn}), otherwise why not.
     */
    String reasonCannotOwn(Owner owner, URI original);

    /**
     * Makes the copy's directory {@code dir} (and the folder holding it) and gives it the owner and group, {@code rwx}
     * for the owner and {@code r-x} for group and others only where they may read the original; refuses a folder
     * or directory another user controls ({@link Refused}), and {@link CannotOwn} when the store will not hand it
     * over.
     */
    void prepareDirectory(Owner owner, URI dir) throws IOException;

    /** Gives a new, still empty copy the owner, group and permissions without execute bits, before any byte goes in. */
    void secureFile(Owner owner, URI file) throws IOException;

    /**
     * Null when {@code copy} may stand for {@code original} (serving it, or writing it back into the original):
     * no symbolic link on its way, its and its directory's owner the original's, no permission the original lacks,
     * group write only for the original's group, nobody but the owner writing its directories. Otherwise the reason.
     */
    String reasonRefused(URI original, URI copy, String besideName);

    /**
     * Null when {@code copy}, whose original is not known, may be deleted as a leftover: a regular file, no symbolic
     * link on its way, and a folder named {@code besideName} really where its name says. Otherwise the reason.
     */
    String reasonNotDeletable(URI copy, String besideName);

    /**
     * The answers of a store that keeps owners, permission bits and no symbolic links, read and set through the
     * driver's {@link StorageDriver#ownership} and {@link StorageDriver#setOwnership} (HDFS, sim-pfs); where the
     * store keeps no owners, {@link #ownerOf} is empty and nothing else is asked.
     */
    static CopyOwnership byOwnership(StorageDriver driver) {
        return new OwnershipCopies(driver);
    }
}
