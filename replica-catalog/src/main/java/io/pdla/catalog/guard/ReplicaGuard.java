package io.pdla.catalog.guard;

import io.pdla.storage.CopyOwnership;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The rules that keep replicas from leaking one user's data to another and from being planted (see
 * {@code replicator/README.md}, "Security"). Catalog and pattern contents are data written by whoever can
 * write the catalog: a path from them is opened, written or deleted only after these checks.
 *
 * <p>Where a replica may live: {@code <dir of the original>/.pdla-replicas/<hash of its key>/replica-<id>}, or
 * {@code <root>/<hash>/replica-<id>} under a replica root the daemon was given (listed in the catalog's
 * {@value #ROOTS_FILE}). Whose a replica must be and how it is reached are the store's to judge, through the storage
 * SPI ({@link StorageDriver#copyOwnership}): on POSIX no symbolic link on the path below the original's directory (or
 * the root), the replica folder's real path inside the original's real directory, the replica file and its key
 * directory the original owner's, its permission bits a subset of the original's, the replica folder root's, the
 * daemon's user's or the original owner's, and no directory on the way writable by anyone but its owner; where a store
 * keeps owners without symbolic links (HDFS, sim-pfs), the same owner, permission and group rules on the replica and
 * its key directory; where it keeps none, the containment rule on the URI's path alone. Everywhere: a replica's group
 * write is accepted only for its original's group, so that whoever may write a replica may write its original.
 */
public final class ReplicaGuard {
    /** The folder beside each original that holds its replicas when no replica root is given. */
    public static final String DEFAULT_DIR_NAME = ".pdla-replicas";
    /** File in the catalog directory listing the replica roots daemons were given, one URI a line. */
    public static final String ROOTS_FILE = "replica-roots";
    private static final Pattern NAME = Pattern.compile("replica-[0-9]{1,19}-[0-9a-f]{8}(\\.tmp)?");
    private static final Pattern KEY_DIR = Pattern.compile("[0-9a-f]{20}");

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
     * daemon, as the replica of {@code original}: {@link #reasonMisplaced}, then the store's own checks of owners,
     * permissions and symbolic links (see the class comment). Otherwise the reason.
     */
    public String reasonRefused(URI original, String keyDir, URI replica) {
        String misplaced = reasonMisplaced(original, keyDir, replica);
        if (misplaced != null) return misplaced;
        CopyOwnership store;
        try {
            store = StorageDrivers.installed().forUri(replica).copyOwnership();
        } catch (RuntimeException e) {
            return "replica " + replica + " cannot be checked: " + e;
        }
        return store.reasonRefused(original, replica, DEFAULT_DIR_NAME);
    }

    /**
     * Null when the daemon may delete {@code file} as a leftover replica (journal rows name no original): it is
     * where some replica may be and, as its store judges, is not a symbolic link and has none on its way; otherwise
     * the reason.
     */
    public String reasonNotDeletable(URI file) {
        String misplaced = reasonMisplaced(null, null, file);
        if (misplaced != null) return misplaced;
        CopyOwnership store;
        try {
            store = StorageDrivers.installed().forUri(file).copyOwnership();
        } catch (RuntimeException noDriver) {
            return null;    // nothing on a store without a driver can be deleted anyway
        }
        return store.reasonNotDeletable(file, DEFAULT_DIR_NAME);
    }
}
