/*
 * pdla's one-copy POSIX I/O: pread/pwrite straight between the file and the caller's Java byte[].
 *
 * Bound to io.pdla.storage.posix.NativeIo, a class that io.pdla.storage.posix.NativePosix defines once per JVM
 * in a loader of its own (a JNI library can belong to one class loader only, and MPJ multicore ranks each
 * load pdla in their own). Every function returns a count or 0 on success and -errno on failure; the Java
 * side turns errno into the same StorageException reasons the FileChannel path gives.
 *
 * The array is pinned with GetPrimitiveArrayCritical, so the kernel copies straight into it (one copy per
 * byte, against the JDK's two: kernel to a temporary direct buffer, then to the array). While an array is
 * pinned the collector cannot run, so a transfer is pinned at most CRITICAL_MAX bytes at a time: a stall
 * of the storage stalls the JVM's collections for one such piece at most.
 */
#define _GNU_SOURCE
#include <jni.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/uio.h>

#define CRITICAL_MAX (1 << 20)

/* Transfers made through this library, by every rank of the JVM: a diagnostic the tests read (calls0). Counted here
 * because a Java counter (LongAdder) cost a sixth of a 16 KiB read's time while the read path is still interpreted. */
static long transfers;

static void count_transfer(void) {
    __atomic_fetch_add(&transfers, 1, __ATOMIC_RELAXED);
}

JNIEXPORT jlong JNICALL Java_io_pdla_storage_posix_NativeIo_calls0(JNIEnv *env, jclass cls) {
    return (jlong) __atomic_load_n(&transfers, __ATOMIC_RELAXED);
}

JNIEXPORT jint JNICALL Java_io_pdla_storage_posix_NativeIo_open0(JNIEnv *env, jclass cls, jbyteArray path, jint mode) {
    jsize n = (*env)->GetArrayLength(env, path);
    char buf[4097];
    if (n <= 0 || n >= (jsize) sizeof buf) return -ENAMETOOLONG;
    (*env)->GetByteArrayRegion(env, path, 0, n, (jbyte *) buf);
    buf[n] = 0;
    int flags = mode == 2 ? O_RDWR : mode == 1 ? O_WRONLY : O_RDONLY;
    int fd;
    do fd = open(buf, flags | O_CLOEXEC); while (fd < 0 && errno == EINTR);
    return fd < 0 ? -errno : fd;
}

JNIEXPORT jint JNICALL Java_io_pdla_storage_posix_NativeIo_close0(JNIEnv *env, jclass cls, jint fd) {
    /* no retry on EINTR: on Linux the descriptor is gone either way */
    return close(fd) < 0 ? -errno : 0;
}

JNIEXPORT jstring JNICALL Java_io_pdla_storage_posix_NativeIo_strerror0(JNIEnv *env, jclass cls, jint err) {
    char buf[256];
    const char *s = strerror_r(err, buf, sizeof buf); /* GNU variant: returns the message */
    return (*env)->NewStringUTF(env, s);
}

/* Reads up to len bytes at pos into a[off..]; stops early only at end of file. Bytes read, or -errno. */
static jlong read_into(JNIEnv *env, jint fd, jbyteArray a, jint off, jlong len, jlong pos) {
    jlong done = 0;
    while (done < len) {
        size_t want = (size_t) (len - done < CRITICAL_MAX ? len - done : CRITICAL_MAX);
        jbyte *p = (*env)->GetPrimitiveArrayCritical(env, a, NULL);
        if (p == NULL) return -ENOMEM;
        ssize_t r;
        do r = pread(fd, p + off + done, want, (off_t) (pos + done)); while (r < 0 && errno == EINTR);
        int err = errno;
        (*env)->ReleasePrimitiveArrayCritical(env, a, p, 0);
        if (r < 0) return -err;
        if (r == 0) break;
        done += r;
    }
    return done;
}

