package io.pdla.storage.posix;

/**
 * The JNI entry points of {@code libpdlaposix} ({@code core/src/main/native/pdla_posix.c}). Never called by name:
 * {@link NativePosix} defines this class once per JVM, from its bytes, in a class loader of its own, loads the
 * library from there and reaches these methods through method handles. That is why it may use JDK types only,
 * and why the library is bound to one class loader however many MPJ multicore ranks (each with its own loader
 * of pdla) use it.
 *
 * <p>Every method returns a count, or 0, on success and {@code -errno} on failure.
 */
final class NativeIo {
    private NativeIo() {
    }

    /** Loads the library into this class's loader: {@link System#load} binds it to its caller's loader. */
    static void load(String libraryPath) {
        System.load(libraryPath);
    }

    /** {@code mode}: 0 read-only, 1 write-only, 2 read-write; {@code path} NUL-free, in the platform's encoding. */
    static native int open0(byte[] path, int mode);

    static native int close0(int fd);

    static native String strerror0(int errno);

    static native long pread0(int fd, byte[] array, int arrayOffset, int length, long position);

    static native long pwrite0(int fd, byte[] array, int arrayOffset, int length, long position);

    static native long preadList0(int fd, byte[] array, int arrayOffset, long[] offsets, long[] lengths, int count);

    static native long pwriteList0(int fd, byte[] array, int arrayOffset, long[] offsets, long[] lengths, int count);

    /** Waits for an exclusive lock of {@code [position, position + length)} held by {@code fd}'s open file description. */
    static native int lock0(int fd, long position, long length);

    static native int unlock0(int fd, long position, long length);

    /**
     * {@link #pread0}, but when the bytes are not all in the page cache, or {@code always}, the kernel is first asked to
     * read {@code [ahead, ahead + aheadLength)} (bit 62 of the result then set).
     */
    static native long preadAhead0(int fd, byte[] array, int arrayOffset, int length, long position, long ahead, long aheadLength, boolean always);

    /** Read-ahead hints {@link #preadAhead0} gave in this JVM. */
    static native long hints0();

    /** Transfers (the calls above that move bytes) made through the library in this JVM. */
    static native long calls0();
}
