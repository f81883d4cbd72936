package io.pdla.tracer.counters;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;

import static io.pdla.tracer.counters.MpiioCounter.*;
import static io.pdla.tracer.counters.PosixCounter.*;

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
    private static final Counter[] POSIX_READ_BINS = bins(PosixCounter.values(), POSIX_SIZE_READ_0_100);
    private static final Counter[] POSIX_WRITE_BINS = bins(PosixCounter.values(), POSIX_SIZE_WRITE_0_100);
    private static final Counter[] MPIIO_READ_BINS = bins(MpiioCounter.values(), MPIIO_SIZE_READ_AGG_0_100);
    private static final Counter[] MPIIO_WRITE_BINS = bins(MpiioCounter.values(), MPIIO_SIZE_WRITE_AGG_0_100);

    private final CounterRecord posix;
    private final CounterRecord mpiio;
    private final CommonValues posixAccess = new CommonValues();
    private final CommonValues posixStrides = new CommonValues();
    private final CommonValues mpiioAccess = new CommonValues();
    private final ModuleTimes posixTimes = new ModuleTimes();
    private final ModuleTimes mpiioTimes = new ModuleTimes();
    private final long fileAlignment;

    /** POSIX "record ref" state that never reaches the log. */
    private long lastByteRead;
    private long lastByteWritten;
    private int posixLastIo = NONE;
    private int mpiioLastIo = NONE;

    public FileCounters(int rank, long recordId, String path, String mountPoint, String fsType, long fileAlignment) {
        this.posix = new CounterRecord(Module.POSIX, rank, recordId, path, mountPoint, fsType);
        this.mpiio = new CounterRecord(Module.MPIIO, rank, recordId, path, mountPoint, fsType);
        this.fileAlignment = fileAlignment;
        for (Counter c : new Counter[]{POSIX_FILENOS, POSIX_DUPS, POSIX_STATS, POSIX_MMAPS, POSIX_RENAME_SOURCES,
                POSIX_RENAME_TARGETS, POSIX_MODE, POSIX_MEM_NOT_ALIGNED, POSIX_MEM_ALIGNMENT}) {
            posix.set(c, -1);
        }
        posix.set(POSIX_FILE_ALIGNMENT, fileAlignment);
    }

    private static Counter[] bins(Counter[] all, Counter first) {
        Counter[] out = new Counter[10];
        System.arraycopy(all, first.ordinal(), out, 0, 10);
        return out;
    }

    /** An open of the file; opens are not timed by the interceptor chain, so start and end are {@code t}. */
    public void opened(long t, int amode, int commSize, boolean hasHints) {
        posix.add(POSIX_OPENS, 1);
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

    /**
     * A read or write call. {@code requested} are the call's extents, {@code moved} the bytes the chain
     * returned (less than requested at end of file).
     */
    public void data(IoOp op, boolean collective, ExtentList requested, long moved, long t1, long t2) {
        boolean read = op == IoOp.READ;
        long total = requested.totalBytes();
        mpiio.add(read ? (collective ? MPIIO_COLL_READS : MPIIO_INDEP_READS) : (collective ? MPIIO_COLL_WRITES : MPIIO_INDEP_WRITES), 1);
        mpiio.add(read ? MPIIO_BYTES_READ : MPIIO_BYTES_WRITTEN, total);
        mpiio.add((read ? MPIIO_READ_BINS : MPIIO_WRITE_BINS)[SizeBins.bin(total)], 1);
        mpiioAccess.observe(total);
        if (mpiioLastIo == (read ? WRITE : READ)) mpiio.add(MPIIO_RW_SWITCHES, 1);
        mpiioLastIo = read ? READ : WRITE;
        if (read) {
            mpiioTimes.read(t1, t2, total);
            mpiioTimes.stamp(ModuleTimes.Kind.READ, t1, t2);
        } else {
            mpiioTimes.write(t1, t2, total);
            mpiioTimes.stamp(ModuleTimes.Kind.WRITE, t1, t2);
        }

        ExtentList done = moved >= total ? requested : requested.slice(0, Math.max(0, moved));
        for (int i = 0; i < done.size(); i++) posixOp(read, done.offset(i), done.length(i));
        if (read) {
            posixTimes.read(t1, t2, done.totalBytes());
            posixTimes.stamp(ModuleTimes.Kind.READ, t1, t2);
        } else {
            posixTimes.write(t1, t2, done.totalBytes());
            posixTimes.stamp(ModuleTimes.Kind.WRITE, t1, t2);
        }
    }

    /** POSIX_RECORD_READ / _WRITE of darshan-posix.c for one positional operation. */
    private void posixOp(boolean read, long off, long n) {
        long lastByte = read ? lastByteRead : lastByteWritten;
        if (off > lastByte) posix.add(read ? POSIX_SEQ_READS : POSIX_SEQ_WRITES, 1);
        if (off == lastByte + 1) posix.add(read ? POSIX_CONSEC_READS : POSIX_CONSEC_WRITES, 1);
        long stride = off > 0 && off > lastByte && lastByte != 0 ? off - lastByte - 1 : 0;
        if (read) lastByteRead = off + n - 1;
        else lastByteWritten = off + n - 1;
        Counter maxByte = read ? POSIX_MAX_BYTE_READ : POSIX_MAX_BYTE_WRITTEN;
        if (posix.get(maxByte) < off + n - 1) posix.set(maxByte, off + n - 1);
        posix.add(read ? POSIX_BYTES_READ : POSIX_BYTES_WRITTEN, n);
        posix.add(read ? POSIX_READS : POSIX_WRITES, 1);
        posix.add((read ? POSIX_READ_BINS : POSIX_WRITE_BINS)[SizeBins.bin(n)], 1);
        posixAccess.observe(n);
        posixStrides.observe(stride);
        if (fileAlignment > 0 && off % fileAlignment != 0) posix.add(POSIX_FILE_NOT_ALIGNED, 1);
        if (posixLastIo == (read ? WRITE : READ)) posix.add(POSIX_RW_SWITCHES, 1);
        posixLastIo = read ? READ : WRITE;
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
    public CounterRecord posix() {
        CounterRecord r = posix.copy();
        posixAccess.writeTo(r, POSIX_ACCESS, POSIX_ACCESS_COUNT);
        posixStrides.writeTo(r, POSIX_STRIDE, POSIX_STRIDE_COUNT);
        posixTimes.writeTo(r, POSIX_F, POSIX_MAX_READ_TIME_SIZE, POSIX_MAX_WRITE_TIME_SIZE);
        return r;
    }

    /** A copy of the MPI-IO record as it stands. */
    public CounterRecord mpiio() {
        CounterRecord r = mpiio.copy();
        mpiioAccess.writeTo(r, MPIIO_ACCESS, MPIIO_ACCESS_COUNT);
        mpiioTimes.writeTo(r, MPIIO_F, MPIIO_MAX_READ_TIME_SIZE, MPIIO_MAX_WRITE_TIME_SIZE);
        return r;
    }
}
