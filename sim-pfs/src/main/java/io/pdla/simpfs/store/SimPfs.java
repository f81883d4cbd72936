package io.pdla.simpfs.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdla.simpfs.config.ConfigException;
import io.pdla.simpfs.config.ConfigFiles;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.simpfs.layout.SimLayouts;
import io.pdla.storage.Layout;
import io.pdla.simpfs.layout.StripeMap;
import io.pdla.storage.ChangeStamp;
import io.pdla.storage.FileOwnership;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageException.Reason;
import io.pdla.storage.posix.LocalFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One simulated file system in a root folder. Everything lives in files, so that any number of instances
 * (one per MPJ rank class loader, or per JVM) can share a root:
 * <pre>
 *   simpfs.json              the configuration, written when the root is first formatted
 *   meta.lock                namespace changes hold a file lock on it
 *   next-id                  counter for data object ids
 *   ns/a/b                   file /a/b: its {@link FileMeta} as JSON
 *   ns/a/.simpfs-dir-layout  directory /a's default layout for new files
 *   data/h0/17, data/s2/17   data object of file id 17 on HServer 0, SServer 2
 *   locks/17                 byte-range locks of file id 17 are file locks on this empty side file
 *   streams/SESSION/rank-R.stream   recorded request streams (see {@link StreamRecorder})
 * </pre>
 * File sizes are never stored: a file's size is derived from the sizes of its data objects through the
 * layout, so concurrent writers need no shared size record.
 */
public final class SimPfs {
    public static final String DIR_LAYOUT = ".simpfs-dir-layout";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path root;
    private final SimPfsConfig config;
    private final Layout defaultLayout;
    private final MetaLock lock;

    private SimPfs(Path root, SimPfsConfig config) {
        this.root = root;
        this.config = config;
        this.defaultLayout = config.defaultLayoutParsed();
        this.lock = new MetaLock(root.resolve("meta.lock"));
    }

    /**
     * Opens the file system at {@code root}, formatting it with {@code configIfNew} (the defaults when null)
     * if it has no configuration yet. An existing root keeps its own configuration: servers and their data
     * cannot change under existing files.
     */
    public static SimPfs open(Path root, SimPfsConfig configIfNew) throws IOException {
        Path abs = root.toAbsolutePath().normalize();
        Files.createDirectories(abs);
        MetaLock lock = new MetaLock(abs.resolve("meta.lock"));
        SimPfsConfig config = lock.locked(() -> {
            Path cfg = abs.resolve("simpfs.json");
            if (Files.isRegularFile(cfg)) return ConfigFiles.load(cfg);
            SimPfsConfig c = configIfNew == null ? SimPfsConfig.DEFAULT : configIfNew;
            ConfigFiles.write(c, cfg);
            Files.createDirectories(abs.resolve("ns"));
            return c;
        });
        return new SimPfs(abs, config);
    }

    public Path root() {
        return root;
    }

    public SimPfsConfig config() {
        return config;
    }

    // ---- names ------------------------------------------------------------------------------------------

    /** Normalises a sim-pfs path ("/a/b"); rejects empty names, "..", and reserved names. */
    public static String normalize(String path) {
        if (path == null || path.isEmpty()) throw new IllegalArgumentException("sim-pfs path is empty");
        List<String> parts = new ArrayList<>();
        for (String p : path.split("/")) {
            if (p.isEmpty() || p.equals(".")) continue;
            if (p.equals("..")) throw new IllegalArgumentException("sim-pfs path '" + path + "' must not contain '..'");
            if (p.startsWith(".simpfs-")) throw new IllegalArgumentException("sim-pfs path '" + path + "' uses the reserved name " + p);
            parts.add(p);
        }
        return "/" + String.join("/", parts);
    }

    private Path nsPath(String path) {
        String n = normalize(path);
        return n.equals("/") ? root.resolve("ns") : root.resolve("ns").resolve(n.substring(1));
    }

    public Path dataObject(long id, int server) {
        return root.resolve("data").resolve(serverName(server)).resolve(Long.toString(id));
    }

    /** The side file whose byte-range locks stand for those of file {@code id} ({@code locks/ID}). */
    public Path lockFile(long id) {
        return root.resolve("locks").resolve(Long.toString(id));
    }

    public String serverName(int server) {
        return config.isSsd(server) ? "s" + (server - config.hservers()) : "h" + server;
    }

    // ---- namespace --------------------------------------------------------------------------------------

