package io.pdla.hdfs;

import io.pdla.storage.Capability;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageException.Reason;
import io.pdla.storage.StorageFile;
import io.pdla.storage.Layout;
import io.pdla.storage.StorageStatus;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.BlockStoragePolicySpi;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code hdfs:} driver: {@code hdfs://namenode:port/path} over the Hadoop HDFS client.
 *
 * <p>HDFS is append-only with one writer per file, so {@link Capability#RANDOM_WRITE} and
 * {@link Capability#CONCURRENT_WRITERS} are not declared; see {@link HdfsFile} for the read-write semantics.
 * Layouts are the core description translated by {@link HdfsLayouts}: the stripe is a file's block size and
 * the server class its storage policy (which storage types, DISK/SSD/ARCHIVE..., hold the replicas). HDFS
 * fixes block size and replication per file, and storage policies per directory or file. No byte-range
 * locks: {@code lock} is refused with {@code UNSUPPORTED}.
 *
 * <p>Hints read at create: {@code hdfs_block_size}, {@code hdfs_replication}, {@code hdfs_storage_policy}.
 * Without them a new file gets the NameNode's defaults ({@code dfs.blocksize}, {@code dfs.replication}) and
 * the storage policy its directory has.
 */
public final class HdfsDriver implements StorageDriver, Closeable {
    private final HdfsConnections connections;

    /**
     * The instance {@link java.util.ServiceLoader} makes: Hadoop configuration from class path and $HADOOP_CONF_DIR,
     * built at the first hdfs: open. Every rank's first open of any file makes the installed drivers: this one then
     * loads none of Hadoop's classes.
     */
    public HdfsDriver() {
        this.connections = new HdfsConnections(null);
    }

    /** A driver with an explicit Hadoop configuration (for example one with Kerberos or HA settings). */
    public HdfsDriver(Configuration conf) {
        this.connections = new HdfsConnections(() -> conf);
    }

    @Override
    public String scheme() {
        return "hdfs";
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.TRUNCATE, Capability.RENAME, Capability.LAYOUT);
    }

    @Override
    public StorageFile open(URI uri, OpenOptions options) throws IOException {
        Path path = path(uri);
        FileSystem fs = connections.fileSystem(uri);
        try {
            if (options.create()) createIfAbsent(fs, path, uri, options);
            FileStatus st = fs.getFileStatus(path);
            if (st.isDirectory()) throw new StorageException(Reason.BAD_ARGUMENT, uri + ": is a directory, not a file");
            return new HdfsFile(uri, fs, path, options.read(), options.write(), bufferSize(fs));
        } catch (IOException e) {
            throw HdfsErrors.translate(e, uri, "open");
        }
    }

    /**
     * Creates an empty file with the hinted block size, replication and policy, and closes it at once: the
     * lease is taken by whichever handle writes first (see {@link HdfsFile}). An existing file is kept as
     * it is (MPI_MODE_CREATE does not truncate) and the hints are then ignored, as MPI allows.
     */
    private void createIfAbsent(FileSystem fs, Path path, URI uri, OpenOptions o) throws IOException {
        if (!o.exclusive() && fs.exists(path)) return;
        Long blockSize = HdfsHints.blockSize(o, uri);
        Short replication = HdfsHints.replication(o, uri);
        String policy = HdfsHints.storagePolicy(o, uri);
        if (policy != null) requireKnownPolicy(fs, policy, uri, HdfsHints.STORAGE_POLICY);
        try {
            createEmpty(fs, path, uri, false, blockSize, replication, policy);
        } catch (StorageException e) {
            if (e.reason() != Reason.FILE_EXISTS || o.exclusive()) throw e;
            // Another rank created it between exists() and create(): the collective open's normal race.
        }
    }

    private void createEmpty(FileSystem fs, Path path, URI uri, boolean overwrite, Long blockSize, Short replication,
                             String policy) throws IOException {
        FsServerDefaults defaults = fs.getServerDefaults(path);
        long bs = blockSize != null ? blockSize : defaults.getBlockSize();
        short r = replication != null ? replication : defaults.getReplication();
        // Non-recursive, as open(2) and the file: driver: a missing directory is NO_SUCH_FILE, not created.
        try (FSDataOutputStream ignored = fs.createNonRecursive(path, overwrite, bufferSize(fs), r, bs, null)) {
            if (policy != null) fs.setStoragePolicy(path, policy);
        } catch (IOException e) {
            StorageException se = HdfsErrors.translate(e, uri, "create with block size " + bs + " and replication " + r);
            // The NameNode refuses block sizes under dfs.namenode.fs-limits.min-block-size: a bad argument.
            if (se.reason() == Reason.IO && String.valueOf(se.getMessage()).contains("minimum value")) {
                throw new StorageException(Reason.BAD_ARGUMENT, se.getMessage(), e);
            }
            throw se;
        }
    }

    @Override
    public boolean exists(URI uri) throws IOException {
        try {
            return connections.fileSystem(uri).exists(path(uri));
        } catch (IOException e) {
            throw HdfsErrors.translate(e, uri, "exists");
        }
    }

    @Override
    public void delete(URI uri) throws IOException {
        Path path = path(uri);
        try {
            if (!connections.fileSystem(uri).delete(path, false)) {
                throw new StorageException(Reason.NO_SUCH_FILE, uri + ": cannot delete, no such file");
            }
        } catch (IOException e) {
            throw HdfsErrors.translate(e, uri, "delete");
        }
    }

    @Override
    public StorageStatus stat(URI uri) throws IOException {
        try {
            FileSystem fs = connections.fileSystem(uri);
            return status(fs, fs.getFileStatus(path(uri)));
        } catch (IOException e) {
            throw HdfsErrors.translate(e, uri, "stat");
        }
    }

    @Override
    public List<StorageStatus> list(URI dir) throws IOException {
        try {
            FileSystem fs = connections.fileSystem(dir);
            Path p = path(dir);
            if (fs.getFileStatus(p).isFile()) {
                throw new StorageException(Reason.BAD_ARGUMENT, dir + ": cannot list, it is a file");
            }
            List<StorageStatus> out = new ArrayList<>();
            for (FileStatus s : fs.listStatus(p)) out.add(status(fs, s));
            out.sort(java.util.Comparator.comparing(StorageStatus::name));
            return out;
        } catch (IOException e) {
            throw HdfsErrors.translate(e, dir, "list");
        }
    }

    /**
     * HDFS keeps modification times in milliseconds; a file open for writing gets its time when closed.
     *
     * <p>The change stamp is the file's inode id and its last block's id and generation stamp. A new file
     * (create with overwrite, a copy renamed over it) has a new inode id; but new content of the same size can
     * also come into the same inode (truncate, then append, then {@code setTimes} puts the time back), and
     * every truncate or append gives the last block a new id or generation stamp, which no client sets.
     */
    private static StorageStatus status(FileSystem fs, FileStatus s) throws IOException {
        String stamp = io.pdla.storage.ChangeStamp.NONE;
        if (s instanceof org.apache.hadoop.hdfs.protocol.HdfsFileStatus h) {
            stamp = "inode:" + h.getFileId();
            if (!s.isDirectory() && fs instanceof DistributedFileSystem dfs) {
                org.apache.hadoop.hdfs.protocol.LocatedBlocks blocks = dfs.getClient().getLocatedBlocks(s.getPath().toUri().getPath(), 0, 1);
                org.apache.hadoop.hdfs.protocol.LocatedBlock last = blocks == null ? null : blocks.getLastLocatedBlock();
                if (last != null) stamp += "/blk:" + last.getBlock().getBlockId() + "_" + last.getBlock().getGenerationStamp();
            }
        }
        return new StorageStatus(s.getPath().toUri(), s.isDirectory(), s.isDirectory() ? 0 : s.getLen(),
                java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(s.getModificationTime()), stamp);
    }

    @Override
    public void mkdirs(URI dir) throws IOException {
        try {
            if (!connections.fileSystem(dir).mkdirs(path(dir))) {
                throw new StorageException(Reason.IO, dir + ": mkdirs returned false");
            }
        } catch (IOException e) {
            throw HdfsErrors.translate(e, dir, "mkdirs");
        }
    }

    @Override
    public void rename(URI from, URI to) throws IOException {
        Path src = path(from);
        Path dst = path(to);
        if (!String.valueOf(from.getAuthority()).equals(String.valueOf(to.getAuthority()))) {
            throw new StorageException(Reason.BAD_ARGUMENT, from + ": cannot rename to another NameNode: " + to);
        }
        FileSystem fs = connections.fileSystem(from);
        if (!(fs instanceof DistributedFileSystem dfs)) {
            throw new StorageException(Reason.UNSUPPORTED, from + ": atomic rename with overwrite needs HDFS, got " + fs.getClass().getName());
        }
        try {
            // The NameNode does this in one edit: the target is replaced atomically, as replicas need.
            dfs.rename(src, dst, Options.Rename.OVERWRITE);
        } catch (IOException e) {
            throw HdfsErrors.translate(e, from, "rename to " + to);
        }
    }

    /**
     * For a file: 1-DH with its block size, the server class of its effective storage policy, over the
     * live DataNodes. For a directory: the NameNode's default block size and the policy new files inherit.
     */
    @Override
    public Layout layout(URI uri) throws IOException {
        Path path = path(uri);
        FileSystem fs = connections.fileSystem(uri);
        try {
            FileStatus st = fs.getFileStatus(path);
            long block = st.isDirectory() ? fs.getServerDefaults(path).getBlockSize() : st.getBlockSize();
            return HdfsLayouts.describe(fs, path, st, block);
        } catch (IOException e) {
            throw HdfsErrors.translate(e, uri, "layout");
        }
    }

    /**
     * The layout's server class becomes the storage policy ({@link HdfsLayouts}); its stripe becomes the
     * block size of a file. HDFS places blocks itself, so the distribution (1-DV, 2-D regions, hybrid strips)
     * has no HDFS form and only its server class and stripe are kept. Directory: sets the storage policy
     * files created in it inherit (HDFS has no per-directory block size, so the stripe is not kept there;
     * {@link #layout} then reports the NameNode default). File: the policy applies to blocks written from
     * now on (moving existing blocks is the {@code hdfs mover}'s job), and a different block size only
     * while the file holds no data (the empty file is re-created with it). A file that does not exist yet
     * is created empty with the layout, because HDFS has no other place to keep a per-file setting.
     */
    @Override
    public void setLayout(URI uri, Layout layout) throws IOException {
        Path path = path(uri);
        FileSystem fs = connections.fileSystem(uri);
        String policy = HdfsLayouts.policyFor(layout);
        long blockSize = HdfsLayouts.blockSizeFor(layout);
        try {
            if (!fs.exists(path)) {
                HdfsHints.parseBlockSize(Long.toString(blockSize), "stripe of layout " + layout, uri);
                createEmpty(fs, path, uri, false, blockSize, null, policy);
                return;
            }
            FileStatus st = fs.getFileStatus(path);
            if (st.isDirectory()) {
                fs.setStoragePolicy(path, policy);
                return;
            }
            if (blockSize != st.getBlockSize()) {
                HdfsHints.parseBlockSize(Long.toString(blockSize), "stripe of layout " + layout, uri);
                recreateWithBlockSize(fs, path, uri, st, blockSize);
            }
            fs.setStoragePolicy(path, policy);
        } catch (IOException e) {
            throw HdfsErrors.translate(e, uri, "set layout " + layout);
        }
    }

    private void recreateWithBlockSize(FileSystem fs, Path path, URI uri, FileStatus st, long blockSize) throws IOException {
        if (st.getLen() > 0) {
            throw new StorageException(Reason.UNSUPPORTED, uri + ": cannot change the block size from " + st.getBlockSize() + " to " + blockSize
                    + ": the file already holds " + st.getLen() + " bytes and HDFS fixes a file's block size when it is created");
        }
        if (fs instanceof DistributedFileSystem dfs && !dfs.isFileClosed(path)) {
            throw new StorageException(Reason.UNSUPPORTED, uri + ": cannot change the block size while the file is open for writing");
        }
        BlockStoragePolicySpi before = fs.getStoragePolicy(path);
        createEmpty(fs, path, uri, true, blockSize, st.getReplication(), null);
        // A policy set on the old file itself (not inherited) would be lost with the old inode.
        BlockStoragePolicySpi after = fs.getStoragePolicy(path);
        if (before != null && (after == null || !before.getName().equals(after.getName()))) fs.setStoragePolicy(path, before.getName());
    }

    /**
     * pdla never makes symbolic links in HDFS (and clusters keep them switched off by default): owners and
     * permission bits, as the NameNode keeps them, are all a copy's check needs.
     */
    @Override
    public io.pdla.storage.CopyOwnership copyOwnership() {
        return io.pdla.storage.CopyOwnership.byOwnership(this);
    }

    /** The NameNode journals a rename before it answers: nothing more to make durable. */
    @Override
    public void syncDirectory(URI dir) {
    }

    /** The NameNode's own permission check for reading, as this client's user. */
    @Override
    public boolean readable(URI uri) throws IOException {
        try {
            connections.fileSystem(uri).access(path(uri), org.apache.hadoop.fs.permission.FsAction.READ);
            return true;
        } catch (org.apache.hadoop.security.AccessControlException | java.io.FileNotFoundException denied) {
            return false;
        } catch (IOException e) {
            throw HdfsErrors.translate(e, uri, "readable");
        }
    }

    /** HDFS keeps POSIX-style owner, group and permission bits on every file and directory. */
    @Override
    public java.util.Optional<io.pdla.storage.FileOwnership> ownership(URI uri) throws IOException {
        try {
            FileStatus st = connections.fileSystem(uri).getFileStatus(path(uri));
            return java.util.Optional.of(new io.pdla.storage.FileOwnership(st.getOwner(), st.getGroup(), permissions(st.getPermission())));
        } catch (IOException e) {
            throw HdfsErrors.translate(e, uri, "ownership");
        }
    }

    /**
     * Permission bits first, then owner and group. HDFS lets only its superuser give a file to another user
     * ({@code ACCESS_DENIED} otherwise), as POSIX lets only root.
     */
    @Override
    public void setOwnership(URI uri, io.pdla.storage.FileOwnership o) throws IOException {
        Path path = path(uri);
        try {
            FileSystem fs = connections.fileSystem(uri);
            fs.setPermission(path, new org.apache.hadoop.fs.permission.FsPermission(bits(o.permissions())));
            FileStatus st = fs.getFileStatus(path);
            if (!st.getOwner().equals(o.owner()) || !st.getGroup().equals(o.group())) fs.setOwner(path, o.owner(), o.group());
        } catch (IOException e) {
            throw HdfsErrors.translate(e, uri, "give it " + o);
        }
    }

    /**
     * A mark is the extended attribute {@code user.pdla.NAME}: the NameNode checks write permission on the file
     * before it sets a {@code user.} attribute. A cluster with {@code dfs.namenode.xattrs.enabled=false} keeps none.
     */
    @Override
    public java.util.Optional<byte[]> mark(URI uri, String name) throws IOException {
        String attr = MARK_PREFIX + StorageDriver.checkMarkName(name);
        try {
            FileSystem fs = connections.fileSystem(uri);
            Path path = path(uri);
            if (!fs.listXAttrs(path).contains(attr)) return java.util.Optional.empty();
            return java.util.Optional.ofNullable(fs.getXAttr(path, attr));
        } catch (IOException e) {
            StorageException se = HdfsErrors.translate(e, uri, "read mark " + name);
            if (xattrsDisabled(se)) return java.util.Optional.empty();
            throw se;
        }
    }

    @Override
    public void setMark(URI uri, String name, byte[] value) throws IOException {
        String attr = MARK_PREFIX + StorageDriver.checkMarkName(name);
        try {
            connections.fileSystem(uri).setXAttr(path(uri), attr, value);
        } catch (IOException e) {
            StorageException se = HdfsErrors.translate(e, uri, "set mark " + name);
            if (xattrsDisabled(se)) throw new StorageException(Reason.UNSUPPORTED, se.getMessage(), e);
            throw se;
        }
    }

    private static final String MARK_PREFIX = "user.pdla.";

    private static boolean xattrsDisabled(StorageException e) {
        return e.reason() == Reason.IO && String.valueOf(e.getMessage()).contains("xattrs.enabled");
    }

    private static java.util.Set<java.nio.file.attribute.PosixFilePermission> permissions(org.apache.hadoop.fs.permission.FsPermission p) {
        java.util.Set<java.nio.file.attribute.PosixFilePermission> out = EnumSet.noneOf(java.nio.file.attribute.PosixFilePermission.class);
        java.nio.file.attribute.PosixFilePermission[] order = java.nio.file.attribute.PosixFilePermission.values();   // OWNER_READ .. OTHERS_EXECUTE
        int bits = p.toShort() & 0777;
        for (int i = 0; i < 9; i++) if ((bits & (1 << (8 - i))) != 0) out.add(order[i]);
        return out;
    }

    private static short bits(java.util.Set<java.nio.file.attribute.PosixFilePermission> perms) {
        int bits = 0;
        for (java.nio.file.attribute.PosixFilePermission p : perms) bits |= 1 << (8 - p.ordinal());
        return (short) bits;
    }

    /** Where each block of a file lives: the check that a storage policy did what it should. */
    public List<BlockPlacement> blockPlacement(URI file) throws IOException {
        Path path = path(file);
        FileSystem fs = connections.fileSystem(file);
        try {
            FileStatus st = fs.getFileStatus(path);
            List<BlockPlacement> out = new ArrayList<>();
            for (BlockLocation b : fs.getFileBlockLocations(st, 0, st.getLen())) {
                List<String> types = Arrays.stream(b.getStorageTypes()).map(StorageType::name).toList();
                out.add(new BlockPlacement(b.getOffset(), b.getLength(), List.of(b.getHosts()), types));
            }
            return out;
        } catch (IOException e) {
            throw HdfsErrors.translate(e, file, "block locations");
        }
    }

    /** One block: its byte range, the DataNodes holding replicas and their storage types (DISK, SSD...). */
    public record BlockPlacement(long offset, long length, List<String> hosts, List<String> storageTypes) {
    }

    /** Closes this driver's HDFS clients. Open files of this driver stop working. */
    @Override
    public void close() throws IOException {
        connections.close();
    }

    private static void requireKnownPolicy(FileSystem fs, String policy, URI uri, String key) throws IOException {
        Set<String> known = new TreeSet<>();
        for (BlockStoragePolicySpi p : fs.getAllStoragePolicies()) known.add(p.getName());
        if (!known.contains(policy)) {
            throw new StorageException(Reason.BAD_ARGUMENT, uri + ": " + key + "=" + policy + " is not a storage policy of this cluster; known: " + known);
        }
    }

    private static int bufferSize(FileSystem fs) {
        return fs.getConf().getInt("io.file.buffer.size", 4096);
    }

    static Path path(URI uri) throws StorageException {
        if (!"hdfs".equals(uri.getScheme())) {
            throw new StorageException(Reason.BAD_ARGUMENT, "hdfs driver given a '" + uri.getScheme() + "' URI: " + uri);
        }
        String p = uri.getPath();
        if (p == null || !p.startsWith("/")) {
            throw new StorageException(Reason.BAD_ARGUMENT, uri + ": an hdfs URI needs an absolute path, as in hdfs://namenode:8020/dir/file");
        }
        return new Path(p);
    }
}
