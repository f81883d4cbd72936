package io.pdla.storage;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Set;

/**
 * A storage back end, found by URI scheme through {@link java.util.ServiceLoader} (one line in
 * {@code META-INF/services/io.pdla.storage.StorageDriver}). This is ROMIO's ADIO function table as a Java
 * interface: a driver knows nothing of MPI, views or collectives. Every driver passes the contract suite
 * {@code AbstractStorageDriverContractTest}; for each capability its {@link #capabilities()} exclude, the suite
 * checks that the request fails with {@code UNSUPPORTED} and changes nothing.
 */
public interface StorageDriver {
    /** The URI scheme this driver serves, such as {@code file}, {@code simpfs} or {@code hdfs}. */
    String scheme();

    Set<Capability> capabilities();

    default boolean has(Capability capability) {
        return capabilities().contains(capability);
    }

    /**
     * Opens (and with {@code options.create()} creates) a file. Throws {@link StorageException} with
     * {@code NO_SUCH_FILE}, {@code FILE_EXISTS} or {@code ACCESS_DENIED} as appropriate.
     */
    StorageFile open(URI uri, OpenOptions options) throws IOException;

    boolean exists(URI uri) throws IOException;

    /** Deletes a file; {@code NO_SUCH_FILE} if it is not there. */
    void delete(URI uri) throws IOException;

    /** Size and modification time of a file, or that the path is a directory; {@code NO_SUCH_FILE} if nothing is there. */
    StorageStatus stat(URI uri) throws IOException;

    /**
     * The files and directories directly inside {@code dir}, sorted by name, without the store's own
     * bookkeeping entries; {@code NO_SUCH_FILE} if the directory is not there, {@code BAD_ARGUMENT} if it is a file.
     */
    List<StorageStatus> list(URI dir) throws IOException;

    /** Creates a directory and its parents; nothing happens if it exists. */
    void mkdirs(URI dir) throws IOException;

    /** Atomically renames a file, replacing the target. Requires {@link Capability#RENAME}. */
    default void rename(URI from, URI to) throws IOException {
        throw new StorageException(StorageException.Reason.UNSUPPORTED, scheme() + ": driver cannot rename " + from);
    }

    /**
     * The layout of a file, or a directory's default for new files, with the server counts filled in.
     * A store without striping reports {@link Layout#unstriped} with its block size.
     */
    default Layout layout(URI uri) throws IOException {
        return Layout.unstriped(Layout.DEFAULT_BLOCK);
    }

    /**
     * Sets the layout that files created afterwards at {@code uri} (a file not yet written, or a
     * directory) will have, translated into the store's own terms. Requires {@link Capability#LAYOUT};
     * without it the request fails with {@code UNSUPPORTED} and changes nothing.
     */
    default void setLayout(URI uri, Layout layout) throws IOException {
        throw new StorageException(StorageException.Reason.UNSUPPORTED, scheme() + ": driver has no layouts, cannot set " + layout + " on " + uri);
    }

    /**
     * The file's owner, group and permission bits, or empty when the store keeps no owners (then nothing can
     * tell one user's replica from another's there, and the replicator says so). {@code NO_SUCH_FILE} if absent.
     */
    default java.util.Optional<FileOwnership> ownership(URI uri) throws IOException {
        return java.util.Optional.empty();
    }

    /**
     * Gives a file an owner, group and permission bits (a store may require a privileged caller to change the
     * owner: {@code ACCESS_DENIED}). Stores that keep no owners refuse with {@code UNSUPPORTED}.
     */
    default void setOwnership(URI uri, FileOwnership ownership) throws IOException {
        throw new StorageException(StorageException.Reason.UNSUPPORTED, scheme() + ": the store keeps no owners, cannot give " + uri + " " + ownership);
    }

    /**
     * A small named value the store keeps with a file ({@code name}: letters, digits, {@code .-_}), or empty
     * when it has none. What makes it worth having: only a process allowed to <em>write the file</em> can set
     * it ({@link #setMark}), so it tells a reader something no one who may merely write a shared catalog can
     * forge. A mark is kept across {@link #rename} and dropped with the file.
     */
    default java.util.Optional<byte[]> mark(URI uri, String name) throws IOException {
        return java.util.Optional.empty();
    }

    /**
     * Sets a mark (see {@link #mark}); the store must refuse ({@code ACCESS_DENIED}) a caller who may not write
     * the file. A store (or a file system under it) that cannot keep marks, or cannot promise that rule, refuses
     * with {@code UNSUPPORTED} and keeps none.
     */
    default void setMark(URI uri, String name, byte[] value) throws IOException {
        throw new StorageException(StorageException.Reason.UNSUPPORTED, scheme() + ": the store keeps no marks, cannot mark " + uri);
    }

    /**
     * The file as a path of this machine's file system, when the store keeps each file as one local file that
     * java.nio and other processes reach directly (POSIX); empty where a file is not one local file (sim-pfs's data
     * objects, HDFS's blocks). What a caller that needs the file system itself (a side file beside the file, the
     * mount it is on, a bare FileChannel) asks instead of knowing which scheme is local.
     */
    default java.util.Optional<java.nio.file.Path> localPath(URI uri) {
        return java.util.Optional.empty();
    }

    /**
     * How this store gives copies of a file the file's owner and judges a copy found on it ({@link CopyOwnership}).
     * By default from {@link #ownership} and {@link #setOwnership} alone, which is right for a store without symbolic
     * links; a store with them (POSIX) answers with its own checks.
     */
    default CopyOwnership copyOwnership() {
        return CopyOwnership.byOwnership(this);
    }

    /**
     * Makes the names in directory {@code dir} durable: once this returns, a rename into it survives a crash of the
     * machine. A store whose namespace changes are durable when they return does nothing; POSIX forces the
     * directory. The default refuses with {@code UNSUPPORTED}: a driver that never said cannot promise it.
     */
    default void syncDirectory(URI dir) throws IOException {
        throw new StorageException(StorageException.Reason.UNSUPPORTED, scheme() + ": the driver does not say how to make the names in " + dir + " durable");
    }

    /**
     * Whether this process may read the file, as the store would judge an open for reading; false when it is not
     * there. Asked before a copy of the file is served to a process, which must be one that may read the original.
     * The default, for a store that keeps no permissions, is that anyone may read what exists.
     */
    default boolean readable(URI uri) throws IOException {
        return exists(uri);
    }

    /** Checks a mark's name: letters, digits, {@code . - _}, at most 64 characters. */
    static String checkMarkName(String name) {
        if (name == null || name.isEmpty() || name.length() > 64 || !name.chars().allMatch(c -> Character.isLetterOrDigit(c) && c < 128 || c == '.' || c == '-' || c == '_')) {
            throw new IllegalArgumentException("mark name '" + name + "': letters, digits, '.', '-', '_', at most 64");
        }
        return name;
    }
}