    public boolean isFile(String path) {
        return Files.isRegularFile(nsPath(path));
    }

    public boolean isDirectory(String path) {
        return Files.isDirectory(nsPath(path));
    }

    /**
     * What {@link #entry} says of a path: a file's size and modification time, or a directory; and its change
     * stamp, sim-pfs's generation of the file: its metadata's local-file stamp and the latest change time of
     * its data objects, which any write or restore moves.
     */
    public record Entry(String path, boolean directory, long size, long modifiedNanos, String changeStamp) {
    }

    /**
     * A file's size (from its data objects, as an open handle computes it) and its modification time: the
     * latest of its metadata's and its data objects', since writes touch only the data objects.
     */
    public Entry entry(String path) throws IOException {
        String n = normalize(path);
        Path p = nsPath(n);
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(p, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw new StorageException(Reason.NO_SUCH_FILE, "simpfs: no such file or directory " + n);
        }
        if (a.isDirectory()) return new Entry(n, true, 0, nanos(a), ChangeStamp.ofLocalFile(p));
        FileMeta meta = JSON.readValue(p.toFile(), FileMeta.class);
        StripeMap map = stripeMap(meta);
        long size = 0, modified = nanos(a);
        StringBuilder stamp = new StringBuilder(ChangeStamp.ofLocalFile(p));
        for (int server : map.servers()) {
            BasicFileAttributes d;
            Path object = dataObject(meta.id(), server);
            try {
                d = Files.readAttributes(object, BasicFileAttributes.class);
                stamp.append('/').append(server).append('=').append(ChangeStamp.ofLocalFile(object));
            } catch (NoSuchFileException none) {
                continue;   // no byte of the file on that server yet
            }
            size = Math.max(size, map.fileEnd(server, d.size()));
            modified = Math.max(modified, nanos(d));
        }
        return new Entry(n, false, size, modified, stamp.toString());
    }

    /** The entries of a directory, sorted by name, without sim-pfs's own {@code .simpfs-} files. */
    public List<Entry> list(String dir) throws IOException {
        String n = normalize(dir);
        Path p = nsPath(n);
        if (Files.isRegularFile(p)) throw new StorageException(Reason.BAD_ARGUMENT, "simpfs: cannot list " + n + ", it is a file");
        if (!Files.isDirectory(p)) throw new StorageException(Reason.NO_SUCH_FILE, "simpfs: no such directory " + n);
        List<Entry> out = new ArrayList<>();
        try (Stream<Path> children = Files.list(p)) {
            for (String name : children.map(c -> c.getFileName().toString()).filter(c -> !c.startsWith(".simpfs-")).sorted().toList()) {
                try {
                    out.add(entry(n.equals("/") ? "/" + name : n + "/" + name));
                } catch (StorageException gone) {
                    if (gone.reason() != Reason.NO_SUCH_FILE) throw gone;
                    // deleted between the listing and its entry: not listed
                }
            }
        }
        return out;
    }

    private static long nanos(BasicFileAttributes a) {
        return a.lastModifiedTime().to(TimeUnit.NANOSECONDS);
    }

    public Optional<FileMeta> lookup(String path) throws IOException {
        Path p = nsPath(path);
        if (!Files.isRegularFile(p)) return Optional.empty();
        return Optional.of(JSON.readValue(p.toFile(), FileMeta.class));
    }

    public Layout layoutOf(FileMeta meta) {
        return SimLayouts.parse(meta.layout(), defaultLayout, "layout of file id " + meta.id());
    }

    /** The file's layout on this file system, starting on the server its id picks (see {@link StripeMap#rotated}). */
    public StripeMap stripeMap(FileMeta meta) {
        return StripeMap.of(layoutOf(meta), config).rotated(meta.id());
    }

    /** Opens or creates a file's metadata. {@code layoutHint} (a layout spec) applies only when creating. */
    public FileMeta openMeta(String path, boolean create, boolean exclusive, String layoutHint) throws IOException {
        Path p = nsPath(path);
        return lock.locked(() -> {
            if (Files.isDirectory(p)) throw new StorageException(Reason.BAD_ARGUMENT, "simpfs: " + path + " is a directory");
            if (Files.isRegularFile(p)) {
                if (exclusive) throw new StorageException(Reason.FILE_EXISTS, "simpfs: " + path + " exists");
                return JSON.readValue(p.toFile(), FileMeta.class);
            }
            if (!create) throw new StorageException(Reason.NO_SUCH_FILE, "simpfs: no such file " + path);
            Layout inherited = inheritedLayout(p.getParent());
            Layout layout = layoutHint != null
                    ? SimLayouts.parse(layoutHint, withDefaultRegion(inherited), "hint simpfs_layout for " + path)
                    : inherited;
            try {
                StripeMap.of(layout, config);   // reject a layout these servers cannot hold before creating anything
            } catch (ConfigException e) {
                if (layoutHint == null) throw e;
                throw new ConfigException("hint simpfs_layout: " + e.getMessage(), e);
            }
            FileMeta meta = new FileMeta(nextId(), layout.toString());
            writeMeta(p, meta);
            return meta;
        });
    }