/* Writes len bytes of a[off..] at pos, all of them. Bytes written, or -errno. */
static jlong write_from(JNIEnv *env, jint fd, jbyteArray a, jint off, jlong len, jlong pos) {
    jlong done = 0;
    while (done < len) {
        size_t want = (size_t) (len - done < CRITICAL_MAX ? len - done : CRITICAL_MAX);
        jbyte *p = (*env)->GetPrimitiveArrayCritical(env, a, NULL);
        if (p == NULL) return -ENOMEM;
        ssize_t r;
        do r = pwrite(fd, p + off + done, want, (off_t) (pos + done)); while (r < 0 && errno == EINTR);
        int err = errno;
        (*env)->ReleasePrimitiveArrayCritical(env, a, p, JNI_ABORT);
        if (r < 0) return -err;
        if (r == 0) return -EIO; /* pwrite of a positive count wrote nothing: no progress possible */
        done += r;
    }
    return done;
}

JNIEXPORT jlong JNICALL Java_io_pdla_storage_posix_NativeIo_pread0(JNIEnv *env, jclass cls, jint fd, jbyteArray a, jint off, jint len, jlong pos) {
    if (fd < 0) return -EBADF; /* refused before it counts: NativePosix.linkCallSites calls with no descriptor */
    count_transfer();
    return read_into(env, fd, a, off, len, pos);
}

/* Hints given by preadAhead0 in this JVM: a diagnostic the tests read (hints0). */
static long hints;

#define ASKED_AHEAD (1LL << 62)
#define NO_NOWAIT (1LL << 61)

/*
 * pread0 for a read whose handle would read ahead [ahead, ahead + ahead_len) if the read must wait for the device:
 * first tried with RWF_NOWAIT, which fails with EAGAIN (or stops short) unless the bytes are in the page cache; only
 * then is the kernel asked to start reading the range (POSIX_FADV_WILLNEED, which does not wait), and the rest read
 * as pread0 reads. So a cached file pays no hint, whose look-up of every page of the range would cost as much as the
 * reads it serves. With always set (the reads already stream through an uncached file) the hint is given first,
 * without the try. Bytes read, with ASKED_AHEAD set when the hint was given, NO_NOWAIT when the file cannot be read
 * without waiting (no hint then, nor ever for this descriptor); or -errno.
 */
JNIEXPORT jlong JNICALL Java_io_pdla_storage_posix_NativeIo_preadAhead0(JNIEnv *env, jclass cls, jint fd, jbyteArray a, jint off, jint len,
        jlong pos, jlong ahead, jlong ahead_len, jboolean always) {
    if (fd < 0) return -EBADF; /* refused before it counts: NativePosix.linkCallSites calls with no descriptor */
    count_transfer();
    jlong got = 0;
    if (len > 0 && !always) {
        size_t want = (size_t) (len < CRITICAL_MAX ? len : CRITICAL_MAX);
        jbyte *p = (*env)->GetPrimitiveArrayCritical(env, a, NULL);
        if (p == NULL) return -ENOMEM;
        struct iovec v = { p + off, want };
        ssize_t r;
        do r = preadv2(fd, &v, 1, (off_t) pos, RWF_NOWAIT); while (r < 0 && errno == EINTR);
        int err = errno;
        (*env)->ReleasePrimitiveArrayCritical(env, a, p, 0);
        if (r < 0 && err != EAGAIN) {
            if (err != EOPNOTSUPP && err != ENOSYS && err != EINVAL) return -err;
            /* a kernel or file system without RWF_NOWAIT: no hint, and the caller stops asking (NO_NOWAIT) */
            jlong r2 = read_into(env, fd, a, off, len, pos);
            return r2 < 0 ? r2 : r2 | NO_NOWAIT;
        }
        if (r > 0) got = r;
        if (got == len) return got;
    }
    posix_fadvise(fd, (off_t) ahead, (off_t) ahead_len, POSIX_FADV_WILLNEED);
    __atomic_fetch_add(&hints, 1, __ATOMIC_RELAXED);
    jlong rest = read_into(env, fd, a, off + (jint) got, len - got, pos + got);
    if (rest < 0) return rest;
    return (got + rest) | ASKED_AHEAD;
}

JNIEXPORT jlong JNICALL Java_io_pdla_storage_posix_NativeIo_hints0(JNIEnv *env, jclass cls) {
    return (jlong) __atomic_load_n(&hints, __ATOMIC_RELAXED);
}

