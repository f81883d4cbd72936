package io.pdla.storage.sieve;

import io.pdla.access.ExtentList;
import io.pdla.storage.Layout;
import io.pdla.storage.RangeLock;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * Data sieving for independent non-contiguous access, as ROMIO's {@code ADIOI_GEN_ReadStrided} and
 * {@code ADIOI_GEN_WriteStrided} do it, over any {@link StorageFile}.
 *
 * <p><b>Reads.</b> A vectored read whose extents are in file order and do not overlap becomes one read per
 * window: a window starts at the next requested byte and spans up to {@code ind_rd_buffer_size} bytes, never
 * past the last requested byte; the pieces inside are copied out. Holes inside a window are read with it
 * (ROMIO does the same: it reads the whole window whatever its holes; the {@code automatic} rule below
 * is where hole sizes count); a hole wider than the rest of a window is skipped, since the next window
 * starts at the next piece. A piece longer than a window is read through several. End-of-file ends the
 * read exactly where a plain {@code readv} would stop.
 *
 * <p><b>Writes.</b> The same windows of up to {@code ind_wr_buffer_size} bytes, each a read-modify-write
 * under an exclusive byte-range lock of the window ({@link StorageFile#lock}): lock, read the window (not
 * when the pieces cover it entirely), patch the pieces in, write the window back, unlock. The window ends
 * at the last piece byte inside it, so the file never grows beyond what a plain {@code writev} would make
 * it. Sieved writers of the same file exclude each other through the locks; a writer that writes into the
 * holes of a window without locking can be overwritten by the window's old bytes (as with ROMIO).
 *
 * <p><b>Hints</b> ({@link SievingSettings}): {@code enable} sieves every vectored call of two or more pieces
 * in file order; {@code disable} never sieves; {@code automatic} sieves such a call when its holes are
 * cheap to move: when the bytes between the pieces are at most the requested bytes (the read moves at most
 * twice what was asked) or the mean hole is at most 64 KiB (about what a disk or a network file system
 * transfers in the time of one extra request). ROMIO itself treats {@code automatic} as {@code enable} in
 * its generic code; the rule keeps sparse views from reading whole windows of holes. Writes need
 * byte-range locks: on a driver without them, {@code romio_ds_write=enable} fails with
 * {@code UNSUPPORTED} naming the hint (before anything is written) and {@code automatic} writes piece by
 * piece. Lists out of file order or overlapping, and single pieces, pass through to the file unchanged.
 *
 * <p><b>Writes that are not sieved</b> take the byte-range lock of their span while this file may sieve writes, so
 * that another rank's sieved window cannot put old bytes back over them. When every rank of the open is a thread of
 * this JVM ({@code ranksWriteOrder}, from the open's shared-memory group), they hold that lock shared instead and a
 * sieved window holds it exclusively too: the same order among the ranks, at the cost of an atomic operation rather
 * than two system calls per write (about a third of a fresh job's first 16 KiB writes).
 *
 * <p>Entry point for the shim: {@code SievingStorageFile.wrap(storageFile, hints)} at open.
 */
public final class SievingStorageFile implements StorageFile {
    /** The mean hole {@code automatic} still sieves over, whatever the density. */
    public static final long AUTOMATIC_MAX_MEAN_HOLE = 64 * 1024;

    private final StorageFile file;
    private final SievingSettings settings;
    private volatile boolean lockUnsupported;
    /** The ranks' shared order of writes when all of them are threads of this JVM, else null (byte-range locks). */
    private final java.util.concurrent.locks.ReadWriteLock ranksWriteOrder;

    private SievingStorageFile(StorageFile file, SievingSettings settings, java.util.concurrent.locks.ReadWriteLock ranksWriteOrder) {
        this.file = file;
        this.settings = settings;
        this.ranksWriteOrder = ranksWriteOrder;
    }

    /**
     * {@code file} with data sieving as {@code hints} say ({@link SievingSettings#fromHints}); the file
     * itself when both directions are disabled. Invalid hint values: {@link IllegalArgumentException}
     * naming the key and value.
     */
    public static StorageFile wrap(StorageFile file, Map<String, String> hints) {
        return wrap(file, SievingSettings.fromHints(hints));
    }

    public static StorageFile wrap(StorageFile file, SievingSettings settings) {
        return wrap(file, settings, null);
    }

    /**
     * {@link #wrap(StorageFile, Map)} for an open whose ranks are all threads of this JVM: {@code ranksWriteOrder}, one
     * lock for all of them, orders their unsieved writes (shared) against sieved windows (exclusive) instead of
     * byte-range locks of the file.
     */
    public static StorageFile wrap(StorageFile file, Map<String, String> hints, java.util.concurrent.locks.ReadWriteLock ranksWriteOrder) {
        return wrap(file, SievingSettings.fromHints(hints), ranksWriteOrder);
    }

    public static StorageFile wrap(StorageFile file, SievingSettings settings, java.util.concurrent.locks.ReadWriteLock ranksWriteOrder) {
        if (settings.read() == SievingSettings.Mode.DISABLE && settings.write() == SievingSettings.Mode.DISABLE) return file;
        return new SievingStorageFile(file, settings, ranksWriteOrder);
    }

    public SievingSettings settings() {
        return settings;
    }

    /** The file underneath. */
    public StorageFile delegate() {
        return file;
    }

    // ---- the decision ---------------------------------------------------------------------------------

    /** Two or more pieces, each starting at or after the end of the one before. */
    static boolean monotone(ExtentList extents) {
        return extents.size() >= 2 && extents.isMonotone();
    }

    static boolean holesPay(ExtentList extents) {
        long requested = extents.totalBytes();
        int last = extents.size() - 1;
        long span = extents.offset(last) + extents.length(last) - extents.offset(0);
        long holes = span - requested;
        return holes <= requested || holes / Math.max(1, last) <= AUTOMATIC_MAX_MEAN_HOLE;
    }

    private static boolean sieve(SievingSettings.Mode mode, ExtentList extents) {
        if (mode == SievingSettings.Mode.DISABLE || !monotone(extents)) return false;
        return mode == SievingSettings.Mode.ENABLE || holesPay(extents);
    }

    // ---- reads ----------------------------------------------------------------------------------------

    @Override
    public long readv(ExtentList extents, ByteBuffer dst) throws IOException {
        if (!sieve(settings.read(), extents)) return file.readv(extents, dst);
        long end = extents.offset(extents.size() - 1) + extents.length(extents.size() - 1);
        ByteBuffer window = ByteBuffer.allocate((int) Math.min(settings.readBufferSize(), end - extents.offset(0)));
        long windowStart = 0, windowEnd = 0;   // bytes of the file held in window: [windowStart, windowEnd)
        boolean eof = false;
        long total = 0;
        for (int i = 0; i < extents.size(); i++) {
            long off = extents.offset(i), len = extents.length(i), done = 0;
            while (done < len) {
                long at = off + done;
                if (at >= windowEnd) {
                    if (eof) return total;
                    windowStart = at;
                    window.clear().limit((int) Math.min(window.capacity(), end - at));
                    int want = window.limit();
                    int got = fill(window, at);
                    windowEnd = at + got;
                    eof = got < want;
                    if (got == 0) return total;
                }
                int from = (int) (at - windowStart);
                int n = (int) Math.min(len - done, windowEnd - at);
                dst.put(window.duplicate().limit(from + n).position(from));
                done += n;
                total += n;
            }
        }
        return total;
    }

    /** Reads into {@code buf} from its position to its limit; returns the bytes read, short only at end-of-file. */
    private int fill(ByteBuffer buf, long offset) throws IOException {
        int got = 0;
        while (buf.hasRemaining()) {
            int n = file.read(offset + got, buf);
            if (n <= 0) break;
            got += n;
        }
        return got;
    }

    // ---- writes ---------------------------------------------------------------------------------------

    @Override
    public long writev(ExtentList extents, ByteBuffer src) throws IOException {
        if (!sieve(settings.write(), extents)) return lockedWritev(extents, src);
        if (lockUnsupported) return refuseOrPassThrough(extents, src, null);
        long end = extents.offset(extents.size() - 1) + extents.length(extents.size() - 1);
        ByteBuffer window = ByteBuffer.allocate((int) Math.min(settings.writeBufferSize(), end - extents.offset(0)));
        int i = 0;
        long doneInPiece = 0;
        while (i < extents.size()) {
            if (extents.length(i) == 0) {
                i++;
                continue;
            }
            long start = extents.offset(i) + doneInPiece;
            long limit = Math.min(start + window.capacity(), end);
            // The window ends at the last piece byte below limit; note whether the pieces leave holes.
            long windowEnd = start;
            boolean holes = false;
            int j = i;
            long d = doneInPiece;
            while (j < extents.size() && extents.offset(j) + d < limit) {
                if (extents.length(j) == 0) {    // writes nothing: must not stretch the window
                    j++;
                    continue;
                }
                long from = extents.offset(j) + d;
                if (from > windowEnd) holes = true;
                windowEnd = Math.min(extents.offset(j) + extents.length(j), limit);
                if (windowEnd < extents.offset(j) + extents.length(j)) break;
                j++;
                d = 0;
            }
            int len = (int) (windowEnd - start);
            java.util.concurrent.locks.Lock alone = ranksWriteOrder == null ? null : ranksWriteOrder.writeLock();
            RangeLock lock;
            try {
                lock = file.lock(start, len);
            } catch (StorageException e) {
                if (e.reason() != StorageException.Reason.UNSUPPORTED) throw e;
                lockUnsupported = true;
                return refuseOrPassThrough(extents, src, e);
            }
            if (alone != null) alone.lock();   // after the file's lock, as every sieved window: one order, no deadlock
            try (lock) {
                window.clear().limit(len);
                if (holes) {
                    int got = fill(window, start);
                    // past end-of-file the window is a hole: zeros, as the file would read there
                    java.util.Arrays.fill(window.array(), got, len, (byte) 0);
                }
                // patch the pieces in, consuming src in list order
                while (i < extents.size() && extents.offset(i) + doneInPiece < windowEnd) {
                    long at = extents.offset(i) + doneInPiece;
                    int n = (int) Math.min(extents.length(i) - doneInPiece, windowEnd - at);
                    int srcPos = src.position();
                    window.clear().position((int) (at - start));
                    window.put(src.duplicate().limit(srcPos + n));
                    src.position(srcPos + n);
                    doneInPiece += n;
                    if (doneInPiece == extents.length(i)) {
                        i++;
                        doneInPiece = 0;
                    }
                }
                window.clear().limit(len);
                file.write(start, window);
            } finally {
                if (alone != null) alone.unlock();
            }
        }
        return extents.totalBytes();
    }

    /** One extent is never sieved (there is no hole to read over). */
    @Override
    public int readArray(long offset, byte[] dst, int dstOffset, int length) throws IOException {
        return file.readArray(offset, dst, dstOffset, length);
    }

    /** One extent is written as {@link #lockedWritev} writes one: under the lock sieved writes take, while they may. */
    @Override
    public void writeArray(long offset, byte[] src, int srcOffset, int length) throws IOException {
        if (ranksWriteOrder != null && settings.write() != SievingSettings.Mode.DISABLE) {
            java.util.concurrent.locks.Lock shared = ranksWriteOrder.readLock();
            shared.lock();
            try {
                file.writeArray(offset, src, srcOffset, length);
            } finally {
                shared.unlock();
            }
            return;
        }
        RangeLock lock = lockForUnsievedWrite(offset, length);
        if (lock == null) {
            file.writeArray(offset, src, srcOffset, length);
            return;
        }
        try (lock) {
            file.writeArray(offset, src, srcOffset, length);
        }
    }

    /**
     * A write that is not sieved still takes the lock of its span while this file may sieve writes: a sieved
     * writer's read-modify-write of a window would otherwise put the window's old bytes back over it (MPI
     * requires concurrent non-overlapping writes of different processes to survive).
     */
    private long lockedWritev(ExtentList extents, ByteBuffer src) throws IOException {
        if (ranksWriteOrder != null && settings.write() != SievingSettings.Mode.DISABLE) {
            java.util.concurrent.locks.Lock shared = ranksWriteOrder.readLock();
            shared.lock();
            try {
                return file.writev(extents, src);
            } finally {
                shared.unlock();
            }
        }
        RangeLock lock = extents.totalBytes() == 0 ? null : lockForUnsievedWrite(extents.firstOffset(), extents.endOffset() - extents.firstOffset());
        if (lock == null) return file.writev(extents, src);
        try (lock) {
            return file.writev(extents, src);
        }
    }

    /** The lock an unsieved write of {@code [start, start+length)} takes while write sieving may run; null when none is needed or the store has none. */
    private RangeLock lockForUnsievedWrite(long start, long length) throws IOException {
        if (settings.write() == SievingSettings.Mode.DISABLE || lockUnsupported || length == 0) return null;
        try {
            return file.lock(start, length);
        } catch (StorageException e) {
            if (e.reason() != StorageException.Reason.UNSUPPORTED) throw e;
            lockUnsupported = true;
            return null;
        }
    }

    private long refuseOrPassThrough(ExtentList extents, ByteBuffer src, StorageException cause) throws IOException {
        if (settings.write() == SievingSettings.Mode.ENABLE) {
            throw new StorageException(StorageException.Reason.UNSUPPORTED, file.uri() + ": hint " + SievingSettings.WRITE
                    + "=enable needs byte-range locks for its read-modify-write, which this file's driver does not have;"
                    + " use " + SievingSettings.WRITE + "=automatic or disable", cause);
        }
        return file.writev(extents, src);
    }

    // ---- the rest passes through ----------------------------------------------------------------------

    @Override
    public URI uri() {
        return file.uri();
    }

    @Override
    public int read(long offset, ByteBuffer dst) throws IOException {
        return file.read(offset, dst);
    }

    @Override
    public void write(long offset, ByteBuffer src) throws IOException {
        if (src.remaining() == 0) return;
        lockedWritev(ExtentList.of(offset, src.remaining()), src);
    }

    @Override
    public long size() throws IOException {
        return file.size();
    }

    @Override
    public void setSize(long size) throws IOException {
        file.setSize(size);
    }

    @Override
    public void sync() throws IOException {
        file.sync();
    }

    @Override
    public void preallocate(long size) throws IOException {
        file.preallocate(size);
    }

    @Override
    public Layout layout() throws IOException {
        return file.layout();
    }

    @Override
    public RangeLock lock(long offset, long length) throws IOException {
        return file.lock(offset, length);
    }

    @Override
    public void close() throws IOException {
        file.close();
    }

    @Override
    public java.util.Optional<io.pdla.storage.MemoryMapping> memoryMapping() {
        return file.memoryMapping();
    }

    @Override
    public StorageFile unwrapped() {
        return file.unwrapped();
    }

    @Override
    public int storeOpens() {
        return file.storeOpens();
    }

    @Override
    public boolean bypassesCache() {
        return file.bypassesCache();
    }
}
