package io.pdla.tracer.counters;

import io.pdla.darshan.Counter;
import io.pdla.darshan.PosixFCounter;
import io.pdla.darshan.MpiioFCounter;
import io.pdla.darshan.SizeBins;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;

import static io.pdla.darshan.MpiioCounter.*;
import static io.pdla.darshan.PosixCounter.*;

/**
 * The counters of one file on one rank, both modules, as calls happen. The MPI-IO record counts each call
 * once with its requested bytes; the POSIX record counts what the driver does underneath: one positional
 * operation per flattened extent, with the bytes actually moved. Times are nanoseconds since the rank's
 * origin. Not thread-safe: the runtime serializes a rank's calls.
 */
public final class FileCounters {
    private static final int NONE = 0, READ = 1, WRITE = 2;
    private static final Counter[] POSIX_F = PosixFCounter.values();
    private static final Counter[] MPIIO_F = MpiioFCounter.values();
    private static final Counter[] POSIX_STRIDE = {POSIX_STRIDE1_STRIDE, POSIX_STRIDE2_STRIDE, POSIX_STRIDE3_STRIDE, POSIX_STRIDE4_STRIDE};
    private static final Counter[] POSIX_STRIDE_COUNT = {POSIX_STRIDE1_COUNT, POSIX_STRIDE2_COUNT, POSIX_STRIDE3_COUNT, POSIX_STRIDE4_COUNT};
    private static final Counter[] POSIX_ACCESS = {POSIX_ACCESS1_ACCESS, POSIX_ACCESS2_ACCESS, POSIX_ACCESS3_ACCESS, POSIX_ACCESS4_ACCESS};
    private static final Counter[] POSIX_ACCESS_COUNT = {POSIX_ACCESS1_COUNT, POSIX_ACCESS2_COUNT, POSIX_ACCESS3_COUNT, POSIX_ACCESS4_COUNT};
    private static final Counter[] MPIIO_ACCESS = {MPIIO_ACCESS1_ACCESS, MPIIO_ACCESS2_ACCESS, MPIIO_ACCESS3_ACCESS, MPIIO_ACCESS4_ACCESS};
    private static final Counter[] MPIIO_ACCESS_COUNT = {MPIIO_ACCESS1_COUNT, MPIIO_ACCESS2_COUNT, MPIIO_ACCESS3_COUNT, MPIIO_ACCESS4_COUNT};

    private final TracedRecord posix;
    private final TracedRecord mpiio;
    private final CommonValues posixAccess = new CommonValues();
    private final CommonValues posixStrides = new CommonValues();
    private final CommonValues mpiioAccess = new CommonValues();
    private final ModuleTimes posixTimes = new ModuleTimes();
    private final ModuleTimes mpiioTimes = new ModuleTimes();
    /** The times of the run being counted, measured once for both modules (reused: counted under the rank's lock). */
    private final ModuleTimes.RunTimes runTimes = new ModuleTimes.RunTimes();
    private final long fileAlignment;
    /** {@code fileAlignment - 1} when it is a power of two (block sizes are), else -1: avoids a division per op. */
    private final long alignmentMask;

    /** POSIX "record ref" state that never reaches the log. */
    private long lastByteRead;
    private long lastByteWritten;
    private int posixLastIo = NONE;
    private int mpiioLastIo = NONE;

    public FileCounters(int rank, long recordId, String path, String mountPoint, String fsType, long fileAlignment) {
        this(Module.POSIX, rank, recordId, path, mountPoint, fsType, fileAlignment);
    }

    private FileCounters(Module storageModule, int rank, long recordId, String path, String mountPoint, String fsType, long fileAlignment) {
        this.posix = new TracedRecord(storageModule, rank, recordId, path, mountPoint, fsType);
        this.mpiio = new TracedRecord(Module.MPIIO, rank, recordId, path, mountPoint, fsType);
        this.fileAlignment = fileAlignment;
        this.alignmentMask = fileAlignment > 0 && Long.bitCount(fileAlignment) == 1 ? fileAlignment - 1 : -1;
        for (Counter c : new Counter[]{POSIX_FILENOS, POSIX_DUPS, POSIX_STATS, POSIX_MMAPS, POSIX_RENAME_SOURCES,
                POSIX_RENAME_TARGETS, POSIX_MODE, POSIX_MEM_NOT_ALIGNED, POSIX_MEM_ALIGNMENT}) {
            posix.set(c, -1);
        }
        posix.set(POSIX_FILE_ALIGNMENT, fileAlignment);
    }

    /** An open of the file; opens are not timed by the interceptor chain, so start and end are {@code t}. */
    public void opened(long t, int amode, int commSize, boolean hasHints) {
        opened(t, amode, commSize, hasHints, 1);
    }

