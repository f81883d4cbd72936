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
}
