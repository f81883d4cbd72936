package io.pdla.storage.posix;

import io.pdla.storage.StorageException;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Properties;

/**
 * One-copy POSIX I/O for heap arrays: {@code pread}/{@code pwrite} between the file and the caller's {@code byte[]}
 * through the JNI library {@code libpdlaposix} (built with core, from {@code src/main/native}), where
 * {@link java.nio.channels.FileChannel} copies twice (kernel, temporary direct buffer, array).
 *
 * <p><b>One class loader per JVM.</b> A JNI library can be bound to one class loader only, and under MPJ's
 * multicore device every rank loads pdla in a loader of its own: the second rank to {@code System.load} the
 * library would get "already loaded in another classloader". So the first rank of a JVM defines the class
 * holding the {@code native} methods ({@link NativeIo}, JDK types only) from its bytes in a loader of its own
 * whose parent is the platform loader, loads the library there, and leaves method handles to its methods
 * under a system property (the JDK-owned root that all ranks share, as {@code JvmShared} does in the shim).
 * Every rank, whatever its loader, takes those handles: their types mention only JDK classes. When the launcher shares
 * core among the ranks ({@code PDLA_SHARED_CLASSES}, on by default) this class is loaded once per JVM and the first
 * rank's binding is simply everybody's; the bridge loader stays for jobs that share nothing, and for embedders.
 *
 * <p>If the library cannot be found or loaded (another OS or architecture, a build without gcc, a
 * {@code noexec} temporary directory), one line says so on standard error and the POSIX driver uses the
 * {@code FileChannel} as before. {@code PDLA_POSIX_NATIVE_IO=false} or the hint {@code posix_native_io=false}
 * turns the path off.
 */
public final class NativePosix {
    /** The system property under which the JVM's one binding lives: [MethodHandle[] or null, String why not]. */
    private static final String SHARED = "io.pdla.storage.posix.native-io";
    private static final String BRIDGE = "io.pdla.storage.posix.NativeIo";

    private static final MethodHandle OPEN, CLOSE, STRERROR, PREAD, PWRITE, PREAD_LIST, PWRITE_LIST, LOCK, UNLOCK, CALLS, PREAD_AHEAD, HINTS;
    private static final String UNAVAILABLE;

    static {
        Object[] shared = shared();
        MethodHandle[] h = (MethodHandle[]) shared[0];
        UNAVAILABLE = (String) shared[1];
        OPEN = h == null ? null : h[0];
        CLOSE = h == null ? null : h[1];
        STRERROR = h == null ? null : h[2];
        PREAD = h == null ? null : h[3];
        PWRITE = h == null ? null : h[4];
        PREAD_LIST = h == null ? null : h[5];
        PWRITE_LIST = h == null ? null : h[6];
        LOCK = h == null ? null : h[7];
        UNLOCK = h == null ? null : h[8];
        CALLS = h == null ? null : h[9];
        PREAD_AHEAD = h == null ? null : h[10];
        HINTS = h == null ? null : h[11];
    }

    private NativePosix() {
    }