    /**
     * As above, where the storage layer opened the file {@code storeOpens} times for this one MPI-IO open (the POSIX
     * driver keeps two descriptors): POSIX_OPENS counts what the POSIX layer saw, as Darshan's POSIX module would.
     */
    public void opened(long t, int amode, int commSize, boolean hasHints, int storeOpens) {
        posix.add(POSIX_OPENS, storeOpens);
        lastByteRead = 0;
        lastByteWritten = 0;
        posixTimes.stamp(ModuleTimes.Kind.OPEN, t, t);
        mpiio.add(commSize > 1 ? MPIIO_COLL_OPENS : MPIIO_INDEP_OPENS, 1);
        if (hasHints) mpiio.add(MPIIO_HINTS, 1);
        mpiio.set(MPIIO_MODE, amode);
        mpiioTimes.stamp(ModuleTimes.Kind.OPEN, t, t);
    }

    public void closing(long t) {
        posixTimes.stamp(ModuleTimes.Kind.CLOSE, t, t);
        mpiioTimes.stamp(ModuleTimes.Kind.CLOSE, t, t);
    }

    // The per-call path works on the raw counter arrays by ordinal: it runs for every request.
    private static final int M_COLL_READS = MPIIO_COLL_READS.ordinal(), M_INDEP_READS = MPIIO_INDEP_READS.ordinal(),
            M_COLL_WRITES = MPIIO_COLL_WRITES.ordinal(), M_INDEP_WRITES = MPIIO_INDEP_WRITES.ordinal(),
            M_BYTES_READ = MPIIO_BYTES_READ.ordinal(), M_BYTES_WRITTEN = MPIIO_BYTES_WRITTEN.ordinal(),
            M_READ_BIN0 = MPIIO_SIZE_READ_AGG_0_100.ordinal(), M_WRITE_BIN0 = MPIIO_SIZE_WRITE_AGG_0_100.ordinal(),
            M_RW_SWITCHES = MPIIO_RW_SWITCHES.ordinal();
    private static final int P_SEQ_READS = POSIX_SEQ_READS.ordinal(), P_SEQ_WRITES = POSIX_SEQ_WRITES.ordinal(),
            P_CONSEC_READS = POSIX_CONSEC_READS.ordinal(), P_CONSEC_WRITES = POSIX_CONSEC_WRITES.ordinal(),
            P_MAX_BYTE_READ = POSIX_MAX_BYTE_READ.ordinal(), P_MAX_BYTE_WRITTEN = POSIX_MAX_BYTE_WRITTEN.ordinal(),
            P_BYTES_READ = POSIX_BYTES_READ.ordinal(), P_BYTES_WRITTEN = POSIX_BYTES_WRITTEN.ordinal(),
            P_READS = POSIX_READS.ordinal(), P_WRITES = POSIX_WRITES.ordinal(),
            P_READ_BIN0 = POSIX_SIZE_READ_0_100.ordinal(), P_WRITE_BIN0 = POSIX_SIZE_WRITE_0_100.ordinal(),
            P_FILE_NOT_ALIGNED = POSIX_FILE_NOT_ALIGNED.ordinal(), P_RW_SWITCHES = POSIX_RW_SWITCHES.ordinal();

    /**
     * A read or write call. {@code requested} are the call's extents, {@code moved} the bytes the chain
     * returned (less than requested at end of file).
     */
    public void data(IoOp op, boolean collective, ExtentList requested, long moved, long t1, long t2) {
        boolean read = op == IoOp.READ;
        long total = requested.totalBytes();
        mpiioCall(read, collective, total, t1, t2);
        ExtentList done = moved >= total ? requested : requested.slice(0, Math.max(0, moved));
        for (int i = 0; i < done.size(); i++) posixOp(read, done.offset(i), done.length(i));
        posixCall(read, done.totalBytes(), t1, t2);
    }

    /**
     * A read or write call of one extent, {@code length} bytes at {@code offset}: exactly what {@link #data}
     * counts for {@code ExtentList.of(offset, length)}, without the list (the batched runtime keeps calls as numbers).
     */
    public void data(IoOp op, boolean collective, long offset, long length, long moved, long t1, long t2) {
        boolean read = op == IoOp.READ;
        mpiioCall(read, collective, length, t1, t2);
        long done = Math.min(length, Math.max(0, moved));
        if (done > 0) posixOp(read, offset, done);
        posixCall(read, done, t1, t2);
    }