    private Layout inheritedLayout(Path nsDir) throws IOException {
        Path nsRoot = root.resolve("ns");
        for (Path d = nsDir; d != null && d.startsWith(nsRoot); d = d.getParent()) {
            Path f = d.resolve(DIR_LAYOUT);
            if (Files.isRegularFile(f)) {
                String spec = Files.readString(f, StandardCharsets.UTF_8).trim();
                return SimLayouts.parse(spec, defaultLayout, "directory layout " + f);
            }
        }
        return defaultLayout;
    }

    /**
     * Defaults for a layout hint: the inherited layout, with the configuration default's region when the
     * inherited one has none (1-DH and hybrid use none), so a 1-DV or 2-D hint without a region gets it.
     */
    private Layout withDefaultRegion(Layout inherited) {
        return inherited.region() > 0 || defaultLayout.region() <= 0 ? inherited : inherited.withRegion(defaultLayout.region());
    }

    private long nextId() throws IOException {
        Path counter = root.resolve("next-id");
        long id = Files.exists(counter) ? Long.parseLong(Files.readString(counter).trim()) : 1;
        Path tmp = root.resolve("next-id.tmp");
        Files.writeString(tmp, Long.toString(id + 1));
        atomicMove(tmp, counter);
        return id;
    }

    private void writeMeta(Path p, FileMeta meta) throws IOException {
        Files.createDirectories(p.getParent());
        Path tmp = p.resolveSibling(".simpfs-tmp-" + p.getFileName());
        JSON.writeValue(tmp.toFile(), meta);
        atomicMove(tmp, p);
    }

    private static void atomicMove(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    public void delete(String path) throws IOException {
        Path p = nsPath(path);
        FileMeta meta = lock.locked(() -> {
            if (!Files.isRegularFile(p)) throw new StorageException(Reason.NO_SUCH_FILE, "simpfs: no such file " + path);
            FileMeta m = JSON.readValue(p.toFile(), FileMeta.class);
            Files.delete(p);
            return m;
        });
        deleteData(meta);
    }

    private void deleteData(FileMeta meta) throws IOException {
        for (int s = 0; s < config.servers(); s++) Files.deleteIfExists(dataObject(meta.id(), s));
        Files.deleteIfExists(lockFile(meta.id()));
    }

    public void rename(String from, String to) throws IOException {
        Path a = nsPath(from), b = nsPath(to);
        FileMeta replaced = lock.locked(() -> {
            if (!Files.isRegularFile(a)) throw new StorageException(Reason.NO_SUCH_FILE, "simpfs: no such file " + from);
            if (Files.isDirectory(b)) throw new StorageException(Reason.BAD_ARGUMENT, "simpfs: rename target " + to + " is a directory");
            FileMeta old = Files.isRegularFile(b) ? JSON.readValue(b.toFile(), FileMeta.class) : null;
            Files.createDirectories(b.getParent());
            atomicMove(a, b);
            return old;
        });
        if (replaced != null) deleteData(replaced);
    }

    // ---- owners and marks: those of the file's namespace entry, a real local file -------------------------

    /**
     * A file's (or directory's) owner, group and permission bits: its namespace entry's, which every open reads
     * (read permission) and every open for writing checks (write permission, see {@link #checkWritable}).
     */
    public Optional<FileOwnership> ownership(String path) throws IOException {
        Path p = nsPath(path);
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) throw new StorageException(Reason.NO_SUCH_FILE, "simpfs: no such file or directory " + normalize(path));
        return LocalFiles.ownership(p);
    }