    private static final java.util.concurrent.atomic.AtomicBoolean CALL_SITES_LINKED = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * Calls after which the JDK customizes a method handle's invoker for it (java.lang.invoke's {@code CUSTOMIZE_THRESHOLD},
     * 127 unless set; -1: never), plus one, so that {@link #linkCallSites} makes that happen.
     */
    private static final int CUSTOMIZE_AFTER = Math.max(0, Integer.getInteger("java.lang.invoke.MethodHandle.CUSTOMIZE_THRESHOLD", 127) + 1);

    /**
     * Runs each of this class's calls into the library once against no file (descriptor -1, a path under /dev/null), so
     * that the JVM links their method-handle invocations now, on the rank's warm-up thread: the first call through each
     * call site spins its invoker classes with the JDK's ASM, about half a millisecond of interpreted code each, which a
     * job's first open and first reads paid while the other ranks waited for them. Nothing is opened, read, written or
     * counted (the library refuses a negative descriptor before it counts a transfer). Once per copy of this class: once
     * per JVM when the ranks share core's classes.
     */
    public static void linkCallSites() {
        if (!available() || !CALL_SITES_LINKED.compareAndSet(false, true)) return;
        byte[] one = new byte[1];
        long[] at = {0}, length = {1};
        Path none = Path.of("/dev/null/pdla-link");   // a file under a non-directory: every open fails, ENOTDIR
        try {
            open(none, true, false);
        } catch (IOException expected) {
            // refused, as meant: the failure's message also linked strerror
        }
        try {
            close(-1, none);
        } catch (IOException expected) {
            // EBADF
        }
        try {
            pread(-1, one, 0, 1, 0, none);
        } catch (IOException expected) {
            // EBADF
        }
        try {
            pwrite(-1, one, 0, 1, 0, none);
        } catch (IOException expected) {
            // EBADF
        }
        try {
            preadList(-1, one, 0, at, length, 1, none);
        } catch (IOException expected) {
            // EBADF
        }
        try {
            pwriteList(-1, one, 0, at, length, 1, none);
        } catch (IOException expected) {
            // EBADF
        }
        try {
            preadAhead(-1, one, 0, 1, 0, 0, 1, false, none);
        } catch (IOException expected) {
            // EBADF
        }
        try {
            lock(-1, 0, 1, none);
        } catch (IOException expected) {
            // EBADF
        }
        try {
            unlock(-1, 0, 1, none);
        } catch (IOException expected) {
            // EBADF
        }
        customizeTransfers(one, at, length);
    }

    /**
     * Calls each per-transfer handle past the JDK's customization threshold against descriptor -1. After a handle's 128th
     * call the JDK spins bytecode specialised for it (one {@code LambdaForm$DMH} class, generated with its ASM in
     * interpreted code), and a job's first iteration paid that in the middle of its reads, on one rank, for the read and
     * the read-ahead handles (a class-load record with stacks of a fresh 16 KiB read job). The handles are called
     * directly, not through the methods above: -EBADF comes back as a number, with no exception to build.
     */
    private static void customizeTransfers(byte[] one, long[] at, long[] length) {
        try {
            for (int i = 0; i < CUSTOMIZE_AFTER; i++) {
                long r = (long) PREAD.invokeExact(-1, one, 0, 1, 0L)
                        + (long) PWRITE.invokeExact(-1, one, 0, 1, 0L)
                        + (long) PREAD_LIST.invokeExact(-1, one, 0, at, length, 1)
                        + (long) PWRITE_LIST.invokeExact(-1, one, 0, at, length, 1)
                        + (long) PREAD_AHEAD.invokeExact(-1, one, 0, 1, 0L, 0L, 1L, false);
                if (r >= 0) throw new IllegalStateException("libpdlaposix accepted descriptor -1 (" + r + ")");
            }
        } catch (Throwable t) {
            throw new IllegalStateException("libpdlaposix's calls against descriptor -1", t);
        }
    }

    /** Whether the native path is loaded in this JVM. */
    public static boolean available() {
        return UNAVAILABLE == null;
    }

    /** Why the native path is not loaded, or null when it is. */
    public static String unavailableReason() {
        return UNAVAILABLE;
    }

    /**
     * Native reads and writes made in this JVM, by every rank and class loader: the library counts them, so that the
     * read path pays no Java counter (a diagnostic for tests; 0 when the library is not loaded).
     */
    public static long callsInThisJvm() {
        return count(CALLS, "call");
    }

    /** One of the library's counters, or 0 without the library. */
    private static long count(MethodHandle counter, String what) {
        if (counter == null) return 0;
        try {
            return (long) counter.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("libpdlaposix's " + what + " count", t);
        }
    }

    private static Object[] shared() {
        Properties p = System.getProperties();
        Object s = p.get(SHARED);
        if (s == null) {
            synchronized (p) {
                s = p.get(SHARED);
                if (s == null) {
                    s = bind();
                    p.put(SHARED, s);
                }
            }
        }
        return (Object[]) s;
    }

    /** Defines {@link NativeIo} in a loader of its own, loads the library into it: done once per JVM. */
    private static Object[] bind() {
        try {
            URL url = libraryResource();
            // a jar's library is copied out; the copy is deleted once loaded
            boolean copied = !"file".equals(url.getProtocol());
            Path library = copied ? copyOut(url) : Path.of(url.toURI());
            try {
                Class<?> bridge = Class.forName(BRIDGE, true, new BridgeLoader(classBytes()));
                MethodHandles.Lookup l = MethodHandles.privateLookupIn(bridge, MethodHandles.lookup());
                l.findStatic(bridge, "load", MethodType.methodType(void.class, String.class)).invokeExact(library.toString());
                return handles(bridge, l);
            } finally {
                // the loaded library stays mapped after its file is gone; a rank JVM that is halted or killed
                // never runs deleteOnExit, and left one copy per JVM in the temporary directory
                if (copied) Files.deleteIfExists(library);
            }
        } catch (Throwable e) {
            String why = e.getClass().getSimpleName() + ": " + e.getMessage();
            System.err.println("pdla posix driver: native I/O unavailable (" + why + "); reads and writes go through FileChannel");
            return new Object[]{null, why};
        }
    }

    /** The library's entry points as method handles, each tried once. */
    private static Object[] handles(Class<?> bridge, MethodHandles.Lookup l) throws Throwable {
        MethodType list = MethodType.methodType(long.class, int.class, byte[].class, int.class, long[].class, long[].class, int.class);
        MethodType one = MethodType.methodType(long.class, int.class, byte[].class, int.class, int.class, long.class);
        MethodType range = MethodType.methodType(int.class, int.class, long.class, long.class);
        MethodHandle[] h = {
                l.findStatic(bridge, "open0", MethodType.methodType(int.class, byte[].class, int.class)),
                l.findStatic(bridge, "close0", MethodType.methodType(int.class, int.class)),
                l.findStatic(bridge, "strerror0", MethodType.methodType(String.class, int.class)),
                l.findStatic(bridge, "pread0", one),
                l.findStatic(bridge, "pwrite0", one),
                l.findStatic(bridge, "preadList0", list),
                l.findStatic(bridge, "pwriteList0", list),
                l.findStatic(bridge, "lock0", range),
                l.findStatic(bridge, "unlock0", range),
                l.findStatic(bridge, "calls0", MethodType.methodType(long.class)),
                l.findStatic(bridge, "preadAhead0", MethodType.methodType(long.class, int.class, byte[].class, int.class, int.class, long.class, long.class, long.class, boolean.class)),
                l.findStatic(bridge, "hints0", MethodType.methodType(long.class))};
        // a call that reaches the library: a symbol missing from an old build fails here, not in a rank's read
        String probe = (String) h[2].invokeExact(2);
        if (probe == null) throw new IllegalStateException("strerror0 returned nothing");
        return new Object[]{h, null};
    }

    /**
     * The library beside this class: a file when the classes are a directory, else an entry of the jar. (No nested
     * class here: the shared-classes jar lists this class's files by name, and a rank JVM that lacked one lost native I/O.)
     */
    private static URL libraryResource() throws IOException {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        String resource = "native/" + (os.contains("linux") ? "linux" : os.replace(' ', '_')) + "-" + arch + "/libpdlaposix.so";
        URL url = NativePosix.class.getResource(resource);
        if (url == null) throw new IOException("no " + resource + " next to " + NativePosix.class.getName() + " (not built for " + os + "/" + arch + ")");
        return url;
    }

    /** The jar's library copied into the temporary directory, once per JVM. */
    private static Path copyOut(URL url) throws IOException {
        Path copy = Files.createTempFile("libpdlaposix", ".so");
        try (InputStream in = url.openStream()) {
            Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            Files.deleteIfExists(copy);
            throw e;
        }
        return copy;
    }

    private static byte[] classBytes() throws IOException {
        try (InputStream in = NativePosix.class.getResourceAsStream("NativeIo.class")) {
            if (in == null) throw new IOException("NativeIo.class not found next to " + NativePosix.class.getName());
            return in.readAllBytes();
        }
    }

    /** Defines the one class {@link NativeIo} from its bytes; everything else comes from the platform loader. */
    private static final class BridgeLoader extends ClassLoader {
        private final byte[] bytes;

        BridgeLoader(byte[] bytes) {
            super("pdla-native-io", ClassLoader.getPlatformClassLoader());
            this.bytes = bytes;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            if (!BRIDGE.equals(name)) throw new ClassNotFoundException(name);
            return defineClass(name, bytes, 0, bytes.length);
        }
    }

    // ---- the calls the POSIX driver makes; each throws the StorageException the FileChannel path would ----

    /** Opens {@code path} (already opened, and created if asked, by the driver's channel) for reading, writing or both. */
    static int open(Path path, boolean read, boolean write) throws IOException {
        byte[] name = path.toAbsolutePath().toString().getBytes(jnuCharset());
        int fd;
        try {
            fd = (int) OPEN.invokeExact(name, read && write ? 2 : write ? 1 : 0);
        } catch (Throwable t) {
            throw unexpected(t, path);
        }
        if (fd < 0) throw error(-fd, path, "open");
        return fd;
    }

    static void close(int fd, Path path) throws IOException {
        int r;
        try {
            r = (int) CLOSE.invokeExact(fd);
        } catch (Throwable t) {
            throw unexpected(t, path);
        }
        if (r < 0) throw error(-r, path, "close");
    }

    /** Reads up to {@code length} bytes; short only at end of file. */
    static int pread(int fd, byte[] a, int offset, int length, long position, Path path) throws IOException {
        long r;
        try {
            r = (long) PREAD.invokeExact(fd, a, offset, length, position);
        } catch (Throwable t) {
            throw unexpected(t, path);
        }
        if (r < 0) throw error((int) -r, path, "read");
        return (int) r;
    }

    static void pwrite(int fd, byte[] a, int offset, int length, long position, Path path) throws IOException {
        long r;
        try {
            r = (long) PWRITE.invokeExact(fd, a, offset, length, position);
        } catch (Throwable t) {
            throw unexpected(t, path);
        }
        if (r < 0) throw error((int) -r, path, "write");
    }

    /** Reads the pieces in order into consecutive bytes; stops at the first piece cut short by end of file. */
    static long preadList(int fd, byte[] a, int offset, long[] offsets, long[] lengths, int count, Path path) throws IOException {
        long r;
        try {
            r = (long) PREAD_LIST.invokeExact(fd, a, offset, offsets, lengths, count);
        } catch (Throwable t) {
            throw unexpected(t, path);
        }
        if (r < 0) throw error((int) -r, path, "read");
        return r;
    }

    static void pwriteList(int fd, byte[] a, int offset, long[] offsets, long[] lengths, int count, Path path) throws IOException {
        long r;
        try {
            r = (long) PWRITE_LIST.invokeExact(fd, a, offset, offsets, lengths, count);
        } catch (Throwable t) {
            throw unexpected(t, path);
        }
        if (r < 0) throw error((int) -r, path, "write");
    }

    /** Set in {@link #preadAhead}'s result when the kernel was asked to read ahead. */
    static final long ASKED_AHEAD = 1L << 62;
    /** Set in {@link #preadAhead}'s result when the file system cannot say whether a read would wait (no RWF_NOWAIT). */
    static final long NO_NOWAIT = 1L << 61;

    /**
     * {@link #pread}, but when the bytes are not all in the page cache, or {@code always}, the kernel is first asked to
     * start reading {@code [ahead, ahead + aheadLength)} (a hint: it may decline). The bytes read, with {@link #ASKED_AHEAD} set when
     * the hint was given.
     */
    static long preadAhead(int fd, byte[] a, int offset, int length, long position, long ahead, long aheadLength, boolean always, Path path)
            throws IOException {
        long r;
        try {
            r = (long) PREAD_AHEAD.invokeExact(fd, a, offset, length, position, ahead, aheadLength, always);
        } catch (Throwable t) {
            throw unexpected(t, path);
        }
        if (r < 0) throw error((int) -r, path, "read");
        return r;
    }

    /** Read-ahead hints {@link #preadAhead} gave in this JVM (a diagnostic for tests; 0 without the library). */
    public static long hintsInThisJvm() {
        return count(HINTS, "hint");
    }

    private static final int EINVAL = 22;

    /**
     * Waits for an exclusive lock of {@code [offset, offset + length)} owned by {@code fd}'s open file description
     * (see {@code lock0} in {@code pdla_posix.c}); false when the kernel has no such locks (then nothing is held).
     */
    static boolean lock(int fd, long offset, long length, Path path) throws IOException {
        return rangeLock(LOCK, "lock", fd, offset, length, path);
    }

    static void unlock(int fd, long offset, long length, Path path) throws IOException {
        rangeLock(UNLOCK, "unlock", fd, offset, length, path);
    }

    private static boolean rangeLock(MethodHandle call, String op, int fd, long offset, long length, Path path) throws IOException {
        int r;
        try {
            r = (int) call.invokeExact(fd, offset, length);
        } catch (Throwable t) {
            throw unexpected(t, path);
        }
        if (r == -EINVAL) return false;
        if (r < 0) throw error(-r, path, op + " " + length + " bytes at " + offset);
        return true;
    }

    private static final int EPERM = 1, ENOENT = 2, EACCES = 13, EEXIST = 17, ENOSPC = 28, EDQUOT = 122;

    /** The reason the FileChannel path gives for the same failure, with the system's message and the file's name. */
    static StorageException error(int errno, Path path, String op) {
        StorageException.Reason reason = switch (errno) {
            case ENOENT -> StorageException.Reason.NO_SUCH_FILE;
            case EEXIST -> StorageException.Reason.FILE_EXISTS;
            case EPERM, EACCES -> StorageException.Reason.ACCESS_DENIED;
            case ENOSPC, EDQUOT -> StorageException.Reason.NO_SPACE;
            default -> StorageException.Reason.IO;
        };
        return new StorageException(reason, path + ": " + op + ": " + strerror(errno) + " (errno " + errno + ")");
    }

    private static String strerror(int errno) {
        try {
            return (String) STRERROR.invokeExact(errno);
        } catch (Throwable t) {
            return "error " + errno;
        }
    }

    private static StorageException unexpected(Throwable t, Path path) {
        if (t instanceof Error e) throw e;
        return new StorageException(StorageException.Reason.IO, path + ": native I/O: " + t, t);
    }

    private static java.nio.charset.Charset jnuCharset() {
        String name = System.getProperty("sun.jnu.encoding");
        try {
            return name == null ? java.nio.charset.Charset.defaultCharset() : java.nio.charset.Charset.forName(name);
        } catch (IllegalArgumentException e) {
            return java.nio.charset.Charset.defaultCharset();
        }
    }
}