    /**
     * {@code n} consecutive calls of one extent of {@code length} bytes each, call k at {@code first + k * stride},
     * each moving all its bytes, timed {@code t1[from + k]} to {@code t2[from + k]}: exactly what {@code n} calls of
     * {@link #data(IoOp, boolean, long, long, long, long, long)} count. The first call is counted as any other
     * (it continues what came before); the others in closed form where the pattern allows.
     */
    public void dataRun(IoOp op, boolean collective, long first, long stride, long length, int n, long[] t1, long[] t2, int from) {
        data(op, collective, first, length, length, t1[from], t2[from]);
        int rest = n - 1;
        if (rest <= 0) return;
        boolean read = op == IoOp.READ;
        long bytes = rest * length;
        long[] m = mpiio.rawCounters();
        m[read ? (collective ? M_COLL_READS : M_INDEP_READS) : (collective ? M_COLL_WRITES : M_INDEP_WRITES)] += rest;
        m[read ? M_BYTES_READ : M_BYTES_WRITTEN] += bytes;
        m[(read ? M_READ_BIN0 : M_WRITE_BIN0) + SizeBins.bin(length)] += rest;
        mpiioAccess.observe(length, rest);
        // one operation throughout: no read/write switch after the first call
        runTimes.measure(t1, t2, from + 1, rest);
        if (read) {
            mpiioTimes.reads(runTimes, t1, t2, from + 1, rest, length);
            posixTimes.reads(runTimes, t1, t2, from + 1, rest, length);
        } else {
            mpiioTimes.writes(runTimes, t1, t2, from + 1, rest, length);
            posixTimes.writes(runTimes, t1, t2, from + 1, rest, length);
        }
        if (stride < length || (first == 0 && length == 1)) {
            // overlapping or backward steps, or a last byte of 0 after the first call: Darshan's rules op by op
            for (int k = 1; k < n; k++) posixOp(read, first + k * stride, length);
            return;
        }
        // Every later call starts past the previous one's last byte (> 0) at a positive offset: each is
        // sequential, consecutive when the stride equals the length, and its gap is stride - length.
        long[] p = posix.rawCounters();
        long lastOffset = first + rest * stride;
        long lastByte = lastOffset + length - 1;
        p[read ? P_SEQ_READS : P_SEQ_WRITES] += rest;
        if (stride == length) p[read ? P_CONSEC_READS : P_CONSEC_WRITES] += rest;
        if (read) lastByteRead = lastByte;
        else lastByteWritten = lastByte;
        int maxByte = read ? P_MAX_BYTE_READ : P_MAX_BYTE_WRITTEN;
        if (p[maxByte] < lastByte) p[maxByte] = lastByte;
        p[read ? P_BYTES_READ : P_BYTES_WRITTEN] += bytes;
        p[read ? P_READS : P_WRITES] += rest;
        p[(read ? P_READ_BIN0 : P_WRITE_BIN0) + SizeBins.bin(length)] += rest;
        posixAccess.observe(length, rest);
        posixStrides.observe(stride - length, rest);
        if (fileAlignment > 0) {
            if (alignmentMask >= 0 && (stride & alignmentMask) == 0) {
                if ((first & alignmentMask) != 0) p[P_FILE_NOT_ALIGNED] += rest;
            } else {
                for (int k = 1; k < n; k++) {
                    long off = first + k * stride;
                    if (alignmentMask >= 0 ? (off & alignmentMask) != 0 : off % fileAlignment != 0) p[P_FILE_NOT_ALIGNED]++;
                }
            }
        }
    }

    private void mpiioCall(boolean read, boolean collective, long total, long t1, long t2) {
        long[] m = mpiio.rawCounters();
        m[read ? (collective ? M_COLL_READS : M_INDEP_READS) : (collective ? M_COLL_WRITES : M_INDEP_WRITES)]++;
        m[read ? M_BYTES_READ : M_BYTES_WRITTEN] += total;
        m[(read ? M_READ_BIN0 : M_WRITE_BIN0) + SizeBins.bin(total)]++;
        mpiioAccess.observe(total);
        if (mpiioLastIo == (read ? WRITE : READ)) m[M_RW_SWITCHES]++;
        mpiioLastIo = read ? READ : WRITE;
        if (read) {
            mpiioTimes.read(t1, t2, total);
            mpiioTimes.stamp(ModuleTimes.Kind.READ, t1, t2);
        } else {
            mpiioTimes.write(t1, t2, total);
            mpiioTimes.stamp(ModuleTimes.Kind.WRITE, t1, t2);
        }
    }

    private void posixCall(boolean read, long doneBytes, long t1, long t2) {
        if (read) {
            posixTimes.read(t1, t2, doneBytes);
            posixTimes.stamp(ModuleTimes.Kind.READ, t1, t2);
        } else {
            posixTimes.write(t1, t2, doneBytes);
            posixTimes.stamp(ModuleTimes.Kind.WRITE, t1, t2);
        }
    }

