package io.pdla.mpiio;

import io.pdla.access.ExtentList;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.IoCall;
import io.pdla.storage.RangeLock;
import io.pdla.storage.StorageFile;

import java.io.IOException;

/**
 * The end of the chain in atomic mode (MPI_File_set_atomicity true): each call holds one exclusive
 * byte-range lock over the span of all its extents while it reads or writes them, so concurrent
 * overlapping calls of different processes are sequentially consistent, as ROMIO does with fcntl locks.
 *
 * <p>It goes to the driver's file below data sieving: sieving locks each of its windows on its own, which
 * would both split a call into several atomic pieces and wait for the lock this call already holds.
 * Reads of a file opened read-only take no lock (an exclusive lock needs the file open for writing);
 * they are consistent with writers that lock, but not excluded by other read-only handles, which do not write.
 */
final class AtomicAccess implements InterceptorChain.Terminal {
    private final StorageFile raw;
    private final boolean readOnly;

    /** {@code driverFile}: the driver's file, not the data-sieving wrapper the other calls go through. */
    AtomicAccess(StorageFile driverFile, boolean readOnly) {
        this.raw = driverFile;
        this.readOnly = readOnly;
    }

    @Override
    public long execute(IoCall call) throws IOException {
        ExtentList extents = call.extents();
        switch (call.op()) {
            case READ, WRITE -> {
                if (extents.totalBytes() == 0) return 0;
                boolean read = call.op() == io.pdla.access.IoOp.READ;
                if (read && readOnly) return raw.readv(extents, call.buffer());
                long from = extents.firstOffset();
                try (RangeLock ignored = raw.lock(from, extents.endOffset() - from)) {
                    return read ? raw.readv(extents, call.buffer()) : raw.writev(extents, call.buffer());
                }
            }
            default -> {
                return 0;
            }
        }
    }
}
