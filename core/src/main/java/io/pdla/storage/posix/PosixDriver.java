package io.pdla.storage.posix;

import io.pdla.hints.HintFlag;
import io.pdla.storage.Capability;
import io.pdla.storage.Layout;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageFile;
import io.pdla.storage.StorageStatus;

import java.io.IOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The {@code file:} driver: local or mounted POSIX file systems through {@link java.nio.channels.FileChannel}.
 * Hint {@code posix_direct_io=true} bypasses the page cache for aligned requests (see {@link PosixFile}); so does the
 * drivers' common {@link OpenOptions#HINT_BYPASS_CACHE}, except that a file system refusing O_DIRECT then opens the
 * file without it rather than failing.
 * Byte-range locks of a handle open for writing are held by its native descriptor's open file description
 * ({@link DescriptionLocks}); without the native library, or on a kernel without OFD locks, they are
 * {@link java.nio.channels.FileChannel#lock} locks ({@link io.pdla.storage.ChannelRangeLock}).
 */
public final class PosixDriver implements StorageDriver {
    public static final String HINT_DIRECT_IO = "posix_direct_io";
    /**
     * {@code true} (the default where the library loads) moves heap-array reads and writes to {@link NativePosix}
     * (one copy per byte); {@code false} keeps them on the {@code FileChannel}. The environment variable
     * {@code PDLA_POSIX_NATIVE_IO} sets the default for every open of the process.
     */
    public static final String HINT_NATIVE_IO = "posix_native_io";
    static final String ENV_NATIVE_IO = "PDLA_POSIX_NATIVE_IO";
    /**
     * Bytes of file that a handle's strided reads ask the kernel to read ahead at a time, gaps included (see
     * {@link StridedReadAhead}); {@code 0} leaves read-ahead to the kernel. Default 8 MiB, the kernel's own largest
     * window on this project's machines. Applies to the native path (not to direct I/O).
     */
    public static final String HINT_STRIDE_READAHEAD = "posix_stride_readahead";
    static final String DEFAULT_STRIDE_READAHEAD = "8m";

    /** The value of {@link #HINT_NATIVE_IO} for opens that do not give it. */
    private final String nativeIoDefault;

    public PosixDriver() {
        this(io.pdla.intercept.Environment.get(ENV_NATIVE_IO) == null ? "true" : io.pdla.intercept.Environment.get(ENV_NATIVE_IO));
    }

    /** A driver whose opens use {@code nativeIoDefault} ("true" or "false") when they do not give the hint. */
    PosixDriver(String nativeIoDefault) {
        this.nativeIoDefault = nativeIoDefault;
    }

    @Override
    public String scheme() {
        return "file";
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.RANDOM_WRITE, Capability.TRUNCATE, Capability.CONCURRENT_WRITERS,
                Capability.RENAME, Capability.DIRECT_IO, Capability.BYTE_RANGE_LOCK, Capability.BUFFERED_WRITES);
    }

    @Override
    public StorageFile open(URI uri, OpenOptions options) throws IOException {
        Path path = path(uri);
        boolean direct = flag("hint " + HINT_DIRECT_IO, options.hint(HINT_DIRECT_IO, "false"));
        // asked for by name, O_DIRECT refused is an error; only wished for (a replica's copy), the file goes without it,
        // and a file read while its pages are cached is read from the cache (a copy out of memory beats the disk)
        boolean onlyWished = !direct && options.bypassCacheWished() && (options.write() || PageResidency.mostlyCold(path));
        boolean fromHint = options.hints().containsKey(HINT_NATIVE_IO);
        boolean nativeIo = flag(fromHint ? "hint " + HINT_NATIVE_IO : "environment variable " + ENV_NATIVE_IO,
                options.hint(HINT_NATIVE_IO, nativeIoDefault));
        long readAhead = size("hint " + HINT_STRIDE_READAHEAD, options.hint(HINT_STRIDE_READAHEAD, DEFAULT_STRIDE_READAHEAD));
        try {
            return PosixFile.open(uri, path, options, direct || onlyWished, onlyWished, nativeIo && NativePosix.available(), readAhead);
        } catch (IOException e) {
            throw translate(e, path);
        }
    }

    private static long size(String what, String value) throws StorageException {
        try {
            return io.pdla.size.ByteSize.parse(value, what);
        } catch (IllegalArgumentException e) {
            throw new StorageException(StorageException.Reason.BAD_ARGUMENT, e.getMessage());
        }
    }

    private static boolean flag(String what, String value) throws StorageException {
        try {
            return HintFlag.parse(what, value);
        } catch (IllegalArgumentException e) {
            throw new StorageException(StorageException.Reason.BAD_ARGUMENT, e.getMessage());
        }
    }

    @Override
    public boolean exists(URI uri) {
        return Files.exists(path(uri));
    }

    @Override
    public void delete(URI uri) throws IOException {
        Path path = path(uri);
        try {
            Files.delete(path);
        } catch (IOException e) {
            throw translate(e, path);
        }
    }

    @Override
    public StorageStatus stat(URI uri) throws IOException {
        return status(path(uri));
    }

    private static StorageStatus status(Path path) throws IOException {
        try {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
            return new StorageStatus(path.toUri(), a.isDirectory(), a.isDirectory() ? 0 : a.size(),
                    a.lastModifiedTime().to(TimeUnit.NANOSECONDS), io.pdla.storage.ChangeStamp.ofLocalFile(path));
        } catch (IOException e) {
            throw translate(e, path);
        }
    }

    @Override
    public List<StorageStatus> list(URI dir) throws IOException {
        Path path = path(dir);
        if (Files.isRegularFile(path)) {
            throw new StorageException(StorageException.Reason.BAD_ARGUMENT, path + ": cannot list, it is a file");
        }
        List<StorageStatus> out = new ArrayList<>();
        try (Stream<Path> children = Files.list(path)) {
            for (Path c : children.sorted(Comparator.comparing(p -> p.getFileName().toString())).toList()) {
                try {
                    out.add(status(c));
                } catch (StorageException gone) {
                    if (gone.reason() != StorageException.Reason.NO_SUCH_FILE) throw gone;
                    // deleted between the listing and its stat: not there any more, so not listed
                }
            }
        } catch (IOException e) {
            throw translate(e, path);
        }
        return out;
    }

    @Override
    public void mkdirs(URI dir) throws IOException {
        Path path = path(dir);
        try {
            Files.createDirectories(path);
        } catch (IOException e) {
            throw translate(e, path);
        }
    }

    @Override
    public void rename(URI from, URI to) throws IOException {
        Path src = path(from);
        try {
            Files.move(src, path(to), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw translate(e, src);
        }
    }

    @Override
    public java.util.Optional<io.pdla.storage.FileOwnership> ownership(URI uri) throws IOException {
        return LocalFiles.ownership(path(uri));
    }

    @Override
    public void setOwnership(URI uri, io.pdla.storage.FileOwnership o) throws IOException {
        LocalFiles.setOwnership(path(uri), o);
    }

    /** Every POSIX file is a local file; a URI of another scheme is not this driver's ({@code IllegalArgumentException}). */
    @Override
    public java.util.Optional<Path> localPath(URI uri) {
        return java.util.Optional.of(path(uri));
    }

    /** Symbolic links, real paths and user ids: the POSIX checks, not the ownership-only default. */
    @Override
    public io.pdla.storage.CopyOwnership copyOwnership() {
        return PosixCopies.INSTANCE;
    }

    /** A rename is durable only once its directory is forced (fsync of the directory). */
    @Override
    public void syncDirectory(URI dir) throws IOException {
        LocalFiles.syncDirectory(path(dir));
    }

    /** access(2) as this process's user. */
    @Override
    public boolean readable(URI uri) {
        return Files.isReadable(path(uri));
    }

    /** See {@link LocalFiles#mark}: the extended attribute {@code user.pdla.NAME}. */
    @Override
    public java.util.Optional<byte[]> mark(URI uri, String name) throws IOException {
        return LocalFiles.mark(path(uri), name);
    }

    @Override
    public void setMark(URI uri, String name, byte[] value) throws IOException {
        LocalFiles.setMark(path(uri), name, value);
    }

    /**
     * A POSIX file is unstriped as far as we can tell (a parallel file system behind a mount stripes
     * out of our sight): the file system's block size, one server. Without {@link Capability#LAYOUT},
     * {@code setLayout} keeps the SPI's refusal ({@code UNSUPPORTED}).
     */
    @Override
    public Layout layout(URI uri) {
        return unstriped(path(uri));
    }

    /** The block size of the file store holding {@code path} (or its nearest existing parent). */
    static Layout unstriped(Path path) {
        Path p = path.toAbsolutePath();
        while (p != null && !Files.exists(p)) p = p.getParent();
        try {
            long block = p == null ? Layout.DEFAULT_BLOCK : blockSize(p);
            return Layout.unstriped(block > 0 ? block : Layout.DEFAULT_BLOCK);
        } catch (IOException | UnsupportedOperationException e) {
            return Layout.unstriped(Layout.DEFAULT_BLOCK);
        }
    }

    /**
     * The block size of the file system holding the existing {@code path}, remembered per device:
     * {@link Files#getFileStore} reads the mount table, about a millisecond, which was a third of a collective
     * open; a stat for the device number costs microseconds.
     */
    static long blockSize(Path path) throws IOException {
        Object device;
        try {
            device = Files.getAttribute(path, "unix:dev");
        } catch (UnsupportedOperationException | IllegalArgumentException noUnixView) {
            return Files.getFileStore(path).getBlockSize();
        }
        Long known = BLOCK_BY_DEVICE.get(device);
        if (known != null) return known;
        long block = Files.getFileStore(path).getBlockSize();
        BLOCK_BY_DEVICE.put(device, block);
        return block;
    }

    private static final java.util.Map<Object, Long> BLOCK_BY_DEVICE = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Prepares this JVM's native path before a job's first open: links the calls into the native library now (see
     * {@link NativePosix#linkCallSites}), on the rank's warm-up thread rather than in the first open and reads. Does
     * nothing without the library, and nothing to any file.
     */
    public static void warmUp() {
        NativePosix.linkCallSites();
    }

    /**
     * A file: URI made absolute and normal (the one name of a local file), any other URI as it is: how
     * {@link io.pdla.storage.StorageDrivers#toUri} names a file before any driver is loaded.
     */
    public static URI canonical(URI uri) {
        if (!"file".equals(uri.getScheme())) return uri;
        return Path.of(uri).toAbsolutePath().normalize().toUri();
    }

    static Path path(URI uri) {
        if (uri.getScheme() != null && !"file".equals(uri.getScheme())) {
            throw new IllegalArgumentException("posix driver given a '" + uri.getScheme() + "' URI: " + uri);
        }
        return uri.getScheme() == null ? Path.of(uri.getPath()) : Path.of(uri);
    }

    /** Maps JDK exceptions to storage reasons; the message always names the file. */
    /**
     * Whether an open with O_DIRECT failed because the file system has no direct I/O: the kernel answers EINVAL
     * ("Invalid argument", as the JDK reports it). Permissions, missing files and I/O errors are not this.
     */
    public static boolean directIoRefused(IOException e) {
        return e instanceof java.nio.file.FileSystemException f && "Invalid argument".equals(f.getReason());
    }

    static StorageException translate(IOException e, Path path) {
        if (e instanceof StorageException se) return se;
        StorageException.Reason reason;
        if (e instanceof NoSuchFileException) reason = StorageException.Reason.NO_SUCH_FILE;
        else if (e instanceof FileAlreadyExistsException) reason = StorageException.Reason.FILE_EXISTS;
        else if (e instanceof AccessDeniedException) reason = StorageException.Reason.ACCESS_DENIED;
        else if (String.valueOf(e.getMessage()).contains("No space left")) reason = StorageException.Reason.NO_SPACE;
        else reason = StorageException.Reason.IO;
        return new StorageException(reason, path + ": " + e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
}
