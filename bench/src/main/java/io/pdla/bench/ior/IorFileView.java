package io.pdla.bench.ior;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.FileType;

/**
 * IOR's file view (-V, {@code --mpiio.useFileView}), built as IOR's MPIIO backend builds it: the etype is
 * one transfer of {@code t} bytes, the filetype a subarray of {@code (1, tpb * tasks)} etypes of which a
 * rank sees {@code (1, tpb)} starting at {@code tpb * dataRank}, so tiling it covers one segment per
 * extent. Offsets are then counted in transfers of the rank's own data, and each call seeks the
 * individual pointer there and moves one etype (IOR's SeekOffset).
 */
final class IorFileView {
    private final long block;
    private final int transfer;
    private final int tasksPerFile;

    IorFileView(long block, long transfer, int np, boolean filePerProcess) {
        this.block = block;
        this.transfer = Math.toIntExact(transfer);
        this.tasksPerFile = filePerProcess ? 1 : np;
        long etypesPerExtent = block / transfer * tasksPerFile;
        if (etypesPerExtent > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("-V: a segment of " + etypesPerExtent + " transfers (-b / -t x ranks) does not fit "
                    + "a subarray dimension (at most " + Integer.MAX_VALUE + ")");
        }
    }

    static IorFileView of(IorOptions o, int np) {
        return new IorFileView(o.blockSize(), o.transferSize(), np, o.filePerProcess());
    }

    FileType etype() {
        return FileType.bytes(transfer);
    }

    /** The filetype seen by the rank that moves {@code dataRank}'s blocks. */
    FileType filetype(int dataRank) {
        int perBlock = (int) (block / transfer);
        int offsetFactor = tasksPerFile == 1 ? 0 : dataRank;
        return Datatypes.subarray(new int[]{1, perBlock * tasksPerFile}, new int[]{1, perBlock},
                new int[]{0, perBlock * offsetFactor}, Datatypes.Order.C, transfer);
    }

    /** The view offset, in etypes, of the transfer at absolute file offset {@code offset}. */
    long viewOffset(long offset, int dataRank) {
        if (tasksPerFile == 1) return offset / transfer;
        long segmentBytes = block * tasksPerFile;
        return block / transfer * (offset / segmentBytes) + (offset % segmentBytes - (long) dataRank * block) / transfer;
    }
}