    /** POSIX_RECORD_READ / _WRITE of darshan-posix.c for one positional operation. */
    private void posixOp(boolean read, long off, long n) {
        long[] p = posix.rawCounters();
        long lastByte = read ? lastByteRead : lastByteWritten;
        if (off > lastByte) p[read ? P_SEQ_READS : P_SEQ_WRITES]++;
        if (off == lastByte + 1) p[read ? P_CONSEC_READS : P_CONSEC_WRITES]++;
        long stride = off > 0 && off > lastByte && lastByte != 0 ? off - lastByte - 1 : 0;
        if (read) lastByteRead = off + n - 1;
        else lastByteWritten = off + n - 1;
        int maxByte = read ? P_MAX_BYTE_READ : P_MAX_BYTE_WRITTEN;
        if (p[maxByte] < off + n - 1) p[maxByte] = off + n - 1;
        p[read ? P_BYTES_READ : P_BYTES_WRITTEN] += n;
        p[read ? P_READS : P_WRITES]++;
        p[(read ? P_READ_BIN0 : P_WRITE_BIN0) + SizeBins.bin(n)]++;
        posixAccess.observe(n);
        posixStrides.observe(stride);
        if (fileAlignment > 0 && (alignmentMask >= 0 ? (off & alignmentMask) != 0 : off % fileAlignment != 0)) p[P_FILE_NOT_ALIGNED]++;
        if (posixLastIo == (read ? WRITE : READ)) p[P_RW_SWITCHES]++;
        posixLastIo = read ? READ : WRITE;
    }

    /**
     * Counters of the same file for the aggregator layer: their POSIX-like record ({@link Module#AGG_POSIX})
     * counts what collective-buffering aggregators sent to storage ({@link #storage}); their MPI-IO record stays empty.
     */
    public FileCounters aggregatorLayer() {
        return new FileCounters(Module.AGG_POSIX, posix.rank(), posix.recordId(), posix.fileName(), posix.mountPoint(), posix.fsType(), fileAlignment);
    }

    /**
     * One storage request made below the application's calls (an aggregator's read or write of a window):
     * one positional operation per extent, as {@link #data} counts the POSIX record, and nothing at the MPI-IO level.
     */
    public void storage(IoOp op, ExtentList extents, long t1, long t2) {
        boolean read = op == IoOp.READ;
        if (!read && op != IoOp.WRITE) throw new IllegalArgumentException(op + " is not a storage read or write");
        for (int i = 0; i < extents.size(); i++) posixOp(read, extents.offset(i), extents.length(i));
        if (read) {
            posixTimes.read(t1, t2, extents.totalBytes());
            posixTimes.stamp(ModuleTimes.Kind.READ, t1, t2);
        } else {
            posixTimes.write(t1, t2, extents.totalBytes());
            posixTimes.stamp(ModuleTimes.Kind.WRITE, t1, t2);
        }
    }

    /** SEEK, SET_VIEW, SYNC or SET_SIZE. */
    public void meta(IoOp op, long t1, long t2) {
        switch (op) {
            case SYNC -> {
                posix.add(POSIX_FSYNCS, 1);
                posixTimes.sync(t1, t2);
                mpiio.add(MPIIO_SYNCS, 1);
                mpiioTimes.sync(t1, t2);
            }
            case SET_VIEW -> {
                mpiio.add(MPIIO_VIEWS, 1);
                mpiioTimes.meta(t1, t2);
            }
            case SEEK, SET_SIZE -> mpiioTimes.meta(t1, t2);
            default -> throw new IllegalArgumentException(op + " is not a metadata call with counters");
        }
    }

    /** A copy of the POSIX record as it stands. */
    public TracedRecord posix() {
        TracedRecord r = posix.copy();
        posixAccess.writeTo(r, POSIX_ACCESS, POSIX_ACCESS_COUNT);
        posixStrides.writeTo(r, POSIX_STRIDE, POSIX_STRIDE_COUNT);
        posixTimes.writeTo(r, POSIX_F, POSIX_MAX_READ_TIME_SIZE, POSIX_MAX_WRITE_TIME_SIZE);
        return r;
    }

    /** A copy of the MPI-IO record as it stands. */
    public TracedRecord mpiio() {
        TracedRecord r = mpiio.copy();
        mpiioAccess.writeTo(r, MPIIO_ACCESS, MPIIO_ACCESS_COUNT);
        mpiioTimes.writeTo(r, MPIIO_F, MPIIO_MAX_READ_TIME_SIZE, MPIIO_MAX_WRITE_TIME_SIZE);
        return r;
    }
}