    /** Gives the namespace entry and every data object and lock file of the file the ownership. */
    public void setOwnership(String path, FileOwnership o) throws IOException {
        Path p = nsPath(path);
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) throw new StorageException(Reason.NO_SUCH_FILE, "simpfs: no such file or directory " + normalize(path));
        if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
            FileMeta meta = JSON.readValue(p.toFile(), FileMeta.class);
            for (int s = 0; s < config.servers(); s++) {
                Path object = dataObject(meta.id(), s);
                if (Files.exists(object, LinkOption.NOFOLLOW_LINKS)) LocalFiles.setOwnership(object, o);
            }
            Path lockFile = lockFile(meta.id());
            if (Files.exists(lockFile, LinkOption.NOFOLLOW_LINKS)) LocalFiles.setOwnership(lockFile, o);
        }
        LocalFiles.setOwnership(p, o);
    }

    /** A mark is a user extended attribute of the namespace entry: settable by whoever may write the file. */
    public Optional<byte[]> mark(String path, String name) throws IOException {
        Path p = nsPath(path);
        if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) throw new StorageException(Reason.NO_SUCH_FILE, "simpfs: no such file " + normalize(path));
        return LocalFiles.mark(p, name);
    }

    public void setMark(String path, String name, byte[] value) throws IOException {
        Path p = nsPath(path);
        if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) throw new StorageException(Reason.NO_SUCH_FILE, "simpfs: no such file " + normalize(path));
        LocalFiles.setMark(p, name, value);
    }

    /** Forces the directory of the namespace that holds {@code dir}'s entries (see {@link #rename}). */
    public void syncDirectory(String dir) throws IOException {
        Path p = nsPath(dir);
        if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) throw new StorageException(Reason.NO_SUCH_FILE, "simpfs: no such directory " + normalize(dir));
        LocalFiles.syncDirectory(p);
    }

    /** Whether this process may read the file: read permission on its namespace entry. */
    public boolean readable(String path) {
        Path p = nsPath(path);
        return Files.isRegularFile(p) && Files.isReadable(p);
    }

    /**
     * Writing a file needs write permission on its namespace entry, as on a real file system: the data objects
     * are the store's own, so it is the entry's permissions that say who may write (and who may set a mark).
     */
    public void checkWritable(String path) throws IOException {
        Path p = nsPath(path);
        if (Files.isRegularFile(p) && !Files.isWritable(p)) {
            throw new StorageException(Reason.ACCESS_DENIED, "simpfs: " + normalize(path) + ": permission denied (its entry " + p + " is not writable by this user)");
        }
    }

    public void mkdirs(String dir) throws IOException {
        Path p = nsPath(dir);
        lock.locked(() -> {
            for (Path d = p; d != null && d.startsWith(root.resolve("ns")); d = d.getParent()) {
                if (Files.isRegularFile(d)) throw new StorageException(Reason.FILE_EXISTS, "simpfs: " + dir + ": a file is in the way at " + d);
            }
            Files.createDirectories(p);
            return null;
        });
    }

    /** The layout of a file, the default of a directory, or what a new file at this path would get. */
    public Layout layout(String path) throws IOException {
        Path p = nsPath(path);
        if (Files.isRegularFile(p)) return layoutOf(JSON.readValue(p.toFile(), FileMeta.class));
        if (Files.isDirectory(p)) return inheritedLayout(p);
        return inheritedLayout(p.getParent());
    }

    /**
     * Sets a directory's default layout, or the layout of a file that holds no data yet (creating it empty).
     * {@code layout} is in the form {@link SimLayouts#resolve} gives (the driver resolves what callers name).
     */
    public void setLayout(String path, Layout layout) throws IOException {
        StripeMap.of(layout, config);
        Path p = nsPath(path);
        lock.locked(() -> {
            if (Files.isDirectory(p)) {
                Path f = p.resolve(DIR_LAYOUT);
                Path tmp = p.resolve(".simpfs-tmp-dir-layout");
                Files.writeString(tmp, layout.toString());
                atomicMove(tmp, f);
                return null;
            }
            if (Files.isRegularFile(p)) {
                FileMeta meta = JSON.readValue(p.toFile(), FileMeta.class);
                for (int s = 0; s < config.servers(); s++) {
                    Path d = dataObject(meta.id(), s);
                    if (Files.exists(d) && Files.size(d) > 0) {
                        throw new StorageException(Reason.BAD_ARGUMENT, "simpfs: " + path + " already holds data; its layout "
                                + meta.layout() + " cannot change (copy it to a new file instead)");
                    }
                }
                writeMeta(p, new FileMeta(meta.id(), layout.toString()));
                return null;
            }
            writeMeta(p, new FileMeta(nextId(), layout.toString()));
            return null;
        });
    }
}
