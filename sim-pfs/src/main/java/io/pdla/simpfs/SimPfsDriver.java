package io.pdla.simpfs;

import io.pdla.simpfs.config.ConfigException;
import io.pdla.simpfs.config.ConfigFiles;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.simpfs.layout.SimLayouts;
import io.pdla.storage.Layout;
import io.pdla.simpfs.store.FileMeta;
import io.pdla.simpfs.store.SimPfs;
import io.pdla.simpfs.store.SimPfsFile;
import io.pdla.simpfs.store.StreamRecorder;
import io.pdla.storage.Capability;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageException.Reason;
import io.pdla.storage.StorageFile;
import io.pdla.storage.StorageStatus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code simpfs:} driver. A URI {@code simpfs:///dir/file} names {@code /dir/file} inside a sim-pfs root
 * folder, which is, in this order: the open's hint {@code simpfs_root}, the system property
 * {@code pdla.simpfs.root}, the environment variable {@code PDLA_SIMPFS_ROOT}, or
 * {@code ${java.io.tmpdir}/pdla-simpfs}. A new root is formatted with the config file named by hint
 * {@code simpfs_config} or system property {@code pdla.simpfs.config}, else the defaults.
 *
 * <p>Other hints: {@code simpfs_layout} (a layout spec such as {@code 2d:4,stripe=64k}) for files created by
 * the open; {@code simpfs_rank} and {@code simpfs_session} to record this handle's requests as rank R's stream
 * of session S for the timing engine.
 */
public final class SimPfsDriver implements StorageDriver {
    public static final String SCHEME = "simpfs";
    public static final String HINT_ROOT = "simpfs_root";
    public static final String HINT_CONFIG = "simpfs_config";
    public static final String HINT_LAYOUT = "simpfs_layout";
    public static final String HINT_RANK = "simpfs_rank";
    public static final String HINT_SESSION = "simpfs_session";
    public static final String DEFAULT_SESSION = "default";

    private final Path fixedRoot;
    private final Map<Path, SimPfs> systems = new HashMap<>();
    private final Map<Path, StreamRecorder> recorders = new HashMap<>();

    /** For {@link java.util.ServiceLoader}: the root comes from hints, properties, environment or the default. */
    public SimPfsDriver() {
        this(null);
    }

    /** A driver whose default root is {@code root} (tests, embedding). */
    public SimPfsDriver(Path root) {
        this.fixedRoot = root;
    }

    public static Path defaultRoot() {
        String p = io.pdla.intercept.Setting.lookup(null, null, "pdla.simpfs.root", "PDLA_SIMPFS_ROOT");
        if (p == null) return Path.of(System.getProperty("java.io.tmpdir"), "pdla-simpfs");
        return Path.of(p);
    }

    @Override
    public String scheme() {
        return SCHEME;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.RANDOM_WRITE, Capability.TRUNCATE, Capability.CONCURRENT_WRITERS,
                Capability.RENAME, Capability.LAYOUT, Capability.BYTE_RANGE_LOCK);
    }

    /** The file system at the default root (or {@code hints}' root). */
    public synchronized SimPfs fileSystem(Map<String, String> hints) throws IOException {
        String r = hints.get(HINT_ROOT);
        Path root;
        try {
            root = (r != null && !r.isBlank() ? Path.of(r) : fixedRoot != null ? fixedRoot : defaultRoot()).toAbsolutePath().normalize();
        } catch (java.nio.file.InvalidPathException e) {
            throw new StorageException(Reason.BAD_ARGUMENT, "simpfs: hint " + HINT_ROOT + ": '" + r + "' is not a path: " + e.getReason(), e);
        }
        SimPfs fs = systems.get(root);
        if (fs == null) {
            String cfg = hints.getOrDefault(HINT_CONFIG, System.getProperty("pdla.simpfs.config"));
            try {
                SimPfsConfig config;
                try {
                    config = cfg == null || cfg.isBlank() ? null : ConfigFiles.load(Path.of(cfg));
                } catch (ConfigException e) {
                    throw new StorageException(Reason.BAD_ARGUMENT, "simpfs: hint " + HINT_CONFIG + " (or pdla.simpfs.config): " + e.getMessage(), e);
                }
                fs = SimPfs.open(root, config);
            } catch (ConfigException e) {
                throw new StorageException(Reason.BAD_ARGUMENT, "simpfs: root " + root + ": " + e.getMessage(), e);
            } catch (java.nio.file.InvalidPathException e) {
                throw new StorageException(Reason.BAD_ARGUMENT, "simpfs: hint " + HINT_CONFIG + ": '" + cfg + "' is not a path: " + e.getReason(), e);
            } catch (IOException e) {
                // a root folder the store cannot make or use: say which setting named it
                if (r == null || r.isBlank() || e instanceof StorageException) throw e;
                throw new StorageException(Reason.IO, "simpfs: hint " + HINT_ROOT + " " + root + " cannot be used: " + e, e);
            }
            systems.put(root, fs);
        }
        return fs;
    }

    /** Whether {@code uri} names a sim-pfs file, whose stripes sim-pfs's layouts ({@code StripeMap}) can place on servers. */
    public static boolean serves(URI uri) {
        return SCHEME.equals(uri.getScheme());
    }

    static String pathOf(URI uri) {
        if (!SCHEME.equals(uri.getScheme())) {
            throw new IllegalArgumentException("simpfs driver got a " + uri.getScheme() + ": URI: " + uri);
        }
        if (uri.getAuthority() != null && !uri.getAuthority().isEmpty()) {
            throw new IllegalArgumentException("simpfs URI " + uri + " names a host '" + uri.getAuthority()
                    + "'; write simpfs:///path (the root folder comes from hint simpfs_root or pdla.simpfs.root)");
        }
        String p = uri.getPath();
        if (p == null || p.isEmpty()) throw new IllegalArgumentException("simpfs URI " + uri + " has no path");
        return SimPfs.normalize(p);
    }

    @Override
    public StorageFile open(URI uri, OpenOptions options) throws IOException {
        String path = pathOf(uri);
        SimPfs fs = fileSystem(options.hints());
        FileMeta meta;
        try {
            meta = fs.openMeta(path, options.create(), options.exclusive(), options.hints().get(HINT_LAYOUT));
        } catch (ConfigException e) {
            throw new StorageException(Reason.BAD_ARGUMENT, "simpfs: cannot create " + path + ": " + e.getMessage(), e);
        }
        if (options.write()) fs.checkWritable(path);
        SimPfsFile file = SimPfsFile.open(fs, uri, path, meta, options.write());
        String rank = options.hints().get(HINT_RANK);
        if (rank != null) {
            int r;
            try {
                r = Integer.parseInt(rank.trim());
            } catch (NumberFormatException e) {
                throw new StorageException(Reason.BAD_ARGUMENT, "simpfs: hint simpfs_rank='" + rank + "' is not a rank number");
            }
            file.recordTo(recorder(fs, options.hints().getOrDefault(HINT_SESSION, DEFAULT_SESSION), r));
        }
        return file;
    }

    /** The recorder of rank {@code rank}'s stream in {@code session}; one per stream file per driver. */
    public synchronized StreamRecorder recorder(SimPfs fs, String session, int rank) {
        Path file = StreamRecorder.streamFile(fs.root(), session, rank);
        return recorders.computeIfAbsent(file, f -> {
            try {
                return new StreamRecorder(f);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Closes every stream recorder this driver opened (the end of a recorded run). */
    public synchronized void closeRecorders() throws IOException {
        for (StreamRecorder r : recorders.values()) r.close();
        recorders.clear();
    }

    @Override
    public boolean exists(URI uri) throws IOException {
        return fileSystem(Map.of()).isFile(pathOf(uri));
    }

    @Override
    public void delete(URI uri) throws IOException {
        fileSystem(Map.of()).delete(pathOf(uri));
    }

    @Override
    public StorageStatus stat(URI uri) throws IOException {
        return status(fileSystem(Map.of()).entry(pathOf(uri)));
    }

    @Override
    public List<StorageStatus> list(URI dir) throws IOException {
        return fileSystem(Map.of()).list(pathOf(dir)).stream().map(SimPfsDriver::status).toList();
    }

    private static StorageStatus status(SimPfs.Entry e) {
        try {
            return new StorageStatus(new URI(SCHEME, "", e.path(), null, null), e.directory(), e.size(), e.modifiedNanos(), e.changeStamp());
        } catch (java.net.URISyntaxException bad) {
            throw new IllegalStateException("simpfs: path " + e.path() + " makes no URI", bad);
        }
    }

    @Override
    public void mkdirs(URI dir) throws IOException {
        fileSystem(Map.of()).mkdirs(pathOf(dir));
    }

    @Override
    public void rename(URI from, URI to) throws IOException {
        fileSystem(Map.of()).rename(pathOf(from), pathOf(to));
    }

    /** The file's (or directory's default) layout, spread over the servers of its class. */
    @Override
    public Layout layout(URI uri) throws IOException {
        SimPfs fs = fileSystem(Map.of());
        return SimLayouts.spread(fs.layout(pathOf(uri)), fs.config().hservers(), fs.config().sservers());
    }

    /**
     * Sets the layout as sim-pfs keeps it ({@link SimLayouts#resolve}: a region it leaves to the store gets
     * the configuration default's). Server counts, when named, must be those of the layout's class here:
     * a sim-pfs file always spans every server of its class. Unstriped layouts are refused
     * ({@code UNSUPPORTED}): every sim-pfs file is striped.
     */
    @Override
    public void setLayout(URI uri, Layout layout) throws IOException {
        SimPfs fs = fileSystem(Map.of());
        if (layout.distribution() == Layout.Distribution.UNSTRIPED) {
            throw new StorageException(Reason.UNSUPPORTED, "simpfs: " + uri + ": sim-pfs stripes every file, cannot set " + layout);
        }
        if (layout.serversKnown()) {
            Layout here = SimLayouts.spread(layout, fs.config().hservers(), fs.config().sservers());
            if (here.hddServers() != layout.hddServers() || here.ssdServers() != layout.ssdServers()) {
                throw new StorageException(Reason.BAD_ARGUMENT, "simpfs: layout " + layout + " for " + uri + " names "
                        + layout.hddServers() + " HServers and " + layout.ssdServers() + " SServers; this file system spreads a "
                        + layout.space().label() + " file over " + here.hddServers() + " and " + here.ssdServers());
            }
        }
        try {
            fs.setLayout(pathOf(uri), SimLayouts.resolve(layout, fs.config().defaultLayoutParsed(), "layout for " + uri));
        } catch (ConfigException e) {
            throw new StorageException(Reason.BAD_ARGUMENT, "simpfs: " + e.getMessage(), e);
        }
    }

    @Override
    public java.util.Optional<io.pdla.storage.FileOwnership> ownership(URI uri) throws IOException {
        return fileSystem(Map.of()).ownership(pathOf(uri));
    }

    /**
     * The namespace entries hold no symbolic links the store would follow (every entry is read without following
     * one), so owners and permission bits are all a copy's check needs.
     */
    @Override
    public io.pdla.storage.CopyOwnership copyOwnership() {
        return io.pdla.storage.CopyOwnership.byOwnership(this);
    }

    /** A rename moves the namespace entry, a local file: its directory is forced as on POSIX. */
    @Override
    public void syncDirectory(URI dir) throws IOException {
        fileSystem(Map.of()).syncDirectory(pathOf(dir));
    }

    /** Read permission on the namespace entry, which every open checks. */
    @Override
    public boolean readable(URI uri) throws IOException {
        return fileSystem(Map.of()).readable(pathOf(uri));
    }

    /** The namespace entry's and the data objects' owner, group and permissions (see {@link SimPfs#setOwnership}). */
    @Override
    public void setOwnership(URI uri, io.pdla.storage.FileOwnership ownership) throws IOException {
        fileSystem(Map.of()).setOwnership(pathOf(uri), ownership);
    }

    @Override
    public java.util.Optional<byte[]> mark(URI uri, String name) throws IOException {
        return fileSystem(Map.of()).mark(pathOf(uri), name);
    }

    @Override
    public void setMark(URI uri, String name, byte[] value) throws IOException {
        fileSystem(Map.of()).setMark(pathOf(uri), name, value);
    }
}