JNIEXPORT jlong JNICALL Java_io_pdla_storage_posix_NativeIo_pwrite0(JNIEnv *env, jclass cls, jint fd, jbyteArray a, jint off, jint len, jlong pos) {
    if (fd < 0) return -EBADF; /* refused before it counts: NativePosix.linkCallSites calls with no descriptor */
    count_transfer();
    return write_from(env, fd, a, off, len, pos);
}

/*
 * A list of file pieces moved between consecutive bytes of a[off..] and the file, in one crossing into native
 * code. POSIX has no call that takes several file offsets (preadv scatters one file range over several buffers),
 * so each piece is one pread or pwrite. A read stops at the first piece cut short by end of file. Bytes moved, or
 * -errno.
 */
static jlong list_io(JNIEnv *env, jint fd, jbyteArray a, jint off, jlongArray offsets, jlongArray lengths, jint count, int write) {
    jlong total = 0;
    jlong pos[256], len[256];
    for (jint i = 0; i < count; i += 256) {
        jint k = count - i < 256 ? count - i : 256;
        (*env)->GetLongArrayRegion(env, offsets, i, k, pos);
        (*env)->GetLongArrayRegion(env, lengths, i, k, len);
        for (jint j = 0; j < k; j++) {
            jlong r = write ? write_from(env, fd, a, (jint) (off + total), len[j], pos[j])
                            : read_into(env, fd, a, (jint) (off + total), len[j], pos[j]);
            if (r < 0) return r;
            total += r;
            if (!write && r < len[j]) return total;
        }
    }
    return total;
}

JNIEXPORT jlong JNICALL Java_io_pdla_storage_posix_NativeIo_preadList0(JNIEnv *env, jclass cls, jint fd, jbyteArray a, jint off,
        jlongArray offsets, jlongArray lengths, jint count) {
    if (fd < 0) return -EBADF; /* refused before it counts: NativePosix.linkCallSites calls with no descriptor */
    count_transfer();
    return list_io(env, fd, a, off, offsets, lengths, count, 0);
}

JNIEXPORT jlong JNICALL Java_io_pdla_storage_posix_NativeIo_pwriteList0(JNIEnv *env, jclass cls, jint fd, jbyteArray a, jint off,
        jlongArray offsets, jlongArray lengths, jint count) {
    if (fd < 0) return -EBADF; /* refused before it counts: NativePosix.linkCallSites calls with no descriptor */
    count_transfer();
    return list_io(env, fd, a, off, offsets, lengths, count, 1);
}

/*
 * Byte-range locks held by the open file description of fd (Linux OFD locks, F_OFD_SETLKW), not by the process:
 * they exclude other descriptors of this process too, so each MPJ multicore rank's handle excludes the others in the
 * kernel, and closing some other descriptor of the file does not drop them (a process-owned fcntl lock, which
 * FileChannel.lock takes, is dropped by the process's first close of any descriptor of the file). They conflict with
 * process-owned fcntl locks of other processes as those conflict with each other. 0, or -errno (EINVAL: the kernel
 * has no OFD locks).
 */
static int set_range_lock(jint fd, int cmd, short type, jlong pos, jlong len) {
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = type;
    fl.l_whence = SEEK_SET;
    fl.l_start = (off_t) pos;
    fl.l_len = (off_t) len;
    int r;
    do r = fcntl(fd, cmd, &fl); while (r < 0 && errno == EINTR);
    return r < 0 ? -errno : 0;
}

JNIEXPORT jint JNICALL Java_io_pdla_storage_posix_NativeIo_lock0(JNIEnv *env, jclass cls, jint fd, jlong pos, jlong len) {
    return set_range_lock(fd, F_OFD_SETLKW, F_WRLCK, pos, len);
}

JNIEXPORT jint JNICALL Java_io_pdla_storage_posix_NativeIo_unlock0(JNIEnv *env, jclass cls, jint fd, jlong pos, jlong len) {
    return set_range_lock(fd, F_OFD_SETLK, F_UNLCK, pos, len);
}
